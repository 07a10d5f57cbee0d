import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import * as assert from 'uvu/assert';
import { hidden, need, type Need } from './needs.js';

/** Debian's Chromium, which the browser tests drive (apt-get install chromium); CHROMIUM names another. */
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const missing =
  hidden('chromium') ??
  (existsSync(CHROMIUM)
    ? undefined
    : `chromium: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM to a Chromium binary)`);

/** The browser tests of `what`, skipped without Chromium (see needs.ts). */
export const needChromium = (what: string): Need => need(what, [missing]);

/** Launches headless Chromium, which `needChromium()` has found. */
export async function launchChromium(): Promise<Browser> {
  if (missing !== undefined) throw new Error(missing);
  // Loaded only here, so that a run without Chromium never loads playwright-core either.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

let axeSource: string | undefined;

/** Runs axe-core's WCAG 2.1 A and AA rules in the page, failing with every violation and the markup it is in. */
export async function accessible(page: Page): Promise<void> {
  // Read on first use, so that a run without Chromium never reads axe-core.
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: Function } }).axe;
    const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
    const results = await axe.run(document, { runOnly: { type: 'tag', values: tags } });
    return results.violations.map(
      (v: { id: string; nodes: Array<{ html: string }> }) =>
        `${v.id}: ${v.nodes.map((n) => n.html).join(' | ')}`,
    );
  });
  assert.equal(violations, [], `axe-core on ${page.url()}`);
}
