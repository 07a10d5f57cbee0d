import { connect } from 'node:net';
import * as assert from 'uvu/assert';
import {
  bearer,
  formatRoutes,
  guard,
  HttpError,
  openapi,
  resource,
  type HandlerRequest,
} from '../../core/index.js';
import { json } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

// Guards on every adapter: bearer() (required and optional), guard(), their order and context,
// and what the listing and OpenAPI say of them.

const JSON_TYPE = { 'Content-Type': 'application/json' };
const ok = () => null;

const token = bearer({ verify: (given) => (given === 'secret' ? { user: 'ada' } : false) });
async function slowGuard(_req: HandlerRequest): Promise<{ checkedAt: number }> {
  await new Promise((resolve) => setTimeout(resolve, 5));
  return { checkedAt: 1 };
}
const order: string[] = [];
const first = guard('first', () => void order.push('first'));
const second = guard('second', () => void order.push('second'));
const guarded = resource(
  'docs',
  {
    index: (req) => ({ context: req.context }),
    show: (req) => ({ user: req.context.user, at: req.context.checkedAt }),
    create: (req) => ({ user: req.context.user, body: req.body }),
    destroy: () => {
      throw new Error('never reached');
    },
  },
  {
    before: {
      show: [token, slowGuard],
      create: [token, first, second],
      destroy: [
        guard('closed', () => {
          throw new HttpError(403, 'documents cannot be deleted');
        }),
      ],
    },
  },
);

const guards = withServers('guards', guarded, { checkResponses: false });

guards(
  'no credentials: 401 with WWW-Authenticate; malformed: 400; a bad token: 401 invalid_token',
  async ({ servers }) => {
    const none = await onEvery(servers, { path: '/docs/1' });
    assert.is(none.status, 401);
    assert.is(none.headers['www-authenticate'], 'Bearer');
    const malformed = await onEvery(servers, { path: '/docs/1', headers: { Authorization: 'Basic abc' } });
    assert.is(malformed.status, 400);
    assert.is(malformed.headers['www-authenticate'], 'Bearer error="invalid_request"');
    const wrong = await onEvery(servers, { path: '/docs/1', headers: { Authorization: 'Bearer nope' } });
    assert.is(wrong.status, 401);
    assert.is(wrong.headers['www-authenticate'], 'Bearer error="invalid_token"');
  },
);

guards(
  'guards run in order, async ones too, and what they return is the handler’s req.context',
  async ({ servers }) => {
    const auth = { Authorization: 'Bearer secret' };
    assert.equal(json(await onEvery(servers, { path: '/docs/1', headers: auth })), { user: 'ada', at: 1 });
    assert.equal(json(await onEvery(servers, { path: '/docs' })), { context: {} });
    order.length = 0;
    const made = await onEvery(servers, {
      method: 'POST',
      path: '/docs',
      headers: { ...auth, ...JSON_TYPE },
      body: '{"a":1}',
    });
    assert.equal(json(made), { user: 'ada', body: { a: 1 } });
    assert.equal(order, ['first', 'second', 'first', 'second', 'first', 'second']);
    const refused = await onEvery(servers, { method: 'DELETE', path: '/docs/1' });
    assert.is(refused.status, 403);
    assert.is(json(refused).detail, 'documents cannot be deleted');
  },
);

guards(
  'a guard refuses before the body is read: the 401 comes while the upload is still unsent',
  async ({ servers }) => {
    for (const { name, running } of servers) {
      const { port } = new URL(running.url);
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => (text += chunk));
        socket.on('close', () => resolve(text));
        socket.on('error', reject);
        // 1 MiB announced, 10 bytes sent: only an answer that does not wait for the rest can arrive.
        socket.write(
          'POST /docs HTTP/1.1\r\nHost: test.local\r\nContent-Type: application/json\r\nContent-Length: 1048576\r\n\r\n{"a":"aaaa',
        );
        setTimeout(() => reject(new Error(`${name}: no answer while the body was unsent`)), 3000).unref();
      });
      assert.match(answer, /^HTTP\/1\.1 401 /, name);
      assert.match(answer, /\r\nConnection: close\r\n/i, name);
    }
  },
);

guards('the listing names each route’s guards; OpenAPI marks them and lists the security scheme', () => {
  assert.match(formatRoutes(guarded), /docs\.create +POST +\/docs +docs#create +bearer, first, second\n/);
  assert.match(formatRoutes(guarded), /docs\.index +GET +\/docs +docs#index +-\n/);
  const doc = openapi(guarded) as any;
  assert.equal(doc.paths['/docs'].post.security, [{ bearer: [] }]);
  assert.equal(doc.paths['/docs'].post['x-guards'], ['bearer', 'first', 'second']);
  assert.equal(Object.keys(doc.paths['/docs'].post.responses).slice(0, 4), ['200', '201', '400', '401']);
  assert.equal(doc.paths['/docs'].get.security, [], 'a public route says so');
  assert.equal(doc.components.securitySchemes, { bearer: { type: 'http', scheme: 'bearer' } });
});

guards(
  'an anonymous guard, an unknown action or a non-function is a definition error naming the resource',
  () => {
    assert.throws(
      () => resource('docs', { index: ok }, { before: [() => {}] }),
      /a guard is an anonymous function; give it a name/,
    );
    assert.throws(
      () => resource('docs', { index: ok }, { before: { indx: [first] } as never }),
      /"before" names unknown action "indx" \(did you mean "index"\?\)/,
    );
    assert.throws(
      () => resource('docs', { index: ok }, { before: ['auth'] as never }),
      /a guard must be a function or a guard\(\), got string/,
    );
  },
);

guards.run();

// ---- an optional bearer()

const maybeSignedIn = bearer({
  verify: (given) => (given === 'secret' ? { user: 'ada' } : false),
  optional: true,
});
const optionalGuarded = resource(
  'notes',
  { index: (req) => ({ user: req.context.user ?? null }) },
  { before: [maybeSignedIn] },
);
const optionalBearer = withServers('bearer({ optional: true })', optionalGuarded, { checkResponses: false });

optionalBearer(
  'no Authorization header passes with nothing added; a good token adds the user; a bad one is 401, a malformed header 400',
  async ({ servers }) => {
    assert.ok(
      servers.some(({ name }) => name === 'node'),
      'served through the node adapter too',
    );
    assert.equal(json(await onEvery(servers, { path: '/notes' })), { user: null });
    const good = await onEvery(servers, { path: '/notes', headers: { Authorization: 'Bearer secret' } });
    assert.equal(json(good), { user: 'ada' });
    const wrong = await onEvery(servers, { path: '/notes', headers: { Authorization: 'Bearer nope' } });
    assert.is(wrong.status, 401);
    assert.is(wrong.headers['www-authenticate'], 'Bearer error="invalid_token"');
    const malformed = await onEvery(servers, { path: '/notes', headers: { Authorization: 'Basic abc' } });
    assert.is(malformed.status, 400);
  },
);

optionalBearer('OpenAPI lists the scheme as optional; a non-boolean optional is a TypeError', () => {
  assert.equal((openapi(optionalGuarded) as any).paths['/notes'].get.security, [{ bearer: [] }, {}]);
  assert.is(maybeSignedIn.security?.optional, true);
  assert.is(token.security?.optional, undefined);
  assert.throws(
    () => bearer({ verify: () => true, optional: 'yes' as unknown as boolean }),
    /optional must be true or false/,
  );
});

optionalBearer.run();
