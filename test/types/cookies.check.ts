// Type tests for cookies: req.cookies, res.cookie(), res.clearCookie() and list headers; compiled by `tsc -p .`, never run.
import { hook, resource, type Answer, type CookieOptions, type Cookies } from '../../core/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

resource('prefs', {
  index(req, res) {
    type _ = Expect<Equal<typeof req.cookies, Cookies>>;
    type _value = Expect<Equal<(typeof req.cookies)[string], string>>;
    // @ts-expect-error: the cookies are read-only
    req.cookies.theme = 'dark';
    res.cookie('theme', 'dark', { maxAge: 3600, sameSite: 'Strict', secure: true, partitioned: true });
    res.cookie('lang', 'fr').clearCookie('old', { path: '/prefs', domain: 'example.com' });
    res.header('Set-Cookie', 'raw=1').header('Link', ['</a>; rel="next"', '</b>; rel="prev"']);
    // @ts-expect-error: SameSite is 'Strict', 'Lax' or 'None', spelled so
    res.cookie('a', 'b', { sameSite: 'lax' });
    // @ts-expect-error: maxAge is a number of seconds
    res.cookie('a', 'b', { maxAge: '1h' });
    // @ts-expect-error: a value is a string
    res.cookie('a', 1);
    // @ts-expect-error: no such option
    res.cookie('a', 'b', { signed: true });
    return {};
  },
});

const options: CookieOptions = { httpOnly: false, path: '/', expires: new Date() };
void options;

// An answer hook sees the cookie lines, and may return an answer with more.
hook('more', {
  answer: (_req, out: Answer): Answer => {
    type _ = Expect<Equal<typeof out.cookies, readonly string[] | undefined>>;
    return { ...out, cookies: [...(out.cookies ?? []), 'seen=1'] };
  },
});
