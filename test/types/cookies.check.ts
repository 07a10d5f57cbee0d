// Type tests for cookies: req.cookies, res.cookie(), res.clearCookie() and list headers; compiled by `tsc -p .`, never run.
import * as z from 'zod';
import {
  hook,
  resource,
  type HttpResponse,
  type CookieOptions,
  type Cookies,
  type Hook,
} from '../../core/index.js';
import {
  memorySessionStore,
  session,
  type SessionStore,
  type SessionData,
  sessionOf,
} from '../../core/features/sessions/index.js';

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
    // SameSite in any letter case, as the cookie package, Express and Hono take it.
    res.cookie('a', 'b', { sameSite: 'lax' });
    // @ts-expect-error: SameSite is Strict, Lax or None
    res.cookie('a', 'b', { sameSite: 'loose' });
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
  onSend: (_req, out: HttpResponse): HttpResponse => {
    type _ = Expect<Equal<typeof out.cookies, readonly string[] | undefined>>;
    return { ...out, cookies: [...(out.cookies ?? []), 'seen=1'] };
  },
});

// session(): of(req) is typed by the schema, every field optional; sessionOf(req) is SessionData.
const sessions = session({
  secret: 'a-secret-of-thirty-two-characters!!',
  schema: z.object({ user: z.string(), visits: z.number() }),
});
const sessionHook: Hook = sessions;
void sessionHook;
resource('visits', {
  index(req) {
    const data = sessions.of(req);
    type _ = Expect<Equal<typeof data, { user?: string; visits?: number }>>;
    data.visits = (data.visits ?? 0) + 1;
    // @ts-expect-error: the schema says visits is a number
    data.visits = 'many';
    const plain = sessionOf(req);
    type _untyped = Expect<Equal<typeof plain, SessionData>>;
    return {};
  },
});
const untyped = session({ secrets: ['a-secret-of-thirty-two-characters!!'] });
resource('pages', { index: (req) => ({ n: untyped.of(req).n }) });
// @ts-expect-error: the options are checked
session({ secret: 's', redis: {} });

// A store is anything with the four methods; memorySessionStore() is one; update and destroy say what they did.
session({ secret: 's', store: memorySessionStore() });
const kept: SessionStore = {
  get: async () => undefined,
  create: async () => {},
  update: async () => true,
  destroy: async () => false,
};
session({ secret: 's', store: kept });
// @ts-expect-error: a store that has no destroy cannot revoke
session({ secret: 's', store: { get: kept.get, create: kept.create, update: kept.update } });
// @ts-expect-error: update must say whether the session was still kept
session({ secret: 's', store: { ...kept, update: async () => {} } });
resource('sessions', {
  create(req) {
    sessions.regenerate(req);
    return {};
  },
});
