// examples/posts signed in from a browser (POSTS_TOKEN set), as one flow any server can be put through: an
// adapter's socket, toFetch in process, or a spawned process; with a browser's cookie jar to drive it.
import * as assert from 'uvu/assert';
import { memorySessionStore, type SessionStore } from '../../core/features/sessions/index.js';
import { postsOptions } from '../../examples/posts/app.js';
import { postsTable } from '../../examples/posts/hooks.js';
import { json, raw, type RawRequest, type RawResponse } from './http.js';
import { inProcess } from './in-process.js';
import { BROWSER_ACCEPT } from './posts-html-contract.js';
import { deterministicPosts } from './posts.js';
import type { Target } from './wires.js';

/** The token writes need and the secret sessions are sealed with, in every sign-in test. */
export const TOKEN = 's3cret-token';
export const SECRET = 'a test secret of thirty-two chars!!';
export const SIGN_IN_ENV = { POSTS_TOKEN: TOKEN, SESSION_SECRET: SECRET, LOG_LEVEL: 'silent' };

/** A form posted from the server's own page, as Chromium sends it (the test client's Host is test.local). */
export const SAME_ORIGIN = {
  Accept: BROWSER_ACCEPT,
  'Content-Type': 'application/x-www-form-urlencoded',
  'Sec-Fetch-Site': 'same-origin',
  Origin: 'http://test.local',
};

