import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { HttpError, resource, scope } from '../../core/index.js';
import {
  flash,
  flashes,
  memorySessionStore,
  session,
  sessionOf,
  signedIn,
  type SessionStore,
} from '../../core/features/sessions/index.js';
import { open, sealKeys } from '../../core/features/sessions/seal.js';
import { storeKey } from '../../core/features/sessions/store.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import type { RawResponse } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

// session({ store }): the cookie holds a sealed random id, the session lives in the store, so it can be revoked;
// a new id whenever its fields change (sign-in, sign-out) or regenerate() asks; the store sees digests of ids only.

const SECRET = 'a-secret-of-thirty-two-characters!!';

/** A memory store that also lists what was asked of it. */
function recording(): SessionStore & { readonly size: number; calls: string[]; keys(): string[] } {
  const inner = memorySessionStore();
  const calls: string[] = [];
  const kept = new Set<string>();
  return {
    calls,
    get size() {
      return inner.size;
    },
    keys: () => [...kept],
    get: (key) => (calls.push('get'), inner.get(key)),
    create: (key, value, expires) => (calls.push('create'), kept.add(key), inner.create(key, value, expires)),
    update: (key, value, expires) => (calls.push('update'), inner.update(key, value, expires)),
    destroy: (key) => (calls.push('destroy'), kept.delete(key), inner.destroy(key)),
  };
}

let release: () => void = () => {};

function app(store: SessionStore) {
  const sessions = session({ secret: SECRET, store, name: 'sid', cookie: { secure: false } });
  const visits = resource('visits', {
    index(req) {
      sessionOf(req).visits = (Number(sessionOf(req).visits) || 0) + 1;
      return { visits: sessionOf(req).visits, user: sessionOf(req).user ?? null };
    },
    async show(req) {
      switch (req.params.visit_id) {
        case 'signin':
          sessionOf(req).user = 'ada';
          return { user: 'ada' };
        case 'victim':
          sessionOf(req).user = 'victim';
          return { user: 'victim' };
        case 'refused':
          // Signs someone in, then refuses: nothing of it may stay.
          sessionOf(req).user = 'mallory';
          flash(req, 'notice', 'never');
          throw new HttpError(401, 'no');
        case 'notice':
          flash(req, 'notice', 'Hello.');
          return {};
        case 'who':
          return { user: sessionOf(req).user ?? null, flashes: flashes(req) };
        case 'signout':
          delete sessionOf(req).user;
          delete sessionOf(req).visits;
          return { user: null };
        case 'again':
          sessions.regenerate(req);
          return { user: sessionOf(req).user ?? null };
        case 'huge':
          sessionOf(req).notes = 'x'.repeat(10_000);
          return {};
        case 'slow':
          // Held until the test lets it go: a request in flight while the session is destroyed elsewhere.
          await new Promise<void>((resolve) => (release = resolve));
          sessionOf(req).visits = 99;
          return {};
        default:
          throw new HttpError(404);
      }
    },
  });
  return scope({ hooks: [sessions] }, visits);
}

const pairOf = (answer: RawResponse): string => {
  assert.is(answer.cookies?.length, 1, 'one Set-Cookie line');
  return answer.cookies![0]!.split(';')[0]!;
};

function asker(store: SessionStore, onError?: (error: unknown) => void) {
  const handler = quietHandler(app(store), { checkResponses: false, ...(onError ? { onError } : {}) });
  return (path: string, cookie?: string): Promise<RawResponse> =>
    inProcess(handler, { path, headers: cookie === undefined ? {} : { Cookie: cookie } });
}

/** The id a cookie seals, as the hook opens it. */
async function idOf(pair: string): Promise<string> {
  const id = await open(sealKeys([SECRET], 'session sid'), pair.slice('sid='.length), 'sid');
  assert.ok(id, 'the cookie opens');
  return id!;
}

const stored = withServers('session store', app(memorySessionStore()), { checkResponses: false });

stored('a session in a store is kept across requests on every adapter', async ({ servers }) => {
  for (const server of servers) {
    const ask = (path: string, cookie?: string) =>
      onEvery([server], { path, headers: cookie === undefined ? {} : { Cookie: cookie } });
    const first = await ask('/visits');
    assert.equal(JSON.parse(first.body), { visits: 1, user: null }, server.name);
    assert.match(first.cookies![0]!, /^sid=v1\.[\w-]+; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/);
    const cookie = pairOf(first);
    const second = await ask('/visits', cookie);
    assert.equal(JSON.parse(second.body), { visits: 2, user: null }, server.name);
    // The same id, sealed again: the count lives in the store, not in the cookie.
    assert.is(await idOf(pairOf(second)), await idOf(cookie), server.name);
    const third = await ask('/visits', pairOf(second));
    assert.equal(JSON.parse(third.body), { visits: 3, user: null }, server.name);
  }
});

stored.run();

