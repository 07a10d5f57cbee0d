import { readConfig } from '../../examples/posts/deploy/config.js';
// examples/posts signed in from a browser (POSTS_TOKEN set): /session signs in and out, writes take the
// session or the bearer token, write forms send a signed-out browser to sign in and back, flashes show once;
// the whole flow over every adapter's sockets and in process.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { postsOptions } from '../../examples/posts/app.js';
import { postsTable } from '../../examples/posts/hooks.js';
import type { RawRequest, RawResponse } from '../support/http.js';
import { inProcess, quietHandler, sameAnswer } from '../support/in-process.js';
import { deterministicPosts } from '../support/posts.js';
import {
  masked,
  signInFlow,
  signInServed,
  SIGN_IN_ENV as ENV,
  TOKEN,
  withToken,
} from '../support/posts-sign-in.js';
import { ADAPTERS } from '../support/servers.js';
import { sameWires } from '../support/wires.js';

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' };
const BROWSER = { Accept: 'text/html' };

let restore: () => void;
let handler: ReturnType<typeof quietHandler>;

// The write guard reads POSTS_TOKEN as each write comes in, so the process has it while these run.
test.before(() => {
  restore = withToken();
  const posts = deterministicPosts();
  handler = quietHandler(postsTable({ env: ENV }, posts), postsOptions(posts));
});
test.after(() => restore());

/** The `name=value` of the session cookie an answer set, for the next request's `Cookie` header. */
function cookieOf(answer: RawResponse): string {
  const line = (answer.cookies ?? []).find((one) => one.startsWith('posts-session='));
  assert.ok(line, `a session cookie in ${JSON.stringify(answer.cookies)}`);
  return line!.split(';')[0]!;
}

const ask = (request: RawRequest) => inProcess(handler, request);

async function signIn(next = ''): Promise<RawResponse> {
  return ask({
    method: 'POST',
    path: '/session',
    headers: FORM,
    body: `token=${encodeURIComponent(TOKEN)}${next === '' ? '' : `&next=${encodeURIComponent(next)}`}`,
  });
}

test('GET /session/new: a labelled password field named token, in a form that posts to /session', async () => {
  const form = await ask({ path: '/session/new', headers: BROWSER });
  assert.is(form.status, 200);
  assert.match(form.body, /<form method="post" action="\/session">/);
  assert.match(form.body, /<label for="token">Token<\/label>/);
  assert.match(form.body, /<input type="password" id="token" name="token" required/);
});

test('POST /session with the token: 303 to /posts, an HttpOnly session cookie without the token, "Signed in." once', async () => {
  const signedIn = await signIn();
  assert.is(signedIn.status, 303);
  assert.is(signedIn.headers.location, '/posts');
  const line = (signedIn.cookies ?? []).find((one) => one.startsWith('posts-session='))!;
  assert.match(line, /HttpOnly/);
  assert.match(line, /SameSite=Lax/);
  assert.not.match(line, new RegExp(TOKEN));
  const cookie = cookieOf(signedIn);
  const page = await ask({ path: '/posts', headers: { ...BROWSER, Cookie: cookie } });
  assert.match(page.body, /Signed in\./);
  assert.match(page.body, /<button>Sign out<\/button>/);
  const again = await ask({ path: '/posts', headers: { ...BROWSER, Cookie: cookieOf(page) } });
  assert.not.match(again.body, /Signed in\./);
  assert.match(again.body, /Sign out/);
});

test('a wrong token: the form again with a message, 422, and no signed-in cookie', async () => {
  const wrong = await ask({ method: 'POST', path: '/session', headers: FORM, body: 'token=nope' });
  assert.is(wrong.status, 422);
  assert.match(wrong.body, /role="alert"/);
  assert.match(wrong.body, /not the right one/);
  assert.match(wrong.body, /name="token"/);
  const cookie = (wrong.cookies ?? []).find((one) => one.startsWith('posts-session='));
  if (cookie !== undefined) {
    const after = await ask({ path: '/posts', headers: { ...BROWSER, Cookie: cookie.split(';')[0]! } });
    assert.match(after.body, /Sign in<\/a>/);
  }
});

test('signed out, a write form sends the browser to sign in, and signing in brings it back', async () => {
  const sent = await ask({ path: '/posts/abc/new', headers: BROWSER });
  assert.is(sent.status, 303);
  assert.is(sent.headers.location, '/session/new?next=%2Fposts%2Fabc%2Fnew');
  const form = await ask({ path: sent.headers.location!, headers: BROWSER });
  assert.match(form.body, /<input type="hidden" name="next" value="\/posts\/abc\/new">/);
  const back = await signIn('/posts/abc/new');
  assert.is(back.status, 303);
  assert.is(back.headers.location, '/posts/abc/new');
  const page = await ask({ path: '/posts/abc/new', headers: { ...BROWSER, Cookie: cookieOf(back) } });
  assert.is(page.status, 200);
  assert.match(page.body, /Create post/);
  // Another site's address is never where signing in leads.
  assert.is((await signIn('//evil.example/x')).headers.location, '/posts');
});

