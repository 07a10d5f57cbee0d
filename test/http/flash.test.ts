import * as assert from 'uvu/assert';
import { test } from 'uvu';
import { html, resource, scope, type Routable } from '../../core/index.js';
import { flash, flashes, session } from '../../core/features/sessions/index.js';
import { toFetch } from '../../adapters/fetch.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import type { RawResponse } from '../support/http.js';
import { onEvery, withServers } from '../support/servers.js';

// flash(): a message left before a 303, shown once on the next page (and to its error page), then gone; on
// every adapter, kept in the session's sealed cookie.

const SECRET = 'a-secret-of-thirty-two-characters!!';
const sessions = session({ secret: SECRET, name: 'sid', cookie: { secure: false } });
const notes = resource(
  'notes',
  {
    index: (req) => ({ flashes: flashes(req) }),
    create: (req, res) => {
      flash(req, 'notice', 'Note created.');
      flash(req, 'alert', '<b>check</b>');
      return res.redirect('/notes', 303);
    },
    show: (req, res) => {
      if (req.params.note_id === 'refused') {
        flash(req, 'notice', 'never shown');
        return res.json({ refused: true }, 422);
      }
      return res.html(
        html`<p>${flashes(req).map((one) => html`<span class="${one.type}">${one.message}</span>`)}</p>`,
      );
    },
  },
  { schemas: {} },
);
const table: Routable = scope({ hooks: [sessions] }, notes);
const flashed = withServers('flash()', table, { checkResponses: false, crossSiteProtection: false });

/** The session cookie an answer set, as the next request sends it. */
function cookieOf(answer: RawResponse): string {
  const line = answer.cookies?.find((cookie) => cookie.startsWith('sid='));
  assert.ok(line !== undefined, `a session cookie in ${JSON.stringify(answer.cookies)}`);
  return line.split(';')[0]!;
}

flashed('a message left before a 303 is on the next page, once, then gone', async ({ servers }) => {
  for (const { running } of servers) {
    const one = [{ running, name: 'one' }];
    const made = await onEvery(one, {
      method: 'POST',
      path: '/notes',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.is(made.status, 303);
    const cookie = cookieOf(made);
    const next = await onEvery(one, { path: '/notes', headers: { Cookie: cookie } });
    assert.equal(JSON.parse(next.body), {
      flashes: [
        { type: 'notice', message: 'Note created.' },
        { type: 'alert', message: '<b>check</b>' },
      ],
    });
    // The page that showed them wrote the session again without them (here emptied: the cookie is cleared).
    assert.ok(
      next.cookies!.some((line) => line.startsWith('sid=;')),
      JSON.stringify(next.cookies),
    );
    const after = await onEvery(one, { path: '/notes', headers: { Cookie: cookie.replace(/=.*/, '=') } });
    assert.equal(JSON.parse(after.body), { flashes: [] });
  }
});

flashed('messages are text in views: escaped by the html tag', async ({ servers }) => {
  const made = await onEvery(servers.slice(0, 1), {
    method: 'POST',
    path: '/notes',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  const page = await onEvery(servers.slice(0, 1), {
    path: '/notes/show',
    headers: { Cookie: cookieOf(made) },
  });
  assert.match(page.body, '<span class="alert">&lt;b&gt;check&lt;/b&gt;</span>');
});

flashed('a refusal leaves no message for the next page', async ({ servers }) => {
  const refused = await onEvery(servers, { path: '/notes/refused' });
  assert.is(refused.status, 422);
  assert.equal(refused.cookies ?? [], []);
});

flashed.run();

test('flash() :: a route with no session() is a 500 naming the fix; a bad message a TypeError at once', async () => {
  const reported: unknown[] = [];
  const bare = toFetch(notes, { onError: (error) => void reported.push(error) });
  const answer = await inProcess(bare, {
    method: 'POST',
    path: '/notes',
    headers: { 'Content-Type': 'application/json' },
    body: '{}',
  });
  assert.is(answer.status, 500);
  assert.match(
    String(reported[0]),
    /flash\(req, type, message\): notes\.create runs no session\(\) hook; add session\(\{ secret \}\)/,
  );
  const handler = quietHandler(
    scope(
      { hooks: [sessions] },
      resource('memos', { index: (req, res) => (flash(req, 'no spaces', 'x'), res.json([])) }),
    ),
  );
  const bad = await inProcess(handler, { path: '/memos' });
  assert.is(bad.status, 500);
});

test.run();
