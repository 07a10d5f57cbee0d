// examples/posts' live index in Chromium: one client writes, another's index follows without reloading, within
// the page policy; without JavaScript or EventSource the index is the page it always was. The browser tests
// are skipped, with a warning, where no Chromium is installed (failing under CI=true).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { suite, test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError } from '../../core/index.js';
import { postsResource } from '../../examples/posts/app.js';
import { postsAssets } from '../../examples/posts/deploy/assets.js';
import { routesOf } from '../../examples/posts/routes.js';
import { LIVE_INTEGRITY, LIVE_SCRIPT, PAGE_HEADERS, errorView } from '../../examples/posts/views/layout.js';
import { editView, indexView, newView, showView } from '../../examples/posts/views/posts.js';
import { signInView } from '../../examples/posts/views/sign-in.js';
import { accessible, launchChromium, needChromium } from '../support/browser.js';
import { needs } from '../support/needs.js';
import { ROOT } from '../support/paths.js';
import { EXAMPLE, start, stop, type Started } from '../support/spawn.js';

const SCRIPT = readFileSync(join(ROOT, 'examples/posts/public/live.js'));
const TOKEN = 'live-browser-token';
const WAIT = { timeout: 5000 };

test('views/layout.ts :: LIVE_SCRIPT and LIVE_INTEGRITY name public/live.js as it is now, and the policy that one script alone', () => {
  assert.is(LIVE_SCRIPT, postsAssets().url('live.js'), 'the fingerprinted URL sevenfold/assets serves');
  assert.is(LIVE_INTEGRITY, `sha256-${createHash('sha256').update(SCRIPT).digest('base64')}`);
  const policy = PAGE_HEADERS['Content-Security-Policy']!.split('; ');
  assert.equal(
    policy.filter((directive) => /^(default|script|connect)-src /.test(directive)),
    ["default-src 'none'", `script-src '${LIVE_INTEGRITY}'`, "connect-src 'self'"],
  );
  assert.ok(policy.includes("require-trusted-types-for 'script'"), 'the script may write no markup');
});

test('views :: the index page alone loads the script, by its fingerprinted URL and integrity, deferred', () => {
  const p = routesOf(postsResource()).paths;
  const post = {
    id: 'a',
    title: 'A',
    body: '',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  const visitor = { flashes: [], signedIn: false };
  const index = String(indexView(p, { posts: [post], limit: 100, offset: 0, total: 1, newId: 'b' }, visitor));
  assert.equal(index.match(/<script[^>]*>/g), [
    `<script src="${LIVE_SCRIPT}" integrity="${LIVE_INTEGRITY}" defer>`,
  ]);
  assert.match(index, /<div aria-live="polite"><\/div>\n<ul class="posts">/);
  for (const page of [
    showView(p, post, visitor),
    newView(p, { id: 'b', title: '', body: '' }, visitor),
    editView(p, post, visitor),
    errorView(p, new HttpError(404, 'gone')),
    signInView('/posts', '/posts', visitor),
  ])
    assert.not.match(String(page), /<script|aria-live/);
});

const run = needs(
  needChromium('the live index in Chromium (test/examples/posts-live-browser.test.ts)'),
  suite<{ browser: Browser }>('examples/posts live index, in Chromium'),
);

run.before(async (context) => {
  context.browser = await launchChromium();
});
run.after(async (context) => {
  await context.browser?.close();
});

/** A client of its own, whose pages' policy violations, console errors and uncaught errors are kept. */
async function client(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}) {
  const context = await browser.newContext(options);
  const problems: string[] = [];
  // Added through the DevTools protocol, which the page policy does not apply to.
  await context.addInitScript(() =>
    document.addEventListener('securitypolicyviolation', (event) =>
      console.error(`policy violation: ${event.effectiveDirective} ${event.blockedURI}`),
    ),
  );
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
  };
  context.on('page', watch);
  return { context, problems };
}

type Client = Awaited<ReturnType<typeof client>>;

/**
 * Starts the example on node with posts in memory (writes open to all unless `env` sets POSTS_TOKEN) and a
 * client for each of `options`, runs `check` with them, and closes them all after, whatever `check` did.
 */
async function onExample(
  browser: Browser,
  env: Record<string, string>,
  options: ReadonlyArray<Parameters<Browser['newContext']>[0]>,
  check: (server: Started, ...clients: Client[]) => Promise<void>,
): Promise<void> {
  const server = await start('node', EXAMPLE, { PORT: '0', DATA_DIR: 'memory', LOG_LEVEL: 'silent', ...env });
  const clients: Client[] = [];
  try {
    for (const option of options) clients.push(await client(browser, option));
    await check(server, ...clients);
  } finally {
    await Promise.all(clients.map(({ context }) => context.close()));
    await stop(server);
  }
}

/** Opens the index at `path` and resolves once its event stream answered, so that no change is missed. */
async function watching(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  const stream = page.waitForResponse((response) => response.request().resourceType() === 'eventsource');
  await page.goto(url);
  const answer = await stream;
  assert.is(answer.status(), 200, 'the index streams its changes');
  assert.match(answer.headers()['content-type'] ?? '', /^text\/event-stream/);
  // Kept in the page's own document, so that a reload would lose it.
  await page.evaluate(() => ((globalThis as { sameDocument?: boolean }).sameDocument = true));
  return page;
}

