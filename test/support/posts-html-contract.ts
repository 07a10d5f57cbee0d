import * as assert from 'uvu/assert';
import { exchanges, type ContractOptions, type Target } from './wires.js';
import { json, type RawResponse } from './http.js';

/** What Chromium sends as `Accept` for a page. */
export const BROWSER_ACCEPT =
  'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';
// A form submitted from the server's own page, as Chromium sends it (the test client's Host is test.local).
const SAME_ORIGIN = {
  Accept: BROWSER_ACCEPT,
  'Content-Type': 'application/x-www-form-urlencoded',
  'Sec-Fetch-Site': 'same-origin',
  Origin: 'http://test.local',
};

/**
 * The HTML side of examples/posts/README.md ("Browsers and HTML forms") against one server
 * whose store starts empty, over raw HTTP as a browser would send it; returns every response's
 * bytes so runs can be compared. The browser tests drive the same pages in Chromium.
 */
export async function postsHtmlContract(target: Target, options: ContractOptions): Promise<string[]> {
  const { deterministic } = options;
  const { wires, expect: call } = exchanges(target, options);
  const page = async (path: string, status = 200, headers: Record<string, string> = {}) => {
    const response = await call({ path, headers: { Accept: BROWSER_ACCEPT, ...headers } }, status);
    assert.is(response.headers['content-type'], 'text/html; charset=utf-8', path);
    assert.is(response.headers.vary, 'Accept', path);
    assert.match(response.body, /^<!doctype html>\n<html lang="en">/);
    assert.match(response.body, /<title>[^<]+<\/title>/);
    return response.body;
  };
  const submit = (
    path: string,
    fields: Record<string, string>,
    status: number,
    headers: Record<string, string> = SAME_ORIGIN,
  ) => call({ method: 'POST', path, headers, body: new URLSearchParams(fields).toString() }, status);
  const redirected = async (response: Promise<RawResponse>, location: string) => {
    const answer = await response;
    assert.is(answer.headers.location, location);
    assert.is(answer.body, '');
  };

  // index: a page for browsers, JSON for curl's */* and for no Accept at all
  const empty = await page('/posts');
  assert.match(empty, /No posts yet\./);
  const fresh = /<a href="\/posts\/([A-Za-z0-9_-]+)\/new">New post<\/a>/.exec(empty);
  assert.ok(fresh, 'the index links to a new post');
  if (deterministic) assert.is(fresh[1], 'gen-1');
  assert.equal(json(await call({ path: '/posts', headers: { Accept: '*/*' } }, 200)), []);
  assert.is((await call({ path: '/posts' }, 200)).headers['content-type'], 'application/json; charset=utf-8');

  // new: the form is the default, JSON when asked for; a malformed id is a 400 page
  const form = await page(`/posts/${fresh[1]}/new`);
  assert.match(form, /<form method="post" action="\/posts">/);
  assert.match(form, new RegExp(`<input type="text" id="id" name="id" value="${fresh[1]}"`));
  assert.match(form, /<label for="title">Title<\/label>/);
  assert.match((await call({ path: '/posts/slug/new' }, 200)).body, /<form method="post"/);
  assert.equal(json(await call({ path: '/posts/slug/new', headers: { Accept: 'application/json' } }, 200)), {
    id: 'slug',
    title: '',
    body: '',
  });
  assert.match(
    await page('/posts/bad.id/new', 400),
    /post_id: must be 1 to 64 characters of A-Z a-z 0-9 - _/,
  );

  // create from the form: 303 to the post, whose title is shown as text, never run
  const script = '<script>alert("x")</script>';
  await redirected(
    submit('/posts', { id: 'first', title: script, body: 'Line one\nLine two' }, 303),
    '/posts/first',
  );
  const shown = await page('/posts/first');
  assert.not.match(shown, /<script>/);
  assert.match(shown, /<h1>&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;<\/h1>/);
  assert.match(shown, /<title>&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt; · Posts<\/title>/);
  assert.match(shown, /Line one\nLine two/);
  assert.match(shown, /<a href="\/posts\/first\/edit">Edit<\/a>/);
  assert.match(
    shown,
    /<form method="post" action="\/posts\/first">\n<input type="hidden" name="_method" value="DELETE">/,
  );
  const listed = await page('/posts');
  assert.match(listed, /<a href="\/posts\/first">&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;<\/a>/);
  assert.not.match(listed, /<script>/);
  assert.is(json(await call({ path: '/posts/first', headers: { Accept: '*/*' } }, 200)).title, script);

  // a refused form comes back with the values and the messages, with the problem's status
  const blank = (await submit('/posts', { id: 'second', title: '   ', body: 'kept <b>' }, 422)).body;
  assert.match(blank, /<p class="field-error" id="title-error">Title is required<\/p>/);
  assert.match(blank, /aria-describedby="title-error" aria-invalid="true"/);
  assert.match(blank, /value="second"/);
  assert.match(blank, /kept &lt;b&gt;<\/textarea>/);
  const taken = (await submit('/posts', { id: 'first', title: 'Again' }, 409)).body;
  assert.match(taken, /Address is taken by another post/);
  assert.match(taken, /value="Again"/);
  await call({ path: '/posts/second', headers: { Accept: 'application/json' } }, 404);

  // the same form body from an API client (no HTML in Accept) gets JSON, not a redirect
  const api = await submit('/posts', { id: 'api', title: 'From a script' }, 201, {
    ...SAME_ORIGIN,
    Accept: 'application/json',
  });
  assert.is(api.headers.location, '/posts/api');
  assert.is(json(api).title, 'From a script');
  const refusedApi = await submit('/posts', { title: '' }, 422, { ...SAME_ORIGIN, Accept: '*/*' });
  assert.is(refusedApi.headers['content-type'], 'application/problem+json');

  // edit: the form (default) prefilled, sent as PUT through _method; JSON when asked for
  const edit = await page('/posts/first/edit');
  assert.match(
    edit,
    /<form method="post" action="\/posts\/first">\n<input type="hidden" name="_method" value="PUT">/,
  );
  assert.match(edit, /value="&lt;script&gt;alert\(&quot;x&quot;\)&lt;\/script&gt;"/);
  assert.match(edit, /Line one\nLine two<\/textarea>/);
  await redirected(
    submit('/posts/first', { _method: 'PUT', title: 'Edited', body: 'New text' }, 303),
    '/posts/first',
  );
  const edited = json(await call({ path: '/posts/first', headers: { Accept: 'application/json' } }, 200));
  assert.equal([edited.title, edited.body, '_method' in edited], ['Edited', 'New text', false]);
  const refusedEdit = (await submit('/posts/first', { _method: 'put', title: '' }, 422)).body;
  assert.match(refusedEdit, /Title is required/);
  assert.match(refusedEdit, /<h1>Edit post<\/h1>/);
  assert.match(await page('/posts/absent/edit', 404), /there is no post with id &quot;absent&quot;/);

  // only PUT, PATCH and DELETE override; posts has no PATCH route, and POST is not allowed on a post
  const patch = await submit('/posts/first', { _method: 'PATCH', title: 'x' }, 405);
  assert.is(patch.headers.allow, 'GET, HEAD, PUT, DELETE, OPTIONS');
  assert.match(patch.body, /PATCH is not allowed here/);
  assert.match((await submit('/posts/first', { _method: 'GET' }, 405)).body, /POST is not allowed here/);

  // a form from another site is refused, whichever header says so, and nothing is written
  const forged = { id: 'forged', title: 'Forged' };
  await submit('/posts', forged, 403, { ...SAME_ORIGIN, 'Sec-Fetch-Site': 'cross-site' });
  await submit('/posts', forged, 403, { ...SAME_ORIGIN, 'Sec-Fetch-Site': 'same-site' });
  const { 'Sec-Fetch-Site': _, ...originOnly } = SAME_ORIGIN;
  await submit('/posts', forged, 403, { ...originOnly, Origin: 'http://evil.example' });
  const refusedDelete = await submit('/posts/first', { _method: 'DELETE' }, 403, {
    ...SAME_ORIGIN,
    'Sec-Fetch-Site': 'cross-site',
  });
  assert.match(refusedDelete.body, /from another site/);
  await call({ path: '/posts/forged', headers: { Accept: 'application/json' } }, 404);
  await call({ path: '/posts/first', headers: { Accept: 'application/json' } }, 200);

  // destroy from the show page's form: 303 to the list, and the post is gone
  await redirected(submit('/posts/first', { _method: 'DELETE' }, 303), '/posts');
  assert.match(await page('/posts/first', 404), /<a href="\/posts">Back to all posts<\/a>/);
  assert.match(await page('/nowhere', 404), /no route matches this path/);
  const problem = await call({ path: '/nowhere', headers: { Accept: 'application/json' } }, 404);
  assert.is(problem.headers['content-type'], 'application/problem+json');
  return wires;
}