test('signed in, create, update and destroy work from forms, each next page showing its flash once', async () => {
  let cookie = cookieOf(await signIn());
  const write = async (method: string, path: string, body: string): Promise<RawResponse> => {
    const answer = await ask({ method, path, headers: { ...FORM, Cookie: cookie }, body });
    assert.is(answer.status, 303, answer.body);
    cookie = cookieOf(answer);
    return answer;
  };
  const visit = async (path: string): Promise<string> => {
    const page = await ask({ path, headers: { ...BROWSER, Cookie: cookie } });
    const set = (page.cookies ?? []).find((one) => one.startsWith('posts-session='));
    if (set !== undefined) cookie = set.split(';')[0]!;
    return page.body;
  };
  await visit('/posts'); // takes the "Signed in." notice
  const created = await write('POST', '/posts', 'id=flashy&title=Flashy&body=');
  assert.is(created.headers.location, '/posts/flashy');
  assert.match(await visit('/posts/flashy'), /Post created\./);
  assert.not.match(await visit('/posts/flashy'), /Post created\./);
  await write('POST', '/posts/flashy', '_method=PUT&title=Renamed&body=');
  assert.match(await visit('/posts/flashy'), /Post saved\./);
  await write('POST', '/posts/flashy', '_method=DELETE');
  const index = await visit('/posts');
  assert.match(index, /Post deleted\./);
  assert.not.match(await visit('/posts'), /Post deleted\./);
});

test('signed out, a form write is sent to sign in; the bearer token still works for JSON, 401 without it', async () => {
  const refused = await ask({ method: 'POST', path: '/posts', headers: FORM, body: 'id=nope&title=Nope' });
  assert.is(refused.status, 303);
  assert.is(refused.headers.location, '/session/new');
  const json = { 'Content-Type': 'application/json' };
  const none = await ask({ method: 'POST', path: '/posts', headers: json, body: '{"id":"j","title":"J"}' });
  assert.is(none.status, 401);
  assert.is(none.headers['www-authenticate'], 'Bearer');
  const bearer = await ask({
    method: 'POST',
    path: '/posts',
    headers: { ...json, Authorization: `Bearer ${TOKEN}` },
    body: '{"id":"j","title":"J"}',
  });
  assert.is(bearer.status, 201);
  assert.is((await ask({ path: '/posts/j/edit', headers: { Accept: 'application/json' } })).status, 200);
});

test('a tampered or foreign cookie is a signed-out visitor, never an error', async () => {
  const cookie = cookieOf(await signIn());
  const [name, value] = cookie.split('=') as [string, string];
  // A middle character carries six significant bits, and its replacement always differs from it.
  const at = Math.floor(value.length / 2);
  const flipped = `${name}=${value.slice(0, at)}${value[at] === 'A' ? 'B' : 'A'}${value.slice(at + 1)}`;
  for (const bad of [flipped, `${name}=${value.slice(0, 20)}`, `${name}=not-a-seal`]) {
    const page = await ask({ path: '/posts/abc/new', headers: { ...BROWSER, Cookie: bad } });
    assert.is(page.status, 303, bad);
    const write = await ask({
      method: 'POST',
      path: '/posts',
      headers: { ...FORM, Cookie: bad },
      body: 'title=x',
    });
    assert.is(write.status, 303, bad);
    assert.is(write.headers.location, '/session/new');
  }
});

test('DELETE /session signs out: 303, a cookie with the notice only, and writes are refused again', async () => {
  const cookie = cookieOf(await signIn());
  const out = await ask({
    method: 'POST',
    path: '/session',
    headers: { ...FORM, Cookie: cookie },
    body: '_method=DELETE',
  });
  assert.is(out.status, 303);
  assert.is(out.headers.location, '/posts');
  const after = cookieOf(out);
  const write = await ask({
    method: 'POST',
    path: '/posts',
    headers: { ...FORM, Cookie: after },
    body: 'title=x',
  });
  assert.is(write.status, 303);
  assert.is(write.headers.location, '/session/new');
});

test('a cross-site sign-in is 403', async () => {
  const forged = await ask({
    method: 'POST',
    path: '/session',
    headers: { ...FORM, 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
    body: `token=${TOKEN}`,
  });
  assert.is(forged.status, 403);
  assert.not.ok((forged.cookies ?? []).some((one) => one.startsWith('posts-session=')));
});

test("the whole flow over every adapter's sockets, sessions in a store: the same bytes but for sealed values and ids", () =>
  sameWires(
    (adapter) => adapter.start(...signInServed()),
    async (url) => (await signInFlow(url, { revocable: true })).map((answer) => masked(answer).wire),
  ));

test('the whole flow answered in process by toFetch() as on node, sessions in a store or in the cookie', async () => {
  for (const store of [true, false]) {
    const served = () => signInServed(store ? undefined : null);
    const running = await ADAPTERS[0]!.start(...served());
    let onNode: RawResponse[];
    try {
      onNode = await signInFlow(running.url, { revocable: store });
    } finally {
      await running.close();
    }
    const inProcess = await signInFlow(quietHandler(...served()), { revocable: store });
    assert.is(inProcess.length, onNode.length);
    inProcess.forEach((answer, i) => sameAnswer(masked(answer), masked(onNode[i]!), `answer ${i}`));
  }
});

test('without POSTS_TOKEN there is no /session and the listing is unchanged', async () => {
  const posts = deterministicPosts();
  const plain = quietHandler(postsTable({ env: { LOG_LEVEL: 'silent' } }, posts), postsOptions(posts));
  assert.is((await inProcess(plain, { path: '/session/new', headers: BROWSER })).status, 404);
});

test('examples/posts :: WORKERS>1 with POSTS_TOKEN needs SESSION_SECRET, one key for every worker', () => {
  const env = { POSTS_TOKEN: 't0ken', WORKERS: '2', DATABASE_URL: 'postgres://posts@localhost/posts' };
  const refused = readConfig(env);
  assert.ok('error' in refused && /^WORKERS=2 with POSTS_TOKEN needs SESSION_SECRET/.test(refused.error));
  assert.not.ok('error' in readConfig({ ...env, SESSION_SECRET: 'a-secret-of-thirty-two-characters!!' }));
});

test.run();
