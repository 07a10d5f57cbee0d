import * as assert from 'uvu/assert';
import { test } from 'uvu';
import * as z from 'zod';
import { hook, HttpError, resource, scope, type Routable } from '../../core/index.js';
import { session, sessionOf } from '../../core/features/sessions/index.js';
import { open, seal, sealKeys } from '../../core/features/sessions/seal.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import type { RawResponse } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

// session(): sessionOf(req) in one sealed cookie, kept across requests on every adapter, and every attack on the
// cookie (tampered, truncated, expired, another secret, oversized, malformed, fixation) an empty session.

const SECRET = 'a-secret-of-thirty-two-characters!!';
const OTHER = 'another-secret-of-thirty-two-chars!';

function app(options: Parameters<typeof session>[0]): Routable {
  const sessions = session({
    ...options,
    schema: z.object({ user: z.string(), visits: z.number() }).partial(),
  });
  const counter = resource('visits', {
    // Counts this browser's visits: the session changes on every request.
    index(req) {
      const data = sessions.of(req);
      data.visits = (data.visits ?? 0) + 1;
      return { visits: data.visits, user: data.user ?? null };
    },
    show(req) {
      const data = sessions.of(req);
      switch (req.params.visit_id) {
        case 'read':
          return { user: data.user ?? null, visits: data.visits ?? 0 };
        case 'signin':
          data.user = 'ada';
          return { user: 'ada' };
        case 'signout':
          delete data.user;
          delete data.visits;
          return { user: null };
        case 'huge':
          data.user = 'x'.repeat(5000);
          return {};
        case 'wrong':
          (data as Record<string, unknown>).user = 42;
          return {};
        case 'fails':
          data.user = 'mallory';
          throw new Error('half done');
        default:
          throw new HttpError(404);
      }
    },
  });
  return scope({ hooks: [sessions] }, counter);
}

const table = app({ secret: SECRET, cookie: { secure: false, sameSite: 'Strict' }, name: 'sid' });
const handler = quietHandler(table, { checkResponses: false });
const ask = (path: string, cookie?: string): Promise<RawResponse> =>
  inProcess(handler, { path, headers: cookie === undefined ? {} : { Cookie: cookie } });
/** The `name=value` part of an answer's only Set-Cookie line. */
const pairOf = (answer: RawResponse): string => {
  assert.is(answer.cookies?.length, 1, 'one Set-Cookie line');
  return answer.cookies![0]!.split(';')[0]!;
};

const sessions = withServers('sessions', table, { checkResponses: false });