/** A sign-in form posted from another site's page, each way a browser says so. */
export const FORGED: ReadonlyArray<Record<string, string>> = [
  { ...SAME_ORIGIN, 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' },
  { ...SAME_ORIGIN, 'Sec-Fetch-Site': 'same-site', Origin: 'http://evil.test.local' },
  // A browser from before Sec-Fetch-Site still sends Origin.
  {
    Accept: BROWSER_ACCEPT,
    'Content-Type': 'application/x-www-form-urlencoded',
    Origin: 'https://evil.example',
  },
];

const COOKIE = 'posts-session';

/**
 * The example as `npm start` serves it signed in (its table in the scope of its hooks), with deterministic posts
 * and sessions kept in `sessions` (`null`: in the cookie): `adapter.start(...signInServed())`. The process needs
 * `POSTS_TOKEN` set too, as the write guard reads it per request (`withToken`).
 */
export function signInServed(sessions: SessionStore | null = memorySessionStore()) {
  const posts = deterministicPosts();
  const table = postsTable({ env: SIGN_IN_ENV, sessions: sessions ?? undefined }, posts);
  return [table, postsOptions(posts)] as const;
}

/** Sets `POSTS_TOKEN` for this process (the write guard reads it per request); the returned call restores it. */
export function withToken(): () => void {
  const saved = process.env.POSTS_TOKEN;
  process.env.POSTS_TOKEN = TOKEN;
  return () => {
    if (saved === undefined) delete process.env.POSTS_TOKEN;
    else process.env.POSTS_TOKEN = saved;
  };
}

/** Whether a page says its visitor is signed in (a Sign out button) or out (a Sign in link). */
export const signedInOn = (page: RawResponse): boolean => /<button>Sign out<\/button>/.test(page.body);
export const signedOutOn = (page: RawResponse): boolean =>
  /<a href="\/session\/new">Sign in<\/a>/.test(page.body) && !signedInOn(page);

/** The session cookie's line in an answer, if it set one. */
export const sessionLine = (answer: RawResponse): string | undefined =>
  (answer.cookies ?? []).find((line) => line.startsWith(`${COOKIE}=`));

/**
 * A browser at `target`: it keeps the session cookie its answers set (and drops one they clear), sends it with
 * every request, and asserts each status. Every answer goes to `answers`, in order, for comparing runs.
 */
export class Visitor {
  constructor(
    readonly target: Target,
    readonly answers: RawResponse[] = [],
    /** The `name=value` of the session cookie it holds, `''` for none. */
    public cookie = '',
  ) {}

  async send(request: RawRequest, status: number): Promise<RawResponse> {
    const headers = { ...request.headers, ...(this.cookie === '' ? {} : { Cookie: this.cookie }) };
    const sent = { ...request, headers };
    const answer =
      typeof this.target === 'string' ? await raw(this.target, sent) : await inProcess(this.target, sent);
    this.answers.push(answer);
    assert.is(
      answer.status,
      status,
      `${request.method ?? 'GET'} ${request.path}: ${answer.body.slice(0, 300)}`,
    );
    const line = sessionLine(answer);
    if (line !== undefined) this.cookie = /; Max-Age=0;/.test(line) ? '' : line.split(';')[0]!;
    return answer;
  }

  /** A page, as a browser asks for it. */
  page(path: string, status = 200): Promise<RawResponse> {
    return this.send({ path, headers: { Accept: BROWSER_ACCEPT } }, status);
  }

  /** A form posted from the site's own page (or as `headers` say). */
  submit(
    path: string,
    fields: Record<string, string>,
    status: number,
    headers: Record<string, string> = SAME_ORIGIN,
  ) {
    return this.send({ method: 'POST', path, headers, body: new URLSearchParams(fields).toString() }, status);
  }

  /** The sign-in form posted with the token: 303 to `next` (else /posts) with a signed-in cookie. */
  async signIn(next?: string): Promise<RawResponse> {
    const answer = await this.submit(
      '/session',
      { token: TOKEN, ...(next === undefined ? {} : { next }) },
      303,
    );
    assert.is(answer.headers.location, next ?? '/posts');
    assert.ok(sessionLine(answer), 'signing in sets the session cookie');
    return answer;
  }

  /** The sign-out button: `_method=DELETE` to /session, 303 to /posts. */
  async signOut(): Promise<RawResponse> {
    const answer = await this.submit('/session', { _method: 'DELETE' }, 303);
    assert.is(answer.headers.location, '/posts');
    return answer;
  }
}

/** A JSON create with the bearer token (or, with `token` undefined, none), from a client that keeps no cookie. */
export function jsonCreate(target: Target, answers: RawResponse[], id: string, token?: string) {
  return new Visitor(target, answers).send(
    {
      method: 'POST',
      path: '/posts',
      headers: {
        'Content-Type': 'application/json',
        ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
      },
      body: JSON.stringify({ id, title: 'By bearer' }),
    },
    token === undefined ? 401 : 201,
  );
}

/** What a flow asks of its server: whether signing out ends every copy of the cookie (a session store). */
export interface FlowOptions {
  /** Sessions kept in a store: signing out revokes a copied cookie. In the cookie alone, the copy lives on. */
  readonly revocable: boolean;
  /** The id of the post it writes, unique per server whose store is not fresh. */
  readonly post?: string;
}

/**
 * Signing in from a browser against a server whose store has no post `post`, asserting as it goes: the form,
 * a wrong token (422), forged sign-ins (403), signing in (303 and a cookie), a flash shown once, writes through
 * the session, the bearer token for JSON, signing out with `_method`, and then what a copy of the signed-in
 * cookie is worth. Returns every answer, in order.
 */
export async function signInFlow(
  target: Target,
  { revocable, post = 'signed' }: FlowOptions,
): Promise<RawResponse[]> {
  const answers: RawResponse[] = [];
  const browser = new Visitor(target, answers);

  const form = await browser.page('/session/new');
  assert.match(form.body, /<form method="post" action="\/session">/);
  assert.match(form.body, /<input type="password" id="token" name="token" required/);
  assert.ok(signedOutOn(form));

  const wrong = await browser.submit('/session', { token: 'not-the-token' }, 422);
  assert.match(wrong.body, /role="alert"><p id="token-error">That token is not the right one\.<\/p>/);
  assert.equal(wrong.cookies, [], 'a wrong token sets no cookie');

  for (const headers of FORGED) {
    const forged = await browser.submit('/session', { token: TOKEN }, 403, headers);
    assert.match(forged.body, /from another site/);
    assert.equal(forged.cookies, [], 'a forged sign-in sets no cookie');
  }

  // Sent to sign in by a write form, and brought back to it.
  const sent = await browser.page(`/posts/${post}/new`, 303);
  assert.is(sent.headers.location, `/session/new?next=%2Fposts%2F${post}%2Fnew`);
  const signedIn = await browser.signIn(`/posts/${post}/new`);
  const line = sessionLine(signedIn)!;
  assert.match(line, /; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Lax$/);
  assert.not.match(line, new RegExp(TOKEN));
  const newForm = await browser.page(`/posts/${post}/new`);
  assert.match(newForm.body, /<p class="flash notice">Signed in\.<\/p>/);
  assert.ok(signedInOn(newForm));
  assert.not.match((await browser.page(`/posts/${post}/new`)).body, /Signed in\./, 'a flash shows once');

  const created = await browser.submit('/posts', { id: post, title: 'Through the session', body: '' }, 303);
  assert.is(created.headers.location, `/posts/${post}`);
  assert.match((await browser.page(`/posts/${post}`)).body, /Post created\./);
  assert.not.match((await browser.page(`/posts/${post}`)).body, /Post created\./);
  await browser.submit(`/posts/${post}`, { _method: 'PUT', title: 'Saved', body: 'again' }, 303);
  const saved = await browser.page(`/posts/${post}`);
  assert.match(saved.body, /Post saved\./);
  assert.match(saved.body, /<h1>Saved<\/h1>/);

  await jsonCreate(target, answers, `${post}-json`, TOKEN);
  const refused = await jsonCreate(target, answers, `${post}-none`);
  assert.is(refused.headers['www-authenticate'], 'Bearer');

  const copy = browser.cookie;
  const out = await browser.signOut();
  assert.ok(sessionLine(out), 'signing out replaces the cookie (it carries the notice)');
  assert.is.not(browser.cookie, copy);
  const after = await browser.page('/posts');
  assert.match(after.body, /<p class="flash notice">Signed out\.<\/p>/);
  assert.ok(signedOutOn(after));
  assert.match(sessionLine(after) ?? '', /; Max-Age=0; /, 'the emptied session is cleared');
  assert.is(browser.cookie, '');

  // A copy of the signed-in cookie, kept from before signing out (a stolen laptop).
  const stolen = () => new Visitor(target, answers, copy);
  const looked = await stolen().page('/posts');
  // Signed out, a form write is sent to sign in (303 too): where it leads says which.
  const write = stolen().submit('/posts', { id: `${post}-stolen`, title: 'Stolen' }, 303);
  if (revocable) {
    assert.ok(signedOutOn(looked), 'signing out ended every copy of the cookie');
    assert.is((await write).headers.location, '/session/new');
    await new Visitor(target, answers).send(
      { path: `/posts/${post}-stolen`, headers: { Accept: 'application/json' } },
      404,
    );
  } else {
    assert.ok(signedInOn(looked), 'a cookie that holds the session is good until it expires');
    assert.is((await write).headers.location, `/posts/${post}-stolen`);
  }
  const listed = await new Visitor(target, answers).send({ path: '/posts', headers: {} }, 200);
  const ids = json(listed).map((one: { id: string }) => one.id);
  const written = [post, `${post}-json`, ...(revocable ? [] : [`${post}-stolen`])];
  assert.equal(ids.filter((id: string) => id === post || id.startsWith(`${post}-`)).sort(), written.sort());
  return answers;
}

const REQUEST_ID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g;
// As long as the UUID it stands for, so a body's declared length still holds.
const ID_MASK = '<request-id>'.padEnd(36, '.');

/**
 * An answer with what differs per request masked: the session cookie's sealed value (a new IV each time, and
 * a random id with a store) and request ids (random UUIDs, which error pages show).
 */
export function masked(answer: RawResponse): RawResponse {
  const mask = (text: string) =>
    text
      .replace(new RegExp(`${COOKIE}=(?!;)[^;\\r\\n]+`, 'g'), `${COOKIE}=<sealed>`)
      .replace(REQUEST_ID, ID_MASK);
  const headers = Object.fromEntries(Object.entries(answer.headers).map(([n, v]) => [n, mask(v)]));
  return {
    ...answer,
    headers,
    body: mask(answer.body),
    wire: mask(answer.wire),
    cookies: (answer.cookies ?? []).map(mask),
  };
}
