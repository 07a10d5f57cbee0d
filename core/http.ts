// `sevenfold/http`: what a hook is written with besides `hook()` and `guard()`: response headers by any letter
// case, Vary, and Set-Cookie lines, the same helpers sevenfold's own features use.
export { headerKey, setHeaders, addVary } from './util/headers.js';
export { cookieLine, clearCookieLine, type CookieOptions } from './request/cookies.js';
