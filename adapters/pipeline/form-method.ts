// Step 2, method override: the `_method` a form names, read before matching (a urlencoded form in full, a
// multipart one's first part alone).
import { MethodPart } from '../../core/request/method-part.js';
import { overriddenMethod } from '../../core/request/method-override.js';
import { boundaryOf, type UploadLimits } from '../../core/request/multipart.js';
import { parseBody } from '../../core/request/parse-body.js';
import type { BodyDone, BodyHeaders, Exchange } from './exchange.js';
import type { Fail } from './tracing.js';

/** Where a form's method is known: `next` matches the request with it. */
type Next = (x: Exchange, method: string) => void;

/**
 * Where a urlencoded form read in full goes, made once per table: parsed, its `_method` field (removed) picks
 * the method, and the body is read for good.
 */
export function formReader(maxJsonDepth: number, next: Next, fail: Fail): BodyDone {
  return (x, text, error) => {
    let body: Record<string, unknown>;
    try {
      if (error !== undefined) throw error;
      body = parseBody('form', text!, maxJsonDepth) as Record<string, unknown>;
    } catch (refusal) {
      return fail(x, refusal);
    }
    x.bodyRead = true;
    x.body = body;
    next(x, overriddenMethod(body) ?? 'POST');
  };
}

/**
 * Reads a multipart form's first part and no more: a `_method` field there (PUT, PATCH, DELETE) is the method
 * `next` matches with, any other first part leaves it `POST`. Every byte read is handed back, so the matched
 * route's upload parser reads the body from its start, `_method` included (and dropped: `methodPart`).
 */
export function peekFormMethod(
  x: Exchange,
  headers: BodyHeaders,
  limits: UploadLimits,
  next: Next,
  fail: Fail,
): void {
  let part: MethodPart;
  try {
    part = new MethodPart(boundaryOf(headers.type!), limits);
  } catch (error) {
    return fail(x, error);
  }
  x.peekBody(
    headers,
    (chunk) => part.look(chunk),
    (x, error) => {
      if (error === undefined && !part.decided) error = part.unfinished();
      if (error !== undefined) {
        // A body refused part way is not read to its end: its connection cannot be reused.
        x.closeAfter();
        return fail(x, error);
      }
      x.methodPart = part.method !== undefined;
      next(x, part.method ?? 'POST');
    },
  );
}
