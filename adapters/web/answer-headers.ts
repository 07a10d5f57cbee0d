// The headers a Response is made with: as cheap as each runtime reads them, Set-Cookie a line per cookie.
import type { Rendered } from '../../core/response/render.js';

// Bun copies a `Headers` natively but converts a record one property at a time; Deno and undici iterate a
// `Headers` (sorted) slower than they read a record.
const SHARE_HEADERS = typeof (globalThis as { Bun?: unknown }).Bun === 'object';

/** On Bun, a `Headers` for each Content-Type an answer has alone, made once: most answers are one of a few. */
const TYPED = new Map<string, Headers>();
const MAX_TYPED = 32;

/** The answer's headers with a Set-Cookie line per cookie, which a record cannot hold. */
export function withCookieLines(out: Rendered): Headers {
  const headers = new Headers(out.headers);
  for (const line of out.cookies!) headers.append('Set-Cookie', line);
  return headers;
}

/**
 * The headers an answer's Response is made with: none for none (the runtimes read even an empty record),
 * and on Bun a shared `Headers` for a Content-Type alone (the Response gets its own copy either way).
 */
export function responseHeaders(headers: Record<string, string>): HeadersInit | undefined {
  let type: string | undefined;
  for (const name in headers) {
    if (!SHARE_HEADERS || type !== undefined || name !== 'Content-Type') return headers;
    type = headers[name]!;
  }
  if (type === undefined) return undefined;
  let shared = TYPED.get(type);
  if (shared === undefined) {
    // Handlers may name types without end: past a few, the record is used as it is.
    if (TYPED.size >= MAX_TYPED) return headers;
    TYPED.set(type, (shared = new Headers({ 'Content-Type': type })));
  }
  return shared;
}
