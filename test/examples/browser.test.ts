import { readFileSync, writeFileSync } from 'node:fs';
import { routes } from '../../core/index.js';
import { postsAssets } from '../../examples/posts/deploy/assets.js';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { launchChromium, needChromium } from '../support/browser.js';
import { ROOT } from '../support/paths.js';
import { served } from '../support/posts.js';
import { needs } from '../support/needs.js';
import { ADAPTERS } from '../support/servers.js';

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Runs axe-core in the page (WCAG 2.1 A and AA rules) and fails with every violation it finds. */
async function accessible(page: Page): Promise<void> {
  // Evaluated through the DevTools protocol, which the pages' script-free CSP does not apply to.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (globalThis as unknown as { axe: { run: Function } }).axe;
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return results.violations.map(
      (v: { id: string; nodes: Array<{ html: string }> }) =>
        `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`,
    );
  }, WCAG_21_AA);
  assert.equal(violations, [], `axe-core on ${page.url()}`);
}

/** A page on another site with a form that posts to the app: what a forged submission looks like. */
function attackerSite(target: string): Promise<Server> {
  const page = `<!doctype html><html lang="en"><title>Win a prize</title>
<form method="post" action="${target}/posts">
<input type="hidden" name="id" value="forged"><input type="hidden" name="title" value="Forged">
<button>Claim</button></form></html>`;
  const server = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const browserRun = needs(
  needChromium('the browser tests of examples/posts (test/examples/browser.test.ts)'),
  suite<{ browser: Browser }>('examples/posts in Chromium'),
);

browserRun.before(async (context) => {
  context.browser = await launchChromium();
});
browserRun.after(async (context) => {
  await context.browser?.close();
});

for (const [index, adapter] of ADAPTERS.entries()) {
  browserRun(`a person manages posts through the pages, on ${adapter.name}`, async ({ browser }) => {
    const [posts, options] = served();
    // With its style sheet, served as `npm start` serves it.
    const running = await adapter.start(routes(posts, postsAssets()), options);
    const context = await browser.newContext({ viewport: { width: 900, height: 640 } });
    const page = await context.newPage();
    const refusedByPolicy: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refusedByPolicy.push(message.text());
    });
    try {
      // the list, empty, and the way to a new post
      await page.goto(`${running.url}/posts`);
      assert.is(await page.title(), 'All posts · Posts');
      assert.ok(await page.getByText('No posts yet.').isVisible());
      await accessible(page);
      await page.getByRole('link', { name: 'New post' }).click();
      assert.match(page.url(), /\/posts\/gen-1\/new$/);
      assert.is(await page.getByLabel('Address').inputValue(), 'gen-1');
      await accessible(page);

      // create one with a chosen address: the browser lands on its page (303 → GET)
      await page.getByLabel('Address').fill('resources');
      await page.getByLabel('Title').fill('Declaring resources with sevenfold');
      await page
        .getByLabel('Text')
        .fill('One table, seven actions.\nThe listing, OpenAPI and these pages all come from it.');
      await page.getByRole('button', { name: 'Create post' }).click();
      assert.is(new URL(page.url()).pathname, '/posts/resources');
      assert.is(
        await page.getByRole('heading', { level: 1 }).textContent(),
        'Declaring resources with sevenfold',
      );
      assert.match(await page.locator('.post-body').innerText(), /seven actions\.\nThe listing/);
      // The style sheet is the one the policy allows: the delete button has its colour.
      const danger = page.getByRole('button', { name: 'Delete this post' });
      assert.is(await danger.evaluate((b) => getComputedStyle(b).backgroundColor), 'rgb(164, 0, 29)');
      await accessible(page);
      if (index === 0)
        writeFileSync(
          join(ROOT, 'docs/screenshot.png'),
          await page.screenshot({ clip: { x: 0, y: 0, width: 900, height: 360 } }),
        );

      // a title with markup in it is shown as text, never run
      const script = '<script>document.title = "pwned"</script><b>bold?</b>';
      await page.goto(`${running.url}/posts/script/new`);
      await page.getByLabel('Title').fill(script);
      await page.getByRole('button', { name: 'Create post' }).click();
      assert.is(await page.getByRole('heading', { level: 1 }).textContent(), script);
      assert.is(await page.title(), `${script} · Posts`);
      assert.is(await page.locator('main b').count(), 0);

      // the list links to both, with their edit links
      await page.getByRole('link', { name: 'All posts' }).click();
      const items = page.locator('ul.posts li');
      assert.is(await items.count(), 2);
      assert.ok(await page.getByRole('link', { name: script, exact: true }).isVisible());
      await accessible(page);

      // edit: a blank title is refused, the form comes back with the message and the typed text
      await page.getByRole('link', { name: 'Edit Declaring resources with sevenfold' }).click();
      assert.is(await page.getByLabel('Title').inputValue(), 'Declaring resources with sevenfold');
      await page.getByLabel('Title').fill('   ');
      await page.getByLabel('Text').fill('Kept after the refusal');
      const refused = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Save changes' }).click();
      assert.is((await refused).status(), 422);
      assert.match(await page.getByRole('alert').innerText(), /Title is required/);
      assert.is(await page.getByLabel('Title').getAttribute('aria-invalid'), 'true');
      assert.is(await page.getByLabel('Text').inputValue(), 'Kept after the refusal');
      await accessible(page);
      await page.getByLabel('Title').fill('Resources, declared');
      await page.getByRole('button', { name: 'Save changes' }).click();
      assert.is(new URL(page.url()).pathname, '/posts/resources');
      assert.is(await page.getByRole('heading', { level: 1 }).textContent(), 'Resources, declared');
      assert.is(await page.locator('.post-body').innerText(), 'Kept after the refusal');

      // delete, through the form's _method=DELETE: back on the list, the post gone, its page a 404
      await page.getByRole('button', { name: 'Delete this post' }).click();
      assert.is(new URL(page.url()).pathname, '/posts');
      assert.is(await items.count(), 1);
      const missing = await page.goto(`${running.url}/posts/resources`);
      assert.is(missing?.status(), 404);
      assert.is(await page.getByRole('heading', { level: 1 }).textContent(), 'Not Found');
      await accessible(page);
      await page.getByRole('link', { name: 'Back to all posts' }).click();
      assert.is(new URL(page.url()).pathname, '/posts');

      // a form on another site that posts here is refused, and writes nothing
      const attacker = await attackerSite(running.url);
      try {
        const address = attacker.address() as { port: number };
        await page.goto(`http://localhost:${address.port}/`);
        const forged = page.waitForResponse((response) => response.request().method() === 'POST');
        await page.getByRole('button', { name: 'Claim' }).click();
        assert.is((await forged).status(), 403);
        assert.is(await page.getByRole('heading', { level: 1 }).textContent(), 'Forbidden');
        await accessible(page);
        assert.is((await page.goto(`${running.url}/posts/forged`))?.status(), 404);
      } finally {
        attacker.close();
      }
      assert.equal(refusedByPolicy, []);
    } finally {
      await context.close();
      await running.close();
    }
  });
}

browserRun.run();
