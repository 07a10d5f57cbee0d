// Cross-origin policies on the request path (a hook's `crossOrigin` part): preflights answered from the policy
// of the routes they ask about, and the cross-site requests that only a granted preflight lets a browser send.
import type { CrossOrigin, Hook } from '../../core/define/hooks.js';
import type { Matcher } from '../../core/matcher/index.js';
import { needsPreflight } from '../../core/request/cross-site.js';
import type { HttpResponse } from '../../core/response/render.js';
import type { RequestHeaders, Route, RouteTable } from '../../core/types.js';
import type { Exchange } from './exchange.js';

/** What the request path asks of a table's cross-origin policies; a table without one has no plan. */
export interface CrossOriginPlan {
  /**
   * The grant for a preflight to a path whose methods are `allow`, or `undefined` when it is not a preflight
   * or nothing there grants its origin (it is then answered as any `OPTIONS`: `204` with `Allow`).
   */
  preflight(x: Exchange, allow: string): HttpResponse | undefined;
  /**
   * Whether a cross-site request is one a browser sends only after a preflight (JSON, `PUT`, `DELETE`…) from
   * an origin the policy of its route (or, for a miss, the mounted table's) allows: not a forged form.
   */
  granted(x: Exchange, method: string): boolean;
}

/** The CORS plan of a table whose scope's hooks are `before`; `undefined` when no route has a policy. */
export function crossOriginPlan(
  table: RouteTable,
  matcher: Matcher,
  before: readonly Hook[],
): CrossOriginPlan | undefined {
  const policies = new Map<Route, CrossOrigin>();
  for (const route of table) {
    const policy = innermostPolicy(route.hooks);
    if (policy !== undefined) policies.set(route, policy);
  }
  const scoped = innermostPolicy(before);
  if (policies.size === 0 && scoped === undefined) return undefined;

  /** The policy of the route `method` reaches at `path`, if it has one. */
  const policyAt = (method: string, path: string): CrossOrigin | undefined => {
    const match = matcher.match(method, path);
    return match.kind === 'found' ? policies.get(match.route) : undefined;
  };

  function preflight(x: Exchange, allow: string): HttpResponse | undefined {
    const origin = headerValue(x.headers(), 'origin');
    const requested = headerValue(x.headers(), 'access-control-request-method');
    if (origin === undefined || requested === undefined) return undefined;
    // The policy of the method asked about answers, and grants only the methods whose own policy would answer
    // alike: a browser caches each granted method with this answer's credentials and headers.
    let chosen: CrossOrigin | undefined = policyAt(requested, x.req.path);
    if (chosen !== undefined && !chosen.grants(origin, requested)) chosen = undefined;
    const granted: string[] = [];
    for (const method of allow.split(', ')) {
      const policy = method === 'OPTIONS' ? undefined : policyAt(method, x.req.path);
      if (policy === undefined || !policy.grants(origin, method)) continue;
      chosen ??= policy;
      if (policy === chosen || policy.key === chosen.key) granted.push(method);
    }
    if (chosen === undefined) return undefined;
    return chosen.preflight(
      origin,
      granted,
      allow,
      headerValue(x.headers(), 'access-control-request-headers'),
    );
  }

  function granted(x: Exchange, method: string): boolean {
    const origin = headerValue(x.headers(), 'origin');
    if (origin === undefined || !needsPreflight(method, x.contentType())) return false;
    const match = matcher.match(method, x.req.path);
    const policy = match.kind === 'found' ? policies.get(match.route) : scoped;
    return policy !== undefined && policy.grants(origin, method);
  }

  return { preflight, granted };
}

/** The innermost cross-origin policy among `hooks` (given outermost first), the one that decides. */
function innermostPolicy(hooks: readonly Hook[] | undefined): CrossOrigin | undefined {
  for (let i = (hooks?.length ?? 0) - 1; i >= 0; i--) {
    const policy = hooks![i]!.crossOrigin;
    if (policy !== undefined) return policy;
  }
  return undefined;
}

/** A request header's one value, or `undefined` when it is missing or repeated. */
function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name];
  return typeof value === 'string' ? value : undefined;
}