test('session({ store }) :: signing in as someone else over a signed-in session gives a new id: the old copy is not the new person', async () => {
  const store = recording();
  const ask = asker(store);
  const attacker = pairOf(await ask('/visits/signin'));
  // The victim's browser holds the attacker's cookie (planted), and signs in over it.
  const victim = pairOf(await ask('/visits/victim', attacker));
  assert.is.not(await idOf(victim), await idOf(attacker), 'a new id when who is signed in changes');
  assert.equal(
    JSON.parse((await ask('/visits/who', attacker)).body).user,
    null,
    'the planted copy signs no one in',
  );
  assert.equal(JSON.parse((await ask('/visits/who', victim)).body).user, 'victim');
});

test('session({ store }) :: a refusal leaves the session as it was found: a handler that signs in, then throws 401', async () => {
  const store = recording();
  const ask = asker(store);
  const refused = await ask('/visits/refused');
  assert.is(refused.status, 401);
  assert.equal(refused.cookies ?? [], [], 'no cookie for a new visitor refused');
  assert.is(store.size, 0);
  const signedIn = pairOf(await ask('/visits/signin'));
  const again = await ask('/visits/refused', signedIn);
  assert.is(again.status, 401);
  assert.equal(JSON.parse((await ask('/visits/who', signedIn)).body), { user: 'ada', flashes: [] });
});

test('session({ store }) :: a visitor’s flash messages alone cost the store nothing, and are shown once', async () => {
  const store = recording();
  const ask = asker(store);
  for (let i = 0; i < 20; i++) await ask('/visits/notice');
  assert.is(store.size, 0, 'no row for anonymous messages');
  assert.not.ok(store.calls.includes('create'));
  const cookie = pairOf(await ask('/visits/notice'));
  const shown = await ask('/visits/who', cookie);
  assert.equal(JSON.parse(shown.body).flashes, [{ type: 'notice', message: 'Hello.' }]);
  assert.match(shown.cookies![0]!, /^sid=; .*Max-Age=0/, 'shown, then gone');
  assert.is(store.size, 0);
});

test('memorySessionStore() :: evicts the least recently used: sessions in use outlive a flood of new ones', async () => {
  const store = memorySessionStore({ max: 3 });
  const ask = asker(store);
  const kept = pairOf(await ask('/visits/signin'));
  for (let i = 0; i < 10; i++) {
    await ask('/visits');
    // In use between the others: read and written again each time.
    assert.equal(
      JSON.parse((await ask('/visits/who', kept)).body).user,
      'ada',
      `after ${i + 1} new sessions`,
    );
  }
  assert.is(store.size, 3);
});

test('session({ store }) :: signing out destroys the session: a copied cookie is signed out too', async () => {
  const store = recording();
  const ask = asker(store);
  const signedIn = pairOf(await ask('/visits/signin'));
  const copy = signedIn;
  const out = await ask('/visits/signout', signedIn);
  assert.match(out.cookies![0]!, /^sid=; .*Max-Age=0/);
  assert.is(store.size, 0, 'nothing kept after signing out');
  const stolen = await ask('/visits', copy);
  assert.equal(JSON.parse(stolen.body), { visits: 1, user: null }, 'the copy opens an empty session');
  assert.is(store.size, 1, 'a new session, for the visit');
});

test('session({ store }) :: a session destroyed in the store (revoked) is empty, and its cookie replaced', async () => {
  const store = recording();
  const ask = asker(store);
  const cookie = pairOf(await ask('/visits/signin'));
  for (const key of store.keys()) await store.destroy(key);
  const after = await ask('/visits', cookie);
  assert.equal(JSON.parse(after.body), { visits: 1, user: null });
  assert.is.not(await idOf(pairOf(after)), await idOf(cookie), 'a new id, not the revoked one');
});

test('session({ store }) :: fixation: signing in gives a new id and forgets the one from before', async () => {
  const store = recording();
  const ask = asker(store);
  const planted = pairOf(await ask('/visits'));
  const signedIn = await ask('/visits/signin', planted);
  assert.is.not(await idOf(pairOf(signedIn)), await idOf(planted));
  assert.is(store.size, 1, 'only the new one is kept');
  assert.equal(JSON.parse((await ask('/visits', planted)).body), { visits: 1, user: null });
  // Values that change without a field added or removed keep the id: no churn for a counter.
  store.calls.length = 0;
  const counted = await ask('/visits', pairOf(signedIn));
  assert.is(await idOf(pairOf(counted)), await idOf(pairOf(signedIn)));
  assert.equal(store.calls, ['get', 'update']);
});

test('session({ store }) :: regenerate(req) gives a new id without a change', async () => {
  const store = recording();
  const ask = asker(store);
  const first = pairOf(await ask('/visits/signin'));
  const again = await ask('/visits/again', first);
  assert.equal(JSON.parse(again.body), { user: 'ada' });
  assert.is.not(await idOf(pairOf(again)), await idOf(first));
  assert.equal(JSON.parse((await ask('/visits', pairOf(again))).body), { visits: 1, user: 'ada' });
  assert.equal(JSON.parse((await ask('/visits', first)).body), { visits: 1, user: null });
});

