import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { formatRoutes, openapi, redirect, resource, scope } from '../../core/index.js';
import { localPath, session, signedIn, sessionOf } from '../../core/features/sessions/index.js';
import type { RawResponse } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

// signedIn(): the session's user in req.context; a browser without one sent to sign in (303, the page kept as
// ?next=), anyone else 401; on every adapter, and in the listing and OpenAPI.

const sessions = session({
  secret: 'a-secret-of-thirty-two-characters!!',
  name: 'sid',
  cookie: { secure: false },
});
const member = signedIn<string>();
const drafts = resource(
  'drafts',
  {
    show: (req) => ({ by: req.context.user, draft: req.params.draft_id }),
    create: (req) => ({ by: req.context.user }),
  },
  { before: [member] },
);
const sign = resource('signins', { create: (req) => ((sessionOf(req).user = 'ada'), { signedIn: true }) });
const table = scope({ hooks: [sessions] }, drafts, sign);
const guarded = withServers('signedIn()', table, { checkResponses: false, crossSiteProtection: false });

const BROWSER = 'text/html,application/xhtml+xml,*/*;q=0.8';
const cookieOf = (answer: RawResponse): string =>
  answer.cookies!.find((line) => line.startsWith('sid='))!.split(';')[0]!;

guarded(
  'no session: a browser is sent to sign in with the page kept, anyone else gets 401',
  async ({ servers }) => {
    const api = await onEvery(servers, { path: '/drafts/7' });
    assert.is(api.status, 401);
    const page = await onEvery(servers, { path: '/drafts/7?tab=2', headers: { Accept: BROWSER } });
    assert.is(page.status, 303);
    assert.is(page.headers.location, '/session/new?next=%2Fdrafts%2F7%3Ftab%3D2');
    const form = await onEvery(servers, {
      method: 'POST',
      path: '/drafts',
      headers: { Accept: BROWSER, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=x',
    });
    assert.is(form.status, 303);
    assert.is(form.headers.location, '/session/new', 'a form post is not a page to come back to');
  },
);

guarded('signed in: the session’s user is req.context.user', async ({ servers }) => {
  for (const { running } of servers) {
    const one = [{ running, name: 'one' }];
    const signin = await onEvery(one, {
      method: 'POST',
      path: '/signins',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    const shown = await onEvery(one, { path: '/drafts/7', headers: { Cookie: cookieOf(signin) } });
    assert.is(shown.status, 200);
    assert.equal(JSON.parse(shown.body), { by: 'ada', draft: '7' });
  }
});

guarded.run();

test('signedIn() :: the listing names it, OpenAPI gives a cookie security scheme and its 303 and 401', () => {
  assert.match(formatRoutes(table), /drafts\.show\s+GET\s+\/drafts\/:draft_id\s+drafts#show\s+signedIn/);
  const document = openapi(table) as {
    components: { securitySchemes: Record<string, unknown> };
    paths: Record<string, Record<string, { security: unknown[]; responses: Record<string, unknown> }>>;
  };
  assert.equal(document.components.securitySchemes.session, {
    type: 'apiKey',
    in: 'cookie',
    name: '__Host-session',
  });
  const show = document.paths['/drafts/{draft_id}']!.get!;
  assert.equal(show.security, [{ session: [] }]);
  assert.ok(show.responses['303'] && show.responses['401']);
});

test('signedIn() :: options checked; localPath() keeps only paths on this site', () => {
  assert.throws(() => signedIn({ signInPath: 'https://evil.example/login' }), /a path on this site/);
  for (const kept of ['/', '/posts/1?x=2', '/a/b#c']) assert.is(localPath(kept), kept);
  for (const refused of [
    '//evil.example',
    '/\\evil.example',
    'https://evil.example',
    'posts',
    '/\tx',
    undefined,
    42,
  ])
    assert.is(localPath(refused), '/', JSON.stringify(refused));
  // A Location holds visible ASCII: the rest is percent-encoded as UTF-8; what cannot be sends home.
  for (const [given, sent] of [
    ['/\u0100', '/%C4%80'],
    ['/\u3000x', '/%E3%80%80x'],
    ['/a b?c=\u2028', '/a%20b?c=%E2%80%A8'],
    ['/\u00ff', '/%C3%BF'],
    ['/\ud800', '/'],
  ])
    assert.is(localPath(given), sent, JSON.stringify(given));
});

const backs = withServers(
  'localPath()',
  resource('backs', { create: (req) => redirect(localPath(req.query.next), 303) }),
  { checkResponses: false, crossSiteProtection: false },
);

backs(
  'a next that is not Latin-1 still redirects, percent-encoded, on every adapter',
  async ({ servers }) => {
    for (const next of ['/%C4%80', '/%E3%80%80', '/%e2%80%a8', '/%ff']) {
      const answer = await onEvery(servers, { method: 'POST', path: `/backs?next=${next}` });
      assert.is(answer.status, 303, next);
      assert.match(answer.headers.location!, /^\/[\x21-\x7e]*$/, next);
    }
  },
);

backs.run();

test.run();
