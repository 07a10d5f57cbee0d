import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';

/** Debian's Chromium, which the browser tests drive (apt-get install chromium); CHROMIUM names another. */
export const CHROMIUM = process.env.CHROMIUM ?? '/usr/bin/chromium';

const MISSING = `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM to a Chromium binary)`;

/**
 * Launches headless Chromium. Without it: throws when `CI=true` (CI must not pass by skipping),
 * otherwise warns loudly and returns `undefined`, and the caller skips its browser tests.
 */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    if (process.env.CI === 'true') throw new Error(`CI needs a browser: ${MISSING}`);
    console.warn(`\n  ⚠ SKIPPED the browser tests: ${MISSING}.\n`);
    return undefined;
  }
  // Loaded only here, so that a run without Chromium never loads playwright-core either.
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}
