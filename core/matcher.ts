import { RouteDefinitionError } from './errors.js';
import type { Match, Route, RouteTable } from './types.js';

/** Answers "which route serves this method and path?" for one compiled table. */
export interface Matcher {
  readonly routes: RouteTable;
  /** Matches a still-encoded path (no query string) against the table. */
  match(method: string, path: string): Match;
}

export interface MatcherOptions {
  /** The longest decoded path parameter accepted; longer ones are a bad request. Default 1024. */
  readonly maxParamLength?: number;
}

/** One path segment position in the tree: static children first, then one param child. */
interface Node {
  readonly statics: Map<string, Node>;
  param: Node | undefined;
  /** Routes ending here by method; `undefined` where no route ends. */
  methods: Record<string, Route> | undefined;
  /** The `Allow` header for this path: its methods, HEAD with GET, and OPTIONS. */
  allow: string;
}

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const NOT_FOUND: Match = Object.freeze({ kind: 'not-found' });
// Control characters in a decoded segment are never part of a legitimate resource path.
const CONTROL = /[\u0000-\u001f\u007f]/;

function newNode(): Node {
  return { statics: new Map(), param: undefined, methods: undefined, allow: '' };
}

function allowOf(methods: Iterable<string>): string {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  set.add('OPTIONS');
  const known = METHOD_ORDER.filter((m) => set.has(m));
  return [...known, ...[...set].filter((m) => !METHOD_ORDER.includes(m)).sort()].join(', ');
}

function insert(root: Node, route: Route): void {
  if (typeof route.path !== 'string' || !route.path.startsWith('/')) {
    throw new RouteDefinitionError(`route ${route.name}: path must start with "/", got ${JSON.stringify(route.path)}`, route);
  }
  let node = root;
  for (const segment of route.path === '/' ? [] : route.path.slice(1).split('/')) {
    if (segment.startsWith(':')) {
      node = node.param ??= newNode();
    } else {
      let next = node.statics.get(segment);
      if (next === undefined) node.statics.set(segment, (next = newNode()));
      node = next;
    }
  }
  const methods = (node.methods ??= Object.create(null) as Record<string, Route>);
  const taken = methods[route.method];
  if (taken !== undefined) {
    throw new RouteDefinitionError(
      `${route.method} ${route.path} is defined twice: by ${taken.name} and by ${route.name}; remove one or give it another path`,
      route,
    );
  }
  methods[route.method] = route;
  node.allow = allowOf(Object.keys(methods));
}

/**
 * Compiles a route table into a matcher. Paths are grouped first and methods second, so
 * 405 with `Allow`, OPTIONS and HEAD-as-GET are each one lookup; static segments beat params.
 */
export function compile(table: RouteTable, options: MatcherOptions = {}): Matcher {
  const maxParamLength = options.maxParamLength ?? 1024;
  const root = newNode();
  for (const route of table) insert(root, route);

  function match(method: string, path: string): Match {
    const end = path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
    const segments = end <= 1 ? [] : path.slice(1, end).split('/');
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const decoded = segment.includes('%') ? decode(segment) : segment;
      if (decoded === undefined) return badRequest('the path has malformed percent-encoding');
      if (decoded === '.' || decoded === '..') return badRequest('dot segments are not allowed in the path');
      if (CONTROL.test(decoded)) return badRequest('control characters are not allowed in the path');
      segments[i] = decoded;
    }
    const values: string[] = [];
    const node = find(root, segments, 0, values, method);
    if (node === undefined) {
      // Static and param branches may both match the path: Allow names what every one of them serves.
      const known: Node[] = [];
      collect(root, segments, 0, known);
      if (known.length === 0) return NOT_FOUND;
      const allow = known.length === 1 ? known[0]!.allow : allowOf(known.flatMap((n) => Object.keys(n.methods!)));
      return { kind: 'method-not-allowed', allow };
    }
    // HEAD is served by the GET route unless a route claims HEAD itself.
    const route = (node.methods![method] ?? node.methods!.GET)!;
    const params: Record<string, string> = Object.create(null);
    for (let i = 0; i < values.length; i++) {
      if (values[i]!.length > maxParamLength) {
        return badRequest(`path parameter :${route.params[i]} is longer than ${maxParamLength} characters`);
      }
      params[route.params[i]!] = values[i]!;
    }
    return { kind: 'found', route, params };
  }

  return Object.freeze({ routes: table, match });
}

/** The deepest-first search: a static child, then the param child, backtracking on a miss. */
function find(node: Node, segments: string[], i: number, values: string[], method: string): Node | undefined {
  if (i === segments.length) {
    if (node.methods === undefined) return undefined;
    if (node.methods[method] !== undefined) return node;
    return method === 'HEAD' && node.methods.GET !== undefined ? node : undefined;
  }
  const segment = segments[i]!;
  const next = node.statics.get(segment);
  if (next !== undefined) {
    const found = find(next, segments, i + 1, values, method);
    if (found !== undefined) return found;
  }
  if (node.param !== undefined && segment !== '') {
    values.push(segment);
    const found = find(node.param, segments, i + 1, values, method);
    if (found !== undefined) return found;
    values.pop();
  }
  return undefined;
}

/** Every node where a route ends that matches the path, whatever its methods. */
function collect(node: Node, segments: string[], i: number, out: Node[]): void {
  if (i === segments.length) {
    if (node.methods !== undefined) out.push(node);
    return;
  }
  const next = node.statics.get(segments[i]!);
  if (next !== undefined) collect(next, segments, i + 1, out);
  if (node.param !== undefined && segments[i] !== '') collect(node.param, segments, i + 1, out);
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

function badRequest(detail: string): Match {
  return { kind: 'bad-request', detail };
}