async function sameDocument(page: Page): Promise<void> {
  assert.ok(
    await page.evaluate(() => (globalThis as { sameDocument?: boolean }).sameDocument === true),
    'the page was not reloaded',
  );
}

/** The list as the page shows it now (`ul.posts` or "No posts yet.") and its pages' links, as markup. */
function listed(page: Page): Promise<{ list: string; pages: string | undefined }> {
  return page.evaluate(() => ({
    list: document.querySelector('main [aria-live]')!.nextElementSibling!.outerHTML,
    pages: document.querySelector('main nav[aria-label="Pages"]')?.outerHTML,
  }));
}

/** What the region last said (its last paragraph). */
const said = (page: Page) => page.locator('main [aria-live] p').last();

/** The page's markup with the new-post link's id (a fresh one per request) left out. */
async function markup(page: Page): Promise<string> {
  return (await page.content()).replace(/\/posts\/[0-9a-f-]{36}\/new/, '/posts/<new id>/new');
}

async function noScript(page: Page): Promise<void> {
  assert.is(await page.locator('script').count(), 0, `${page.url()} loads no script`);
  assert.is(await page.locator('[aria-live]').count(), 0, `${page.url()} has no live region`);
}

async function api(server: Started, method: string, path: string, body?: object): Promise<number> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  await response.arrayBuffer();
  return response.status;
}

run(
  'a signed-in client writes through the forms; another client’s index follows each change without reloading',
  ({ browser }) =>
    onExample(
      browser,
      { POSTS_TOKEN: TOKEN, SESSION_SECRET: 'a live browser secret of 32 chars' },
      [{}, {}],
      async (server, reader, writer) => {
        const index = await watching(reader.context, `${server.url}/posts`);
        assert.ok(await index.getByText('No posts yet.').isVisible());
        await accessible(index);

        // the writer signs in on the way to the new-post form, and creates a post
        const page = await writer.context.newPage();
        await page.goto(`${server.url}/posts/live/new`);
        assert.is(new URL(page.url()).pathname, '/session/new');
        await noScript(page);
        await page.getByLabel('Token').fill(TOKEN);
        await page.getByRole('button', { name: 'Sign in' }).click();
        assert.is(new URL(page.url()).pathname, '/posts/live/new');
        await noScript(page);
        await page.getByLabel('Title').fill('Written <em>elsewhere</em>');
        await page.getByRole('button', { name: 'Create post' }).click();
        assert.is(new URL(page.url()).pathname, '/posts/live');
        await noScript(page);

        // the reader's list shows it, linked as the server links it, and says so
        const created = index.getByRole('link', { name: 'Written <em>elsewhere</em>', exact: true });
        await created.waitFor(WAIT);
        assert.is(await created.getAttribute('href'), '/posts/live');
        assert.is(
          await index.getByRole('link', { name: 'Edit Written <em>elsewhere</em>' }).getAttribute('href'),
          '/posts/live/edit',
        );
        assert.is(await index.locator('main em').count(), 0, 'the title is text');
        assert.is(await index.getByText('No posts yet.').count(), 0);
        assert.is(await said(index).innerText(), 'New post “Written <em>elsewhere</em>”.');
        await sameDocument(index);
        await accessible(index);

        // edited: the new title, in both links
        await page.getByRole('link', { name: 'Edit' }).click();
        await noScript(page);
        await page.getByLabel('Title').fill('Edited elsewhere');
        await page.getByRole('button', { name: 'Save changes' }).click();
        await index.getByRole('link', { name: 'Edited elsewhere', exact: true }).waitFor(WAIT);
        assert.ok(await index.getByRole('link', { name: 'Edit Edited elsewhere' }).isVisible());
        assert.is(await index.locator('ul.posts li').count(), 1);
        assert.is(await said(index).innerText(), '“Edited elsewhere” was edited.');

        // destroyed: gone, and the list is the empty one again
        await page.getByRole('button', { name: 'Delete this post' }).click();
        assert.is(new URL(page.url()).pathname, '/posts');
        await index.getByText('No posts yet.').waitFor(WAIT);
        assert.is(await index.locator('ul.posts').count(), 0);
        assert.is(await said(index).innerText(), '“Edited elsewhere” was deleted.');
        await sameDocument(index);
        await accessible(index);

        assert.equal([...reader.problems, ...writer.problems], []);
        // a page that does not exist is a page without the script too (its 404 is an error in the console)
        await page.goto(`${server.url}/posts/absent`);
        await noScript(page);
      },
    ),
);

