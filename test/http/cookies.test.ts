import * as assert from 'uvu/assert';
import { pino } from 'pino';
import { hook, HttpError, resource, routes, scope } from '../../core/index.js';
import { etag } from '../../core/features/caching/index.js';
import { requestLog } from '../../core/features/logging/index.js';
import { inProcess, quietHandler, sameAnswer } from '../support/in-process.js';
import type { RawRequest } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

// Cookies on every adapter: what a request carries read as req.cookies, and any number of Set-Cookie lines
// written one per line, alike on node, polka 0.5 and 1.0 over sockets and toFetch in process.

const prefs = resource('prefs', {
  // The cookies the request carried, echoed.
  index: (req) => ({ ...req.cookies }),
  show: (req, res) => {
    switch (req.params.pref_id) {
      case 'many':
        res.cookie('theme', 'dark', { maxAge: 31_536_000 });
        res.cookie('lang', 'français');
        res.header('Set-Cookie', 'raw=1; Path=/');
        res.clearCookie('old', { path: '/prefs' });
        res.header('Link', '</prefs/a>; rel="next"').header('Link', '</prefs/b>; rel="prev"');
        return { ok: true };
      case 'secure':
        res.cookie('__Host-id', 'abc', { secure: true, sameSite: 'Strict' });
        res.cookie('__Secure-embed', 'x', {
          secure: true,
          sameSite: 'None',
          partitioned: true,
          httpOnly: false,
        });
        return { ok: true };
      case 'refused':
        res.cookie('kept', 'no');
        throw new HttpError(404, 'no such preference');
      case 'injected':
        res.header('Set-Cookie', 'a=1\r\nX-Evil: 1');
        return { ok: true };
      default:
        res.cookie('one', req.params.pref_id);
        return { ok: true };
    }
  },
});

const lines: Array<Record<string, any>> = [];
const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
// A hook that puts a Set-Cookie in the header record, beside the handler's lines.
const recorded = hook('recorded', {
  onSend: (req, out) => {
    if (req.headers['x-record'] === '1') out.headers['Set-Cookie'] = 'hooked=1';
  },
});
const table = scope({ hooks: [etag(), recorded] }, prefs);
const bare = resource('barecookies', {
  index: (_req, res) => void res.header('Set-Cookie', 'a=1\nX-Evil: 1'),
});

const cookies = withServers('cookies', routes(table, bare), { checkResponses: false });
const fetchHandler = quietHandler(routes(table, bare), { checkResponses: false });

/** One request on every socket adapter and in process, which must answer alike. */
async function everywhere(
  servers: Parameters<typeof onEvery>[0],
  request: RawRequest,
): Promise<Awaited<ReturnType<typeof onEvery>>> {
  const wire = await onEvery(servers, request);
  sameAnswer(await inProcess(fetchHandler, request), wire, `toFetch ${request.path}`);
  return wire;
}

cookies(
  'several cookies, a raw line and a cleared one: a Set-Cookie line each, in order',
  async ({ servers }) => {
    const answer = await everywhere(servers, { path: '/prefs/many' });
    assert.is(answer.status, 200);
    assert.equal(answer.cookies, [
      'theme=dark; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax',
      'lang=fran%C3%A7ais; Path=/; HttpOnly; SameSite=Lax',
      'raw=1; Path=/',
      'old=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/prefs; HttpOnly; SameSite=Lax',
    ]);
    assert.is(answer.headers.link, '</prefs/a>; rel="next", </prefs/b>; rel="prev"');
  },
);

cookies(
  'Secure, SameSite=None, Partitioned and the prefixes are sent as set, on http as on https',
  async ({ servers }) => {
    const answer = await everywhere(servers, { path: '/prefs/secure' });
    assert.equal(answer.cookies, [
      '__Host-id=abc; Path=/; HttpOnly; Secure; SameSite=Strict',
      '__Secure-embed=x; Path=/; Secure; SameSite=None; Partitioned',
    ]);
    const https = await inProcess(fetchHandler, { path: 'https://test.local/prefs/secure' });
    assert.equal(https.cookies, answer.cookies);
  },
);

cookies('req.cookies: decoded, first of a name wins, hostile pairs left out', async ({ servers }) => {
  const headers = {
    Cookie: 'theme=dark; lang=fran%C3%A7ais; theme=light; __proto__=x; bad=%E0%A4%A; n o=1; q="quoted"',
  };
  const answer = await everywhere(servers, { path: '/prefs', headers });
  assert.is(answer.status, 200);
  assert.equal(JSON.parse(answer.body), { theme: 'dark', lang: 'français', q: 'quoted' });
  const none = await everywhere(servers, { path: '/prefs' });
  assert.equal(JSON.parse(none.body), {});
});

cookies('req.cookies: two Cookie header lines are read as one', async ({ servers }) => {
  const answer = await everywhere(servers, { path: '/prefs', lines: ['Cookie: a=1', 'Cookie: b=2; a=3'] });
  assert.equal(JSON.parse(answer.body), { a: '1', b: '2' });
});

cookies('req.cookies: a huge Cookie header is bounded, never a failure', async ({ servers }) => {
  const header = Array.from({ length: 1000 }, (_, i) => `c${i}=1`).join('; ');
  const answer = await everywhere(servers, { path: '/prefs', headers: { Cookie: header } });
  assert.is(answer.status, 200);
  assert.is(Object.keys(JSON.parse(answer.body)).length, 180);
});

cookies('an error answer drops the cookies the handler set before it threw', async ({ servers }) => {
  const answer = await everywhere(servers, { path: '/prefs/refused' });
  assert.is(answer.status, 404);
  assert.equal(answer.cookies, []);
});

cookies(
  'res.header("Set-Cookie") with CR/LF throws: a 500, with hooks and without, nothing injected',
  async ({ servers }) => {
    for (const path of ['/prefs/injected', '/barecookies']) {
      const answer = await everywhere(servers, { path });
      assert.is(answer.status, 500, path);
      assert.is(answer.headers['x-evil'], undefined);
      assert.equal(answer.cookies, []);
    }
  },
);

cookies('a Set-Cookie a hook puts in the header record is sent before the lines', async ({ servers }) => {
  const answer = await everywhere(servers, { path: '/prefs/x', headers: { 'X-Record': '1' } });
  assert.equal(answer.cookies, ['hooked=1', 'one=x; Path=/; HttpOnly; SameSite=Lax']);
});

cookies("etag()'s 304 sets the cookies its 200 would", async ({ servers }) => {
  const first = await everywhere(servers, { path: '/prefs/again' });
  const tag = first.headers.etag!;
  const again = await everywhere(servers, { path: '/prefs/again', headers: { 'If-None-Match': tag } });
  assert.is(again.status, 304);
  assert.equal(again.cookies, ['one=again; Path=/; HttpOnly; SameSite=Lax']);
});

cookies('requestLog() :: Set-Cookie lines are [Redacted], as is the Cookie header', async () => {
  const handler = quietHandler(scope({ hooks: [requestLog(log)] }, prefs), { checkResponses: false });
  lines.splice(0);
  const answer = await inProcess(handler, { path: '/prefs/many', headers: { Cookie: 'secret=1' } });
  assert.is(answer.cookies!.length, 4);
  const [line] = lines;
  assert.is(line!.res.headers['Set-Cookie'], '[Redacted]');
  assert.is(line!.req.headers.cookie, '[Redacted]');
});

cookies.run();
