import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
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