run(
  'the index follows API writes within its page: a full page gains its next link, and what it cannot show it says',
  ({ browser }) =>
    onExample(browser, { POSTS_TOKEN: '' }, [{}], async (server, { context, problems }) => {
      const fresh = async (path: string) => {
        const page = await context.newPage();
        await page.goto(`${server.url}${path}`);
        const shown = await listed(page);
        await page.close();
        return shown;
      };
      assert.is(await api(server, 'POST', '/posts', { id: 'p1', title: 'First' }), 201);
      const first = await watching(context, `${server.url}/posts?limit=2`);
      const second = await watching(context, `${server.url}/posts?limit=2&offset=2`);

      // room on the page: the new post is its last line, as a fresh load writes it
      assert.is(await api(server, 'POST', '/posts', { id: 'p2', title: 'Second' }), 201);
      await first.getByRole('link', { name: 'Second', exact: true }).waitFor(WAIT);
      assert.equal(await listed(first), await fresh('/posts?limit=2'));

      // the page is full: the post goes on the next page, which the page now links, and that page says so
      assert.is(await api(server, 'POST', '/posts', { id: 'p3', title: 'Third' }), 201);
      await first.getByRole('link', { name: 'Next page' }).waitFor(WAIT);
      assert.equal(await listed(first), await fresh('/posts?limit=2'));
      assert.is(await said(first).innerText(), 'New post “Third”, on the next page.');
      await second.getByRole('link', { name: 'Show the list as it is now' }).waitFor(WAIT);

      // an edit with markup in its title shows it as text
      const markupTitle = '<img src=x onerror="document.title=\'pwned\'">';
      assert.is(await api(server, 'PUT', '/posts/p1', { title: markupTitle }), 200);
      await first.getByRole('link', { name: markupTitle, exact: true }).waitFor(WAIT);
      assert.is(await first.locator('main img').count(), 0);
      assert.is(await first.title(), 'All posts · Posts');
      assert.equal(await listed(first), await fresh('/posts?limit=2'));

      // a post deleted from a page with more after it: gone, and the way to the page as it is now
      assert.is(await api(server, 'DELETE', '/posts/p1'), 204);
      await first
        .getByRole('link', { name: markupTitle, exact: true })
        .waitFor({ state: 'detached', ...WAIT });
      const refresh = first.getByRole('link', { name: 'Show the list as it is now' });
      assert.ok(await refresh.isVisible());
      assert.match(await first.locator('main [aria-live]').innerText(), /This page may be out of date\./);
      await sameDocument(first);
      await accessible(first);
      await refresh.click();
      await first.waitForLoadState();
      assert.equal(await listed(first), await fresh('/posts?limit=2'));
      assert.is(await first.locator('ul.posts li').count(), 2);
      assert.equal(problems, []);
    }),
);

run('a reload event: the page says it may be out of date and links the list as it is now', ({ browser }) =>
  onExample(browser, { POSTS_TOKEN: '' }, [{}], async (server, { context, problems }) => {
    const page = await context.newPage();
    // The stream the broker sends when a client resumes from before what it keeps, answered here at once.
    await page.route('**/posts', (route) =>
      route.request().resourceType() === 'eventsource'
        ? route.fulfill({
            headers: { 'Content-Type': 'text/event-stream' },
            body: 'retry: 600000\n\nevent: reload\nid: gone-1\ndata: {"reason":"events were missed: fetch afresh"}\n\n',
          })
        : route.continue(),
    );
    await page.goto(`${server.url}/posts`);
    const refresh = page.getByRole('link', { name: 'Show the list as it is now' });
    await refresh.waitFor(WAIT);
    assert.is(await refresh.getAttribute('href'), '/posts');
    assert.is(await said(page).innerText(), 'Posts changed while this page was not following them.');
    await accessible(page);
    assert.equal(problems, []);
  }),
);

run('without JavaScript, or without EventSource, the index is the page it always was', ({ browser }) =>
  onExample(
    browser,
    { POSTS_TOKEN: '' },
    [{ javaScriptEnabled: false }, {}, {}],
    async (server, plain, bare, live) => {
      assert.is(await api(server, 'POST', '/posts', { id: 'kept', title: 'Kept as it was' }), 201);
      const url = `${server.url}/posts?limit=1`;
      const off = await plain.context.newPage();
      await off.goto(url);
      assert.ok(await off.getByRole('link', { name: 'Kept as it was', exact: true }).isVisible());
      assert.is(await off.getByRole('link', { name: 'Next page' }).count(), 0);
      assert.is(await off.locator('main [aria-live]').innerText(), '');
      await bare.context.addInitScript(() => delete (globalThis as { EventSource?: unknown }).EventSource);
      const without = await bare.context.newPage();
      await without.goto(url);
      const on = await watching(live.context, url);
      // A page without JavaScript, one without EventSource and one following its stream read the same.
      const page = await markup(off);
      assert.is(await markup(without), page);
      assert.is(await markup(on), page);
      await off.getByRole('link', { name: 'Kept as it was', exact: true }).click();
      assert.is(new URL(off.url()).pathname, '/posts/kept');
      // Where no EventSource is, a change elsewhere leaves the page as it is, with no error.
      assert.is(await api(server, 'POST', '/posts', { id: 'later', title: 'Later' }), 201);
      await on.getByRole('link', { name: 'Next page' }).waitFor(WAIT);
      assert.is(await markup(without), page);
      assert.equal([...plain.problems, ...bare.problems, ...live.problems], []);
    },
  ),
);

test.run();
run.run();
