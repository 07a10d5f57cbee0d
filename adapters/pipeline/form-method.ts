// Step 2, method override: the `_method` a form names, read before matching (a urlencoded form in full, a
// multipart one's first part alone).
import { boundaryOf, MethodPart, type UploadLimits } from '../../core/request/multipart.js';
import { OVERRIDE_METHODS, overriddenMethod } from '../../core/request/method-override.js';
import { parseBody } from '../../core/request/parse-body.js';
import type { BodyDone, BodyHeaders, Exchange } from './exchange.js';
import type { Fail } from './tracing.js';
import type { Guard } from '../../core/define/guards.js';
import type { Matcher } from '../../core/matcher/index.js';
import { fileFields } from '../../core/request/file-fields.js';
import type { Found } from '../../core/matcher/match.js';
import type { Route, RouteTable } from '../../core/types.js';

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
    x.req.body = body;
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

// What a form posted with `_method` may reach: the routes at its path, and the guards they all run first.
const FORM_METHODS = ['POST', ...OVERRIDE_METHODS];

/** The routes a form posted to `path` may reach: POST's, and those `_method` can ask for. */
export function formRoutes(matcher: Matcher, path: string): Found[] {
  const found: Found[] = [];
  for (const method of FORM_METHODS) {
    const match = matcher.match(method, path);
    if (match.kind === 'found') found.push(match);
  }
  return found;
}

/** The guards every one of `routes` runs first, in order: the longest prefix their guard lists share. */
export function sharedGuards(routes: readonly Found[]): readonly Guard<any>[] {
  const lists = routes.map((found) => found.route.guards ?? []);
  const first = lists[0]!;
  let length = 0;
  while (length < first.length && lists.every((list) => list[length] === first[length])) length++;
  return first.slice(0, length);
}

/** The routes `_method` may name (PUT, PATCH) whose body has a file field: where a multipart form may lead. */
export function uploadOverrides(table: RouteTable): ReadonlySet<Route> {
  return new Set(
    table.filter(
      (route) =>
        OVERRIDE_METHODS.has(route.method) && route.body && fileFields(route.schema?.body).length > 0,
    ),
  );
}