sessions(
  'a session is kept across requests, changed, read and emptied, on every adapter',
  async ({ servers }) => {
    // Each adapter seals with its own random IV, so each is asked alone, with the cookie it gave last.
    for (const server of servers) {
      const ask = (path: string, cookie?: string) =>
        onEvery([server], { path, headers: cookie === undefined ? {} : { Cookie: cookie } });
      const first = await ask('/visits');
      assert.equal(JSON.parse(first.body), { visits: 1, user: null }, server.name);
      assert.match(
        first.cookies![0]!,
        /^sid=v1\.[\w-]+; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Strict$/,
      );
      let cookie = pairOf(first);
      cookie = pairOf(await ask('/visits/signin', cookie));
      const second = await ask('/visits', cookie);
      assert.equal(JSON.parse(second.body), { visits: 2, user: 'ada' }, server.name);
      cookie = pairOf(second);
      const read = await ask('/visits/read', cookie);
      assert.equal(JSON.parse(read.body), { user: 'ada', visits: 2 });
      assert.equal(read.cookies, [], 'a session read and left alone is not written');
      const out = await ask('/visits/signout', cookie);
      assert.match(out.cookies![0]!, /^sid=; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=\//);
      assert.equal(JSON.parse((await ask('/visits')).body).visits, 1, 'a fresh visit starts again');
    }
  },
);

sessions.run();

test('session() :: an emptied session removes the cookie; an untouched one sends nothing', async () => {
  const signed = pairOf(await ask('/visits/signin'));
  const out = await ask('/visits/signout', signed);
  assert.match(out.cookies![0]!, /^sid=; Max-Age=0; Expires=Thu, 01 Jan 1970/);
  assert.equal((await ask('/visits/read')).cookies, []);
});

test('session() :: tampered, truncated, malformed and foreign cookies are an empty session, removed', async () => {
  const signed = pairOf(await ask('/visits/signin'));
  const value = signed.slice('sid='.length);
  const flipped = value.slice(0, -2) + (value.at(-2) === 'A' ? 'B' : 'A') + value.at(-1);
  const foreign = await seal(
    sealKeys([OTHER], 'session sid'),
    JSON.stringify({ d: { user: 'ada' }, e: Date.now() + 1e6 }),
    'sid',
  );
  const otherName = await seal(
    sealKeys([SECRET], 'session other'),
    JSON.stringify({ d: { user: 'ada' }, e: Date.now() + 1e6 }),
    'other',
  );
  for (const [label, cookie] of [
    ['tampered', flipped],
    ['truncated', value.slice(0, 30)],
    ['cut to the IV', value.slice(0, 19)],
    ['no version', value.slice(3)],
    ['bad base64url', 'v1.!!!!'],
    ['one char too many', `${value}A`],
    ['empty', ''],
    ['another secret', foreign],
    ['sealed for another cookie name', otherName],
    ['percent garbage', '%E0%A4%A'],
    ['huge', `v1.${'A'.repeat(8000)}`],
  ] as const) {
    const out = await ask('/visits/read', `sid=${cookie}`);
    assert.is(out.status, 200, label);
    assert.equal(JSON.parse(out.body), { user: null, visits: 0 }, label);
    if (cookie !== '' && cookie !== '%E0%A4%A')
      assert.match(out.cookies?.[0] ?? '', /^sid=; Max-Age=0/, `${label}: the cookie is removed`);
  }
});

test('session() :: expired inside the seal is empty, whatever the browser kept', async () => {
  const keys = sealKeys([SECRET], 'session sid');
  const expired = await seal(keys, JSON.stringify({ d: { user: 'ada' }, e: Date.now() - 1 }), 'sid');
  const live = await seal(keys, JSON.stringify({ d: { user: 'ada' }, e: Date.now() + 60_000 }), 'sid');
  assert.equal(JSON.parse((await ask('/visits/read', `sid=${expired}`)).body).user, null);
  assert.equal(JSON.parse((await ask('/visits/read', `sid=${live}`)).body).user, 'ada');
  const noExpiry = await seal(keys, JSON.stringify({ d: { user: 'ada' } }), 'sid');
  const notObject = await seal(keys, JSON.stringify({ d: ['ada'], e: Date.now() + 60_000 }), 'sid');
  const notJson = await seal(keys, 'not json', 'sid');
  const otherShape = await seal(keys, JSON.stringify({ d: { user: 7 }, e: Date.now() + 60_000 }), 'sid');
  for (const cookie of [noExpiry, notObject, notJson, otherShape])
    assert.equal(JSON.parse((await ask('/visits/read', `sid=${cookie}`)).body).user, null);
});

test('session() :: rotation: the first secret seals, every one opens', async () => {
  const old = pairOf(await ask('/visits/signin'));
  const rotated = quietHandler(app({ secrets: [OTHER, SECRET], cookie: { secure: false }, name: 'sid' }), {
    checkResponses: false,
  });
  const read = await inProcess(rotated, { path: '/visits', headers: { Cookie: old } });
  assert.equal(JSON.parse(read.body), { visits: 1, user: 'ada' });
  const resealed = pairOf(read).slice('sid='.length);
  assert.ok(
    (await open(sealKeys([OTHER], 'session sid'), resealed, 'sid')) !== undefined,
    'sealed with the first',
  );
  assert.is(await open(sealKeys([SECRET], 'session sid'), resealed, 'sid'), undefined);
  // Once the old secret is dropped, the cookies it sealed are empty sessions.
  const dropped = quietHandler(app({ secret: OTHER, cookie: { secure: false }, name: 'sid' }), {
    checkResponses: false,
  });
  const gone = await inProcess(dropped, { path: '/visits/read', headers: { Cookie: old } });
  assert.equal(JSON.parse(gone.body).user, null);
});

test('session() :: fixation: signing in seals a new cookie; the one from before carries nothing of it', async () => {
  const before = pairOf(await ask('/visits'));
  const after = pairOf(await ask('/visits/signin', before));
  assert.is.not(after, before);
  assert.equal(JSON.parse((await ask('/visits/read', before)).body).user, null);
  assert.equal(JSON.parse((await ask('/visits/read', after)).body).user, 'ada');
});

test('session() :: over 4 KB, or off its schema, is a 500 naming the fix; a 500 writes nothing', async () => {
  const reports: unknown[] = [];
  const reporting = quietHandler(table, {
    checkResponses: false,
    onError: (error) => void reports.push(error),
  });
  const huge = await inProcess(reporting, { path: '/visits/huge' });
  assert.is(huge.status, 500);
  assert.equal(huge.cookies, []);
  assert.match(String(reports[0]), /the sealed session is \d+ bytes, over the 4096 a browser keeps/);
  const wrong = await inProcess(reporting, { path: '/visits/wrong' });
  assert.is(wrong.status, 500);
  assert.match(String(reports[1]), /does not match its schema/);
  const fails = await inProcess(reporting, { path: '/visits/fails' });
  assert.is(fails.status, 500);
  assert.equal(fails.cookies, []);
});

test('session() :: options are checked when declared', () => {
  const cases: Array<[object, RegExp]> = [
    [{}, /give secret, or secrets/],
    [{ secret: SECRET, secrets: [SECRET] }, /give secret, or secrets/],
    [{ secret: 'short' }, /32 characters or more/],
    [{ secrets: [] }, /non-empty list/],
    [{ secret: SECRET, redis: {} }, /unknown option "redis"/],
    [{ secret: SECRET, cookie: { secure: false } }, /__Host- cookie needs/],
    [{ secret: SECRET, maxAge: -1 }, /maxAge is whole seconds/],
    [{ secret: SECRET, schema: { type: 'object' } }, /Standard Schema/],
  ];
  for (const [options, message] of cases)
    assert.throws(() => session(options as Parameters<typeof session>[0]), message);
});

test('sessionOf(req) :: read on a route without session() throws, naming the fix', async () => {
  const reports: unknown[] = [];
  const bare = resource('notes', { index: (req) => ({ ...sessionOf(req) }) });
  const out = await inProcess(quietHandler(bare, { onError: (error) => void reports.push(error) }), {
    path: '/notes',
  });
  assert.is(out.status, 500);
  assert.match(
    String(reports[0]),
    /sessionOf\(req\): notes\.index runs no session\(\) hook; add session\(\{ secret \}\)/,
  );
});

test('onSend parts :: one that returns a promise is awaited; one that never settles is a 503 at handlerTimeout', async () => {
  const later = hook('later', {
    onSend: async (_req, out) => ({ ...out, headers: { ...out.headers, 'X-Later': 'yes' } }),
  });
  const stuck = hook('stuck', {
    onSend: (req) => (req.headers['x-stuck'] === '1' ? new Promise<void>(() => {}) : undefined),
  });
  const reports: unknown[] = [];
  const notes = resource('notes', { index: () => [] });
  const handler = quietHandler(scope({ hooks: [later, stuck] }, notes), {
    handlerTimeout: 50,
    onError: (error) => void reports.push(error),
  });
  const out = await inProcess(handler, { path: '/notes' });
  assert.is(out.status, 200);
  assert.is(out.headers['x-later'], 'yes');
  const hung = await inProcess(handler, { path: '/notes', headers: { 'X-Stuck': '1' } });
  assert.is(hung.status, 503);
  assert.match(String(reports[0]), /an onSend hook did not settle within 50 ms/);
});

test('session() :: responses that set its cookie are never stored; those made with one are private; all vary on Cookie', async () => {
  const sessions = session({ secret: SECRET, name: 'sid', cookie: { secure: false } });
  const pages = resource(
    'pages',
    {
      index: (req) => ((sessionOf(req).seen = true), { seen: true }),
      show: (req) => ({ seen: sessionOf(req).seen ?? false }),
    },
    { cache: { show: 'public, max-age=60' } },
  );
  const served = quietHandler(scope({ hooks: [sessions] }, pages), { checkResponses: false });
  const set = await inProcess(served, { path: '/pages' });
  assert.is(set.headers['cache-control'], 'private, no-store');
  const cookie = set.cookies![0]!.split(';')[0]!;
  const read = await inProcess(served, { path: '/pages/1', headers: { Cookie: cookie } });
  assert.equal(JSON.parse(read.body), { seen: true });
  assert.equal(read.cookies ?? [], []);
  assert.is(read.headers['cache-control'], 'private, max-age=60');
  assert.match(read.headers.vary ?? '', /\bCookie\b/);
  // A visitor without a session gets the route's own caching, and Vary: Cookie, so that a shared cache never
  // hands the signed-out page to someone signed in.
  const anonymous = await inProcess(served, { path: '/pages/1' });
  assert.is(anonymous.headers['cache-control'], 'public, max-age=60');
  assert.match(anonymous.headers.vary ?? '', /\bCookie\b/);
});

test.run();
