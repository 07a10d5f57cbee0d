// examples/posts with POSTS_TOKEN in Chromium: sign in (a wrong token first), write, sign out, and a forged
// cross-site sign-in refused. Skipped, with a warning, where no Chromium is installed.
import { createServer, type Server } from 'node:http';
import type { Browser } from 'playwright-core';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { postsOptions } from '../../examples/posts/app.js';
import { postsTable } from '../../examples/posts/hooks.js';
import { accessible, launchChromium, needChromium } from '../support/browser.js';
import { needs } from '../support/needs.js';
import { deterministicPosts } from '../support/posts.js';
import { ADAPTERS } from '../support/servers.js';

const TOKEN = 'browser-token';
const ENV = {
  POSTS_TOKEN: TOKEN,
  SESSION_SECRET: 'a browser secret of thirty-two chars',
  LOG_LEVEL: 'silent',
};

/** A page on another site whose form signs in here: a forged sign-in. */
function attackerSite(target: string): Promise<Server> {
  const page = `<!doctype html><html lang="en"><title>Win a prize</title>
<form method="post" action="${target}/session"><input type="hidden" name="token" value="${TOKEN}">
<button>Claim</button></form></html>`;
  const server = createServer((_, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(page));
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const run = needs(
  needChromium('signing in, in Chromium (test/examples/posts-sign-in-browser.test.ts)'),
  suite<{ browser: Browser; saved?: string }>('examples/posts signed in, in Chromium'),
);

run.before(async (context) => {
  context.saved = process.env.POSTS_TOKEN;
  // The write guard reads POSTS_TOKEN as each write comes in.
  process.env.POSTS_TOKEN = TOKEN;
  context.browser = await launchChromium();
});
run.after(async (context) => {
  if (context.saved === undefined) delete process.env.POSTS_TOKEN;
  else process.env.POSTS_TOKEN = context.saved;
  await context.browser?.close();
});

run('a person signs in, writes a post with its notice shown once, and signs out', async ({ browser }) => {
  const posts = deterministicPosts();
  const running = await ADAPTERS[0]!.start(postsTable({ env: ENV }, posts), postsOptions(posts));
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    // signed out, the new-post form sends the person to sign in first
    await page.goto(`${running.url}/posts/first/new`);
    assert.is(new URL(page.url()).pathname, '/session/new');
    await accessible(page);
    await page.getByLabel('Token').fill('not it');
    const refused = page.waitForResponse((response) => response.request().method() === 'POST');
    await page.getByRole('button', { name: 'Sign in' }).click();
    assert.is((await refused).status(), 422);
    assert.match(await page.getByRole('alert').innerText(), /not the right one/);
    await accessible(page);
    await page.getByLabel('Token').fill(TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // back on the form asked for, signed in
    assert.is(new URL(page.url()).pathname, '/posts/first/new');
    assert.match(await page.getByRole('status').innerText(), /Signed in\./);
    await page.getByLabel('Title').fill('Written while signed in');
    await page.getByRole('button', { name: 'Create post' }).click();
    assert.is(new URL(page.url()).pathname, '/posts/first');
    assert.match(await page.getByRole('status').innerText(), /Post created\./);
    await accessible(page);
    await page.reload();
    assert.is(await page.getByRole('status').count(), 0);
    // signing out: writes are for the signed-in again
    await page.getByRole('button', { name: 'Sign out' }).click();
    assert.is(new URL(page.url()).pathname, '/posts');
    assert.match(await page.getByRole('status').innerText(), /Signed out\./);
    assert.ok(await page.getByRole('link', { name: 'Sign in' }).isVisible());

    // a form on another site that signs in here is refused, and signs no one in
    const attacker = await attackerSite(running.url);
    try {
      await page.goto(`http://localhost:${(attacker.address() as { port: number }).port}/`);
      const forged = page.waitForResponse((response) => response.request().method() === 'POST');
      await page.getByRole('button', { name: 'Claim' }).click();
      assert.is((await forged).status(), 403);
      await page.goto(`${running.url}/posts`);
      assert.ok(await page.getByRole('link', { name: 'Sign in' }).isVisible());
    } finally {
      attacker.close();
    }
  } finally {
    await context.close();
    await running.close();
  }
});

run.run();
