// CORS on the request path: preflights answered from the policy of the routes they ask about, and the
// cross-site requests that only a granted preflight lets a browser send.
import type { Cors, CorsHook } from '../../core/define/cors.js';
import type { Hook } from '../../core/define/hooks.js';
import type { Matcher } from '../../core/matcher/index.js';
import { needsPreflight } from '../../core/request/cross-site.js';
import type { Rendered } from '../../core/response/render.js';
import type { Headers, Route, RouteTable } from '../../core/types.js';
import type { Exchange } from './exchange.js';

/** What the request path asks of a table's CORS policies; a table without one has no plan. */
export interface CorsPlan {
  /**
   * The grant for a preflight to a path whose methods are `allow`, or `undefined` when it is not a preflight
   * or nothing there grants its origin (it is then answered as any `OPTIONS`: `204` with `Allow`).
   */
  preflight(x: Exchange, allow: string): Rendered | undefined;
  /**
   * Whether a cross-site request is one a browser sends only after a preflight (JSON, `PUT`, `DELETE`…) from
   * an origin the policy of its route (or, for a miss, the mounted table's) allows: not a forged form.
   */
  granted(x: Exchange, method: string): boolean;
}

/** The CORS plan of a table whose scope's hooks are `before`; `undefined` when no route has a policy. */
export function corsPlan(table: RouteTable, matcher: Matcher, before: readonly Hook[]): CorsPlan | undefined {
  const policies = new Map<Route, Cors>();
  for (const route of table) {
    const policy = innermostCors(route.hooks);
    if (policy !== undefined) policies.set(route, policy);
  }
  const scoped = innermostCors(before);
  if (policies.size === 0 && scoped === undefined) return undefined;

  /** The policy of the route `method` reaches at `path`, if it has one. */
  const policyAt = (method: string, path: string): Cors | undefined => {
    const match = matcher.match(method, path);
    return match.kind === 'found' ? policies.get(match.route) : undefined;
  };

  function preflight(x: Exchange, allow: string): Rendered | undefined {
    const origin = headerValue(x.headers, 'origin');
    const requested = headerValue(x.headers, 'access-control-request-method');
    if (origin === undefined || requested === undefined) return undefined;
    // The policy of the method asked about answers, and grants only the methods whose own policy would answer
    // alike: a browser caches each granted method with this answer's credentials and headers.
    let chosen: Cors | undefined = policyAt(requested, x.path);
    if (chosen !== undefined && !chosen.grants(origin, requested)) chosen = undefined;
    const granted: string[] = [];
    for (const method of allow.split(', ')) {
      const policy = method === 'OPTIONS' ? undefined : policyAt(method, x.path);
      if (policy === undefined || !policy.grants(origin, method)) continue;
      chosen ??= policy;
      if (alike(policy, chosen)) granted.push(method);
    }
    if (chosen === undefined) return undefined;
    return chosen.preflight(origin, granted, allow, headerValue(x.headers, 'access-control-request-headers'));
  }

  function granted(x: Exchange, method: string): boolean {
    const origin = headerValue(x.headers, 'origin');
    if (origin === undefined || !needsPreflight(method, x.contentType())) return false;
    const match = matcher.match(method, x.path);
    const policy = match.kind === 'found' ? policies.get(match.route) : scoped;
    return policy !== undefined && policy.grants(origin, method);
  }

  return { preflight, granted };
}

/** Whether two policies answer a preflight alike: the same credentials, allowed headers and max-age. */
function alike(a: Cors, b: Cors): boolean {
  if (a === b) return true;
  const headers = (p: Cors) => (p.allowedHeaders === '*' ? '*' : [...p.allowedHeaders].sort().join(','));
  return a.credentials === b.credentials && a.maxAge === b.maxAge && headers(a) === headers(b);
}

/** The innermost CORS policy among `hooks` (given outermost first), the one that decides: `cors()`'s data. */
function innermostCors(hooks: readonly Hook[] | undefined): Cors | undefined {
  for (let i = (hooks?.length ?? 0) - 1; i >= 0; i--) {
    const policy = (hooks![i] as Partial<CorsHook>).cors;
    if (policy !== undefined) return policy;
  }
  return undefined;
}

/** A request header's one value, or `undefined` when it is missing or repeated. */
function headerValue(headers: Headers, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}
