// Answers that depend on a session are kept out of shared caches (a proxy, a CDN), as Rails does.
import type { Rendered } from './render.js';
import { headerKey } from '../util/headers.js';

/**
 * Marks in place an answer made for a request that carried a session: `Vary: Cookie`, and `Cache-Control:
 * private` unless it already keeps shared caches out (a `public` one becomes `private`).
 */
export function privately(out: Rendered): void {
  const headers = out.headers as Record<string, string>;
  const vary = headerKey(headers, 'vary');
  if (vary === undefined) headers['Vary'] = 'Cookie';
  else if (!/(^|,)\s*(cookie|\*)\s*(,|$)/i.test(headers[vary]!)) headers[vary] = `${headers[vary]}, Cookie`;
  const cache = headerKey(headers, 'cache-control');
  if (cache === undefined) headers['Cache-Control'] = 'private';
  else if (!/\b(private|no-store)\b/i.test(headers[cache]!))
    headers[cache] = /\bpublic\b/i.test(headers[cache]!)
      ? headers[cache]!.replace(/\bpublic\b/i, 'private')
      : `private, ${headers[cache]}`;
}

/** An answer that sets or clears a session cookie: no cache may keep it, or it would hand the cookie on. */
export function unstored(out: Rendered): Rendered {
  const headers: Record<string, string> = { ...out.headers };
  const cache = headerKey(headers, 'cache-control');
  if (cache !== undefined) delete headers[cache];
  headers['Cache-Control'] = 'private, no-store';
  return { ...out, headers };
}