test('session({ store }) :: the store keeps digests of ids; the cookie stays small however large the session', async () => {
  const store = recording();
  const ask = asker(store);
  const huge = await ask('/visits/huge');
  assert.is(huge.status, 200);
  const pair = pairOf(huge);
  assert.ok(pair.length < 200, `the cookie is ${pair.length} bytes`);
  const id = await idOf(pair);
  assert.equal(store.keys(), [await storeKey(id)]);
  assert.not.ok(store.keys().includes(id), 'the id itself is never a key');
});

test('session({ store }) :: a request in flight when its session is destroyed does not bring it back', async () => {
  const store = recording();
  const ask = asker(store);
  const cookie = pairOf(await ask('/visits/signin'));
  const slow = ask('/visits/slow', cookie);
  // The slow request has read its session (the store's get) before the sign-out destroys it.
  while (!store.calls.includes('get')) await new Promise((resolve) => setImmediate(resolve));
  await ask('/visits/signout', cookie);
  release();
  const late = await slow;
  assert.is(late.status, 200);
  assert.is(store.size, 0, 'the session stays destroyed');
  assert.equal(late.cookies ?? [], [], 'and the late answer sets no cookie');
});

test('session({ store }) :: a store that fails: its HttpError is the answer, anything else a reported 500', async () => {
  const reports: unknown[] = [];
  const down: SessionStore = {
    get: async () => {
      throw new HttpError(503, 'the session store is unavailable');
    },
    create: async () => {
      throw new Error('disk full');
    },
    update: async () => true,
    destroy: async () => true,
  };
  const ask = asker(down, (error) => void reports.push(error));
  const cookie = pairOf(await asker(memorySessionStore())('/visits'));
  assert.is((await ask('/visits', cookie)).status, 503);
  const failed = await ask('/visits');
  assert.is(failed.status, 500);
  assert.equal(failed.cookies ?? [], [], 'no cookie for a session that was not kept');
  assert.match(String(reports.at(-1)), /disk full/);
});

test('session({ store }) :: a bad store or regenerate() without a session throws, naming the fix', () => {
  assert.throws(
    () => session({ secret: SECRET, store: { get: async () => undefined } as never }),
    /store must have get, create, update and destroy \(a SessionStore\); it has no create/,
  );
  const sessions = session({ secret: SECRET });
  assert.throws(
    () => sessions.regenerate({}),
    /session.regenerate\(req\): this route runs no session\(\) hook; add session\(\{ secret \}\)/,
  );
});

test('memorySessionStore() :: forgets the oldest past max, expired ones on reading, never updates into being', async () => {
  const store = memorySessionStore({ max: 2 });
  const later = Date.now() + 60_000;
  await store.create('a', '1', later);
  await store.create('b', '2', later);
  await store.create('c', '3', later);
  assert.is(await store.get('a'), undefined);
  assert.is(await store.get('c'), '3');
  await store.update('z', '9', later);
  assert.is(await store.get('z'), undefined);
  await store.create('old', 'x', Date.now() - 1);
  assert.is(await store.get('old'), undefined);
  assert.throws(() => memorySessionStore({ max: 0 }), /max must be a whole number of 1 or more/);
});

test('session({ store }) :: a cookie that holds fields itself (sealed without the store) is no session', async () => {
  const cookieOnly = session({ secret: SECRET, name: 'sid', cookie: { secure: false } });
  const handler = quietHandler(
    scope(
      { hooks: [cookieOnly] },
      resource('grants', { index: (req) => ((sessionOf(req).user = 'admin'), {}) }),
    ),
    { checkResponses: false },
  );
  const sealed = pairOf(await inProcess(handler, { path: '/grants' }));
  const ask = asker(recording());
  const read = await ask('/visits/who', sealed);
  assert.equal(
    JSON.parse(read.body).user,
    null,
    'a session the store never kept cannot be revoked, so it is none',
  );
});

test('session({ store }) :: the key a signedIn() guard reads is an identity field: no fixation on another key', async () => {
  signedIn({ key: 'account' });
  const store = recording();
  const sessions = session({ secret: SECRET, store, name: 'sid', cookie: { secure: false } });
  const accounts = resource('accounts', {
    show: (req) => ((sessionOf(req).account = req.params.account_id), { account: req.params.account_id }),
    index: (req) => ({ account: sessionOf(req).account ?? null }),
  });
  const handler = quietHandler(scope({ hooks: [sessions] }, accounts), { checkResponses: false });
  const ask = (path: string, cookie?: string) =>
    inProcess(handler, { path, headers: cookie === undefined ? {} : { Cookie: cookie } });
  const attacker = pairOf(await ask('/accounts/attacker'));
  const victim = pairOf(await ask('/accounts/victim', attacker));
  assert.is.not(await idOf(victim), await idOf(attacker));
  assert.equal(JSON.parse((await ask('/accounts', attacker)).body).account, null);
});

test.run();
