import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { parseCookies } from '../../core/request/cookies.js';
import { renderResult } from '../../core/response/render.js';
import { json, Reply } from '../../core/response/reply.js';
import { clearCookieLine, cookieLine } from '../../core/request/cookies.js';
import { unsendableHeader } from '../../core/util/headers.js';

// Cookies in core: the Cookie header read strictly, Set-Cookie lines written with checked attributes, and the
// Reply that collects them.

const read = (header: string | string[] | undefined) => ({ ...parseCookies(header) });

test('parseCookies() :: pairs, quotes, spaces and percent-encoding', () => {
  assert.equal(read('a=1; b=two;c="quoted" ;  d=%E2%9C%93'), { a: '1', b: 'two', c: 'quoted', d: '✓' });
  assert.equal(read(undefined), {});
  assert.equal(read(''), {});
  assert.equal(read('empty='), { empty: '' });
  assert.equal(read(['a=1', 'b=2']), { a: '1', b: '2' });
});

test('parseCookies() :: no prototype, and a __proto__ pair is skipped', () => {
  const jar = parseCookies('__proto__=x; constructor=y; toString=z');
  assert.is(Object.getPrototypeOf(Object.getPrototypeOf(jar)), null);
  assert.not.ok(Object.hasOwn(jar, '__proto__'));
  assert.is(jar.constructor as unknown, 'y');
  assert.is(jar.toString as unknown, 'z');
  const copy = Object.assign({}, jar);
  assert.is(Object.getPrototypeOf(copy), Object.prototype);
});

test('parseCookies() :: malformed pairs and bad encodings are skipped, the first of a name wins', () => {
  assert.equal(read('a=%E0%A4%A; b=ok; c=%; d'), { b: 'ok' });
  assert.equal(read('x=1; x=2'), { x: '1' });
  assert.equal(read('bad name=1; =2; ok=3; sp=a b; q=a"b; bs=a\\b'), { ok: '3' });
  assert.equal(read(';;; ; a=1;'), { a: '1' });
});

test('parseCookies() :: a huge header is read in bounded time, past 180 pairs not at all', () => {
  const header = Array.from({ length: 10_000 }, (_, i) => `c${i}=${'v'.repeat(20)}`).join('; ');
  const jar = parseCookies(header);
  assert.is(Object.keys(jar).length, 180);
  assert.is(jar.c0, 'v'.repeat(20));
  assert.is(jar.c180, undefined);
  assert.equal(read(`a=${'%'.repeat(100_000)}`), {});
});

test('cookieLine() :: defaults: HttpOnly, SameSite=Lax, Path=/, the value encoded', () => {
  assert.is(cookieLine('theme', 'dark'), 'theme=dark; Path=/; HttpOnly; SameSite=Lax');
  assert.is(cookieLine('n', 'a b;c=✓'), 'n=a%20b%3Bc%3D%E2%9C%93; Path=/; HttpOnly; SameSite=Lax');
  assert.equal(read(cookieLine('n', 'a b;c=✓').split(';')[0]), { n: 'a b;c=✓' });
});

test('cookieLine() :: every attribute', () => {
  const line = cookieLine('id', 'x', {
    httpOnly: false,
    secure: true,
    sameSite: 'None',
    path: '/app',
    domain: 'example.com',
    maxAge: 3600,
    expires: new Date(Date.UTC(2030, 0, 1)),
    partitioned: true,
  });
  assert.is(
    line,
    'id=x; Path=/app; Domain=example.com; Max-Age=3600; Expires=Tue, 01 Jan 2030 00:00:00 GMT; Secure; SameSite=None; Partitioned',
  );
  assert.is(cookieLine('s', 'x', { sameSite: 'Strict' }), 's=x; Path=/; HttpOnly; SameSite=Strict');
  // Any letter case, as the cookie package takes it, written as RFC 6265bis spells it.
  assert.is(cookieLine('s', 'x', { sameSite: 'lax' }), 's=x; Path=/; HttpOnly; SameSite=Lax');
  assert.is(cookieLine('s', 'x', { sameSite: 'strict' }), 's=x; Path=/; HttpOnly; SameSite=Strict');
});

test('cookieLine() :: bad names, values and attributes throw a TypeError saying what to change', () => {
  const cases: Array<[() => unknown, RegExp]> = [
    [() => cookieLine('a b', 'x'), /a cookie name must be a token/],
    [() => cookieLine('a=b', 'x'), /a cookie name must be a token/],
    [() => cookieLine('', 'x'), /a cookie name must be a token/],
    [() => cookieLine('a', 1 as unknown as string), /the value must be a string/],
    [() => cookieLine('a', '\ud800'), /lone surrogate/],
    [() => cookieLine('a', 'x', { path: 'app' }), /path must start with \//],
    [() => cookieLine('a', 'x', { path: '/a;b' }), /path must start with \//],
    [() => cookieLine('a', 'x', { domain: 'exa mple.com' }), /domain must be a host name/],
    [() => cookieLine('a', 'x', { maxAge: 1.5 }), /maxAge is whole seconds/],
    [() => cookieLine('a', 'x', { maxAge: 401 * 86400 }), /400 days/],
    [() => cookieLine('a', 'x', { expires: new Date(NaN) }), /expires must be a valid Date/],
    [() => cookieLine('a', 'x', { sameSite: 'loose' as 'Lax' }), /sameSite must be/],
    [() => cookieLine('a', 'x', { maxage: 1 } as object), /unknown option "maxage"/],
    [() => cookieLine('a', 'x', { sameSite: 'None' }), /sameSite: 'None' needs \{ secure: true \}/],
    [() => cookieLine('a', 'x', { partitioned: true }), /partitioned needs \{ secure: true \}/],
    [() => cookieLine('__Secure-a', 'x'), /__Secure- cookie needs/],
    [() => cookieLine('__Host-a', 'x'), /__Host- cookie needs/],
    [() => cookieLine('__host-a', 'x', { secure: true, path: '/app' }), /__Host- cookie needs/],
    [() => cookieLine('__Host-a', 'x', { secure: true, domain: 'example.com' }), /__Host- cookie needs/],
  ];
  for (const [call, message] of cases)
    assert.throws(call, (error: Error) => error instanceof TypeError && message.test(error.message));
  assert.is(
    cookieLine('__Host-id', 'x', { secure: true }),
    '__Host-id=x; Path=/; HttpOnly; Secure; SameSite=Lax',
  );
  assert.is(
    cookieLine('__Secure-id', 'x', { secure: true, path: '/a' }),
    '__Secure-id=x; Path=/a; HttpOnly; Secure; SameSite=Lax',
  );
});

test('clearCookieLine() :: empty and expired, on the path and domain it was set with', () => {
  assert.is(
    clearCookieLine('id', { domain: 'example.com', path: '/app', maxAge: 10 }),
    'id=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/app; Domain=example.com; HttpOnly; SameSite=Lax',
  );
  assert.throws(() => clearCookieLine('__Host-id'), /__Host- cookie needs/);
});

test('Reply :: cookie(), clearCookie() and header("Set-Cookie") are lines of their own, in order', () => {
  const res = new Reply().cookie('a', '1').header('Set-Cookie', 'raw=2').clearCookie('b').cookie('a', '3');
  assert.equal(res.cookies, [
    'a=1; Path=/; HttpOnly; SameSite=Lax',
    'raw=2',
    'b=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/; HttpOnly; SameSite=Lax',
    'a=3; Path=/; HttpOnly; SameSite=Lax',
  ]);
  assert.is(res.headers, null);
  const out = renderResult({ ok: true }, res.headers, res.cookies);
  assert.equal(out.cookies, res.cookies);
  assert.is(out.headers['Set-Cookie'], undefined);
});

test('Reply.header() :: list headers join, others are replaced, arrays add each value', () => {
  const res = new Reply()
    .header('Link', '</a>; rel="next"')
    .header('link', '</b>; rel="prev"')
    .header('Content-Language', ['en', 'fr'])
    .header('X-Count', '1')
    .header('x-count', '2');
  assert.equal(
    { ...res.headers },
    {
      Link: '</a>; rel="next", </b>; rel="prev"',
      'Content-Language': 'en, fr',
      'x-count': '2',
    },
  );
});

test("renderResult() :: a result's own Set-Cookie header and a Response's lines become cookie lines", () => {
  const own = renderResult(json({}, 200, { 'Set-Cookie': 'own=1' }), null, ['added=2']);
  assert.equal(own.cookies, ['own=1', 'added=2']);
  assert.is(own.headers['Set-Cookie'], undefined);
  const headers = new Headers();
  headers.append('Set-Cookie', 'a=1, with comma');
  headers.append('Set-Cookie', 'b=2');
  const response = renderResult(new Response('x', { headers }), null, ['c=3']);
  assert.equal(response.cookies, ['a=1, with comma', 'b=2', 'c=3']);
  assert.is(response.headers['set-cookie'], undefined);
  assert.is(renderResult({}, null).cookies, undefined);
});

test('Reply.header("Set-Cookie") :: a line with a control character throws at once', () => {
  assert.throws(
    () => new Reply().header('Set-Cookie', 'a=1\r\nX-Evil: 1'),
    /no CR, LF or other control character/,
  );
  assert.throws(() => new Reply().header('set-cookie', 1 as unknown as string), /must be a string/);
});

test('unsendableHeader() :: a cookie line with a control character is refused', () => {
  assert.is(unsendableHeader({}, ['a=1', 'b=2\r\nX-Evil: 1']), '"Set-Cookie"');
  assert.is(unsendableHeader({}, ['a=1']), undefined);
});

test.run();
