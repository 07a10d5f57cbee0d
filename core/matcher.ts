import { RouteDefinitionError } from './errors.js';
import { NullObject } from './null-object.js';
import { paramNames, shapeOf } from './path.js';
import type { Match, Route, RouteTable } from './types.js';

/** Answers "which route serves this method and path?" for one compiled table. */
export interface Matcher {
  readonly routes: RouteTable;
  /** Whether this table's walk was generated as code for it (see `MatcherOptions.generate`), or is the general one. */
  readonly generated: boolean;
  /** Matches a still-encoded path (no query string) against the table. */
  match(method: string, path: string): Match;
}

export interface MatcherOptions {
  /** The longest decoded path parameter accepted; longer ones are a bad request. Default 1024. */
  readonly maxParamLength?: number;
  /**
   * Whether the walk may be generated as code for the table's own tree (default `true`);
   * `false` keeps the general walk, which answers the same. Tests compare the two.
   */
  readonly generate?: boolean;
}

/** One path segment position in the tree: static children first, then one param child. */
interface Node {
  /** `NO_STATICS` until the node gets a static child: most nodes (route ends, params) never do. */
  statics: Map<string, Node>;
  param: Node | undefined;
  /** Routes ending here by method; `undefined` where no route ends. */
  methods: Record<string, Route> | undefined;
  /** The `Allow` header for this path: its methods, HEAD with GET, and OPTIONS. */
  allow: string;
  /** The route per method in fixed slots: one monomorphic load beats a keyed lookup per request. */
  GET: Slot | undefined;
  HEAD: Slot | undefined;
  POST: Slot | undefined;
  PUT: Slot | undefined;
  PATCH: Slot | undefined;
  DELETE: Slot | undefined;
  OPTIONS: Slot | undefined;
  other: Map<string, Slot> | undefined;
  /** The static children as parallel lists when there are few: comparing beats hashing a fresh string. */
  keys: string[] | undefined;
  children: Node[] | undefined;
  /** Many static children, by a hash of their segment computed in place. */
  buckets: Map<number, Bucket> | undefined;
}

/** The static children of a wide node whose segments share a hash. */
interface Bucket {
  readonly keys: string[];
  readonly children: Node[];
}

// Up to this many static children are compared in place; more are looked up in the Map.
const FEW = 8;
// What a walk answers when the path needs the careful path after all (a dot segment).
const CAREFUL = { careful: true } as unknown as Slot & Match;

/** A cheap hash of `text[start, end)`, read in place: no substring, no string hashing. */
function spanHash(text: string, start: number, end: number): number {
  let h = end - start;
  for (let i = start; i < end; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
}

/**
 * Fills in the comparison lists once the tree is complete. Wide nodes (no `keys`) get their
 * buckets only for the general walk (`hashWide`): a generated walk has its own lookup.
 */
function seal(node: Node): void {
  if (node.methods !== undefined) node.allow = allowFor(Object.keys(node.methods));
  if (node.statics.size === 0) {
    node.keys = NO_KEYS;
    node.children = NO_CHILDREN;
  } else if (node.statics.size <= FEW) {
    node.keys = [...node.statics.keys()];
    node.children = [...node.statics.values()];
  }
  for (const child of node.statics.values()) seal(child);
  if (node.param !== undefined) seal(node.param);
}

/** Gives every wide node of a tree its static children by the hash of their segment, before the general walk reads them. */
function hashWide(node: Node): void {
  if (node.keys === undefined) {
    const buckets = new Map<number, Bucket>();
    for (const [key, child] of node.statics) {
      const h = spanHash(key, 0, key.length);
      let bucket = buckets.get(h);
      if (bucket === undefined) buckets.set(h, (bucket = { keys: [], children: [] }));
      bucket.keys.push(key);
      bucket.children.push(child);
    }
    node.buckets = buckets;
  }
  for (const child of node.statics.values()) hashWide(child);
  if (node.param !== undefined) hashWide(node.param);
}

type Found = Extract<Match, { kind: 'found' }>;

/** A route ending at a node, with its answer built once when it has no params. */
interface Slot {
  readonly route: Route;
  readonly found: Found | undefined;
  /** Builds this route's answer from the walked values; made on the route's first match. */
  answer: Builder | undefined;
}

/** Builds the answer for param list `which` of a group, from values passed as arguments. */
type Grouped = (which: number, route: Route, ...values: string[]) => Match;

type Builder = (route: Route, values: readonly string[], max: number) => Match;

// Builders by param list, shared by every table: one per list keeps call sites few and warm.
const BUILDERS = new Map<string, Builder>();
// Module-wide caches stop growing here: a process that compiles table after table of new names keeps its memory.
const CACHED = 4096;

/**
 * The code that checks each value's length and answers with a params object of `names`, each
 * value read by `value(i)`, filled by `fill` (the stores of `names` unless given); `N` (the
 * params class) must be in scope where it runs.
 */
function answerCode(
  names: readonly string[],
  value: (i: number) => string,
  tooLong: (i: number) => string,
  route: string,
  max: string,
  fill = storesCode(names, value),
): string {
  const checks = names.map((_, i) => `if (${value(i)}.length > ${max}) return ${tooLong(i)}; `).join('');
  return `${checks}const o = new N(); ${fill}return { kind: 'found', route: ${route}, params: o };`;
}

/** The code storing each value into `o` under its name, each store with a constant name. */
function storesCode(names: readonly string[], value: (i: number) => string): string {
  return names.map((name, i) => `o[${JSON.stringify(name)}] = ${value(i)}; `).join('');
}

/**
 * Whether generating code failed for a reason of the process, not a bug: code generation
 * disallowed (EvalError), or a tree too deep or code too long for the engine (RangeError).
 * Anything else is a mistake in the code written, and is thrown rather than hidden behind the
 * general walk.
 */
function unsupported(error: unknown): boolean {
  return error instanceof EvalError || error instanceof RangeError;
}

/** Where param `name`'s value is longer than `max`: a bad request naming the param. */
function tooLong(name: string, max: number): Match {
  return badRequest(`path parameter :${name} is longer than ${max} characters`);
}

/**
 * The code comparing `key` with the path from `base` (code naming a position) at `positions`,
 * every one unless given: a character at a time (every UTF-16 unit, as `charCodeAt` reads
 * them), or, past `INLINE_CHARACTERS`, one `startsWith` of the whole key.
 */
function keyChecks(key: string, base: string, positions: readonly number[] = Array.from({ length: key.length }, (_, i) => i)): string[] {
  if (positions.length > INLINE_CHARACTERS) return [`path.startsWith(${JSON.stringify(key)}, ${base})`];
  return positions.map((pos) => `path.charCodeAt(${base} + ${pos}) === ${key.charCodeAt(pos)}`);
}

/**
 * The answer builder for one list of param names, generated from it: its own code keeps each
 * property store monomorphic, where one shared loop over a thousand routes' names would go
 * megamorphic. Values longer than `max` make a bad request instead.
 */
function builderFor(names: readonly string[]): Builder {
  const key = names.join('/');
  let builder = BUILDERS.get(key);
  if (builder !== undefined) return builder;
  try {
    const body = answerCode(names, (i) => `v[${i}]`, (i) => `long(${JSON.stringify(names[i])}, max)`, 'route', 'max');
    builder = new Function('N', 'long', `return function answer(route, v, max) { ${body} };`)(NullObject, tooLong) as Builder;
  } catch (error) {
    if (!unsupported(error)) throw error;
    // Where code generation is disallowed (--disallow-code-generation-from-strings), a loop does the same.
    builder = (route, values, max) => {
      for (let i = 0; i < names.length; i++) if (values[i]!.length > max) return tooLong(names[i]!, max);
      const params = new NullObject() as Record<string, string>;
      for (let i = 0; i < names.length; i++) params[names[i]!] = values[i]!;
      return { kind: 'found', route, params };
    };
  }
  if (BUILDERS.size < CACHED) BUILDERS.set(key, builder);
  return builder;
}

const SLOTTED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const NOT_FOUND: Match = Object.freeze({ kind: 'not-found' });
const NO_PARAMS: Record<string, string> = Object.freeze(new NullObject());
// Control characters in a decoded segment are never part of a legitimate resource path.
const CONTROL = /[\u0000-\u001f\u007f]/;
// Shared by every node without static children, which is most of them: a Map each was a large part of what a build allocates.
// Never added to: `insert` gives a node its own Map before its first static child.
const NO_STATICS = new Map<string, Node>();
const NO_KEYS = Object.freeze([]) as unknown as string[];
const NO_CHILDREN = Object.freeze([]) as unknown as Node[];
function newNode(): Node {
  return {
    statics: NO_STATICS,
    param: undefined,
    methods: undefined,
    allow: '',
    GET: undefined,
    HEAD: undefined,
    POST: undefined,
    PUT: undefined,
    PATCH: undefined,
    DELETE: undefined,
    OPTIONS: undefined,
    other: undefined,
    keys: undefined,
    children: undefined,
    buckets: undefined,
  };
}

// Allow headers by the methods they are made of: a thousand resources have a handful of distinct ones.
const ALLOWS = new Map<string, string>();

/** `allowOf` for the methods of one node, remembered. */
function allowFor(methods: readonly string[]): string {
  const key = methods.join(' ');
  let allow = ALLOWS.get(key);
  if (allow === undefined) {
    allow = allowOf(methods);
    if (ALLOWS.size < CACHED) ALLOWS.set(key, allow);
  }
  return allow;
}

function allowOf(methods: Iterable<string>): string {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  set.add('OPTIONS');
  const known = METHOD_ORDER.filter((m) => set.has(m));
  return [...known, ...[...set].filter((m) => !METHOD_ORDER.includes(m)).sort()].join(', ');
}

// Far past any real route, and well inside what the tree's recursive walks can take.
const MAX_SEGMENTS = 256;

// A method name is a token (RFC 9110): no spaces, so method lists joined with one stay unambiguous.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

// Frozen tables of frozen routes that passed `checkTable` (as `routes()` returns them): `compile()` does not check their routes again.
const CHECKED = new WeakSet<RouteTable>();

/** Throws unless the route's method is a method name, its path a path, and its params the ones the path names. */
function checkRoute(route: Route): void {
  if (typeof route.method !== 'string' || !TOKEN.test(route.method)) {
    throw new RouteDefinitionError(`route ${route.name}: method must be an HTTP method name such as "GET", got ${JSON.stringify(route.method)}`, route);
  }
  if (typeof route.path !== 'string' || !route.path.startsWith('/')) {
    throw new RouteDefinitionError(`route ${route.name}: path must start with "/", got ${JSON.stringify(route.path)}`, route);
  }
  let segments = 0;
  for (let i = 0; i < route.path.length; i++) if (route.path.charCodeAt(i) === 47) segments++;
  if (segments > MAX_SEGMENTS) {
    throw new RouteDefinitionError(`route ${route.name}: path has ${segments} segments; at most ${MAX_SEGMENTS} are allowed`, route);
  }
  if (!paramsMatch(route.path, route.params)) {
    const names = paramNames(route.path);
    throw new RouteDefinitionError(
      `route ${route.name}: params ${JSON.stringify(route.params)} do not match the path ${route.path}, which names ${JSON.stringify(names)}`,
      route,
    );
  }
}

/** Whether `params` lists exactly the param names of `path`, in order, compared in place (no split). */
function paramsMatch(path: string, params: readonly string[]): boolean {
  if (!Array.isArray(params)) return false;
  let count = 0;
  for (let start = 1; start <= path.length; ) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    if (path.charCodeAt(start) === 58 /* : */) {
      const name = params[count++];
      if (typeof name !== 'string' || name.length !== end - start - 1 || !path.startsWith(name, start + 1)) return false;
    }
    start = end + 1;
  }
  return count === params.length;
}

function twice(taken: Route, route: Route): RouteDefinitionError {
  return new RouteDefinitionError(
    `${route.method} ${route.path} is defined twice: by ${taken.name} and by ${route.name}; remove one or give it another path`,
    route,
  );
}

function insert(root: Node, route: Route, checked: boolean): Node {
  if (!checked) checkRoute(route);
  let node = root;
  const path = route.path;
  // Segment by segment in place, a trailing empty one included, as `path.slice(1).split('/')` would give them.
  for (let start = 1; path !== '/' && start <= path.length; ) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    if (path.charCodeAt(start) === 58 /* : */) {
      node = node.param ??= newNode();
    } else {
      const segment = path.slice(start, end);
      if (node.statics === NO_STATICS) node.statics = new Map();
      let next = node.statics.get(segment);
      if (next === undefined) node.statics.set(segment, (next = newNode()));
      node = next;
    }
    start = end + 1;
  }
  const methods = (node.methods ??= new NullObject() as Record<string, Route>);
  const taken = methods[route.method];
  if (taken !== undefined) throw twice(taken, route);
  methods[route.method] = route;
  const slot: Slot = {
    route,
    found: route.params.length === 0 ? Object.freeze({ kind: 'found', route, params: NO_PARAMS }) : undefined,
    answer: undefined,
  };
  if (SLOTTED.has(route.method)) node[route.method as 'GET'] = slot;
  else (node.other ??= new Map()).set(route.method, slot);
  return node;
}

/** The slotted methods a node serves, in `METHOD_ORDER`, HEAD by its GET route where it has no HEAD route. */
function served(node: Node): Array<[method: string, slot: Slot]> {
  const out: Array<[string, Slot]> = [];
  for (const method of METHOD_ORDER) {
    const slot = slotFor(node, method);
    if (slot !== undefined) out.push([method, slot]);
  }
  return out;
}

/** The route a node serves for a method: its own, or its GET route for HEAD. */
function slotFor(node: Node, method: string): Slot | undefined {
  switch (method) {
    case 'GET':
      return node.GET;
    case 'HEAD':
      return node.HEAD ?? node.GET;
    case 'POST':
      return node.POST;
    case 'PUT':
      return node.PUT;
    case 'DELETE':
      return node.DELETE;
    case 'PATCH':
      return node.PATCH;
    case 'OPTIONS':
      return node.OPTIONS;
    default:
      return node.other?.get(method);
  }
}

/**
 * Checks a table as `compile()` does (paths, params, no two routes alike) without building a
 * matcher: two routes are alike when their methods and path shapes (param names erased) are,
 * which is when `compile()` would put them at the same node.
 */
export function checkTable(table: RouteTable, valid?: readonly boolean[]): void {
  const seen = new Map<string, Route>();
  let frozen = Object.isFrozen(table);
  for (let i = 0; i < table.length; i++) {
    const route = table[i]!;
    if (valid?.[i] !== true) checkRoute(route);
    const key = `${route.method} ${shapeOf(route.path)}`;
    const taken = seen.get(key);
    if (taken !== undefined) throw twice(taken, route);
    seen.set(key, route);
    frozen &&= Object.isFrozen(route) && Object.isFrozen(route.params);
  }
  // Nothing in a frozen table of frozen routes can change after this check, so compiling it need not repeat it.
  if (frozen) CHECKED.add(table);
}

/**
 * Compiles a route table into a matcher. Paths are grouped first and methods second, so
 * 405 with `Allow`, OPTIONS and HEAD-as-GET are each one lookup; static segments beat params.
 *
 * Its speed comes from three things. The walk is generated as code for the table's own tree
 * (`generateWalk`), answers included, or else walked by a loop that does the same; either way a
 * path is read raw, without splitting, decoding or recursion, and a node with many static
 * children finds the segment's child in place (a generated decision tree, or a hash). A path
 * with an escape, or a miss with a dot segment, takes the careful path that decodes and checks
 * each segment. Routes without params answer with a result built at compile time; params land
 * in objects of one class with no Object.prototype in its chain. (Control characters reach the
 * matcher only percent-encoded from an HTTP parser, and encoded paths take the careful path,
 * which checks them.)
 */
export function compile(table: RouteTable, options: MatcherOptions = {}): Matcher {
  const maxParamLength = options.maxParamLength ?? 1024;
  // Generated code holds it as a literal, so only a whole number may be one.
  if (!Number.isSafeInteger(maxParamLength) || maxParamLength < 1) {
    throw new TypeError(`maxParamLength must be a whole number of at least 1, got ${String(maxParamLength)}`);
  }
  const root = newNode();
  const checked = CHECKED.has(table);
  for (const route of table) insert(root, route, checked);
  seal(root);
  // Param values and backtracking points of the walk under way; match() never yields, so one set serves all.
  const values: string[] = [];
  const backNodes: Node[] = [];
  const backStarts: number[] = [];
  const backEnds: number[] = [];
  const backDepths: number[] = [];
  /** Walks a plain path: static child first; the param child, then the latest branch point, on a miss. */
  function interpret(path: string, method: string): Slot | undefined {
    let node = root;
    let start = 1;
    let depth = 0;
    let branches = 0;
    for (;;) {
      if (start > path.length) {
        const hit = slotFor(node, method);
        if (hit !== undefined) return hit;
      } else {
        let slash = path.indexOf('/', start);
        if (slash === -1) slash = path.length;
        // `.` and `..` segments must be refused, which the careful path does.
        if (path.charCodeAt(start) === 46 && (slash - start === 1 || (slash - start === 2 && path.charCodeAt(start + 1) === 46))) return CAREFUL;
        const param = slash > start ? node.param : undefined;
        let next: Node | undefined;
        let segment: string | undefined;
        const keys = node.keys;
        if (keys === undefined) {
          // A wide node: hash the segment in place, then compare within its bucket, so no fresh string is hashed.
          const bucket = node.buckets!.get(spanHash(path, start, slash));
          if (bucket !== undefined) {
            const length = slash - start;
            for (let i = 0; i < bucket.keys.length; i++) {
              const key = bucket.keys[i]!;
              if (key.length === length && path.startsWith(key, start)) {
                next = bucket.children[i];
                break;
              }
            }
          }
        } else {
          segment = path.slice(start, slash);
          for (let i = 0; i < keys.length; i++) {
            if (keys[i] === segment) {
              next = node.children![i];
              break;
            }
          }
        }
        if (next !== undefined) {
          if (param !== undefined) {
            backNodes[branches] = param;
            backStarts[branches] = start;
            backEnds[branches] = slash;
            backDepths[branches++] = depth;
          }
          node = next;
          start = slash + 1;
          continue;
        }
        if (param !== undefined) {
          values[depth++] = segment ?? path.slice(start, slash);
          node = param;
          start = slash + 1;
          continue;
        }
      }
      if (branches === 0) return undefined;
      const b = --branches;
      node = backNodes[b]!;
      depth = backDepths[b]!;
      values[depth++] = path.slice(backStarts[b]!, backEnds[b]!);
      start = backEnds[b]! + 1;
    }
  }

  function answer(slot: Slot, taken: readonly string[]): Match {
    return slot.found ?? (slot.answer ??= builderFor(slot.route.params))(slot.route, taken, maxParamLength);
  }

  /** The general walk's answer: the route's, or `CAREFUL`, or `undefined` for no route. */
  function interpretAnswer(path: string, method: string): Match | undefined {
    const slot = interpret(path, method);
    if (slot === undefined) return undefined;
    return slot === CAREFUL ? CAREFUL : answer(slot, values);
  }

  // Most tables get a walk generated for their own tree; the rest, and processes that disallow code generation, the general one.
  const attempt = { fewShared: false };
  let generatedWalk = options.generate === false ? undefined : generateWalk(root, maxParamLength, answer, INLINE_KEYS, attempt);
  // Where small nodes took shapes a wide node needed, sharing only below wide nodes (as it once was) may still fit.
  if (generatedWalk === undefined && attempt.fewShared) generatedWalk = generateWalk(root, maxParamLength, answer, FEW, attempt);
  if (generatedWalk === undefined) hashWide(root);
  const walk = generatedWalk ?? interpretAnswer;

  /** The answer for the path `/`, whose routes have no params. */
  function rootAnswer(method: string): Match | undefined {
    const slot = slotFor(root, method);
    return slot === undefined ? undefined : answer(slot, values);
  }

  function match(method: string, path: string): Match {
    // Only a path names a route; adapters give nothing else, direct callers might.
    if (path.charCodeAt(0) !== 47) return NOT_FOUND;
    // An escape means segments must be decoded before they are compared: the careful path. A generated walk finds escapes as it reads.
    if (generatedWalk === undefined && path.indexOf('%') !== -1) return carefully(method, path);
    const end = path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
    const trimmed = end === path.length ? path : path.slice(0, end);
    const hit = end === 1 ? rootAnswer(method) : walk(trimmed, method);
    if (hit === CAREFUL) return carefully(method, path);
    if (hit !== undefined) return hit;
    // A miss is not the last word while a dot segment further on must be refused, or an escape may decode to a route.
    if (path.indexOf('/.') !== -1 || path.indexOf('%') !== -1) return carefully(method, path);
    return missed(end === 1 ? [] : trimmed.slice(1).split('/'));
  }

  /** The slow path: every segment decoded once and checked, then the same search. */
  function carefully(method: string, path: string): Match {
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
    const taken: string[] = [];
    const node = find(root, segments, 0, taken, method);
    return node === undefined ? missed(segments) : answer(slotFor(node, method)!, taken);
  }

  /** No route for this method: 405 with what every route on the path allows, or 404. */
  function missed(segments: string[]): Match {
    // Static and param branches may both match the path: Allow names what every one of them serves.
    const known: Node[] = [];
    collect(root, segments, 0, known);
    if (known.length === 0) return NOT_FOUND;
    const allow = known.length === 1 ? known[0]!.allow : allowOf(known.flatMap((n) => Object.keys(n.methods!)));
    return { kind: 'method-not-allowed', allow };
  }

  return Object.freeze({ routes: table, generated: generatedWalk !== undefined, match });
}

// Generated code stays hot only while it is small: limits on the nodes written out in one
// function and on the distinct subtree shapes behind wide nodes; past them the general walk serves.
const GENERATED_NODES = 64;
const GENERATED_SHAPES = 16;
// More static children than this, in the top function, are looked up and share shape functions: from three up that measured faster than comparing each in place.
const INLINE_KEYS = 2;
// Param lists per group builder: V8's time to optimize a builder grows with the square of its cases, and 128 keep it to tens of milliseconds.
const GROUP = 128;
// Calls that make sure V8 has given even a small builder its feedback vector, which it does after about eight.
const FEEDBACK_CALLS = 16;

/** Param lists of one length that share one generated builder, which is written on first use. */
interface Group {
  readonly lists: Array<readonly string[]>;
  build: Grouped | undefined;
}

/** What a shape function reads per child: prebuilt answers, routes with their builders' groups and places, and method maps of one subtree. */
type Data = Array<Match | Group | number | Route | Map<string, Slot>>;

/** The index of the wide node's static child whose segment starts at `start`, or -1; `n` is the path's end. */
type WideLookup = (path: string, start: number, n: number) => number;

/** A generated walk: the route's answer, `CAREFUL` for the careful path, or `undefined` for no route. */
type Walk = (path: string, method: string) => Match | undefined;

/**
 * The walk of a tree as code, answers included. A node's static segments are compared char by
 * char against constants in place, without finding the segment's end first; a param's value is
 * cut into a local; methods are compared against constants, and each route's answer is built
 * where the walk ends (its params object stored with constant names, so every store is
 * monomorphic). Backtracking is the nesting of the code itself: a static branch that finds
 * nothing falls through to the param branch. Below a node with more than two static children
 * outside such subtrees (the root of a table of three resources or more) each child is a
 * subtree, and subtrees of the same shape (every resource's
 * seven routes) share one generated function that reads its routes from an array and builds
 * answers through builders each shared by up to 128 param lists: a few functions, kept hot, for
 * a thousand resources. It answers exactly what the general walk answers; `undefined` when the
 * tree is too large or irregular for it, or code cannot be generated here. `general` answers
 * routes of methods outside the fixed slots, from the values walked. In the top function, nodes
 * of more than `sharePast` static children share subtree code (those of more than `FEW` always
 * do); `attempt.fewShared` tells whether a node of `FEW` or fewer tried to.
 */
function generateWalk(
  root: Node,
  max: number,
  general: (slot: Slot, taken: readonly string[]) => Match,
  sharePast: number,
  attempt: { fewShared: boolean },
): Walk | undefined {
  // Everything the generated code refers to, passed in as one array: routes, answers, lookups, shape functions, per-child data.
  const refs: unknown[] = [];
  const ref = (value: unknown): string => `R[${refs.push(value) - 1}]`;
  const long = ref(tooLong);
  // The generated function of each shape met below a wide node.
  const shapes = new Map<number, unknown>();

  // Shapes by their description, numbered: a node's description names its children's numbers, so each stays short.
  const shapeIds = new Map<string, number>();
  /** A subtree's structure without its routes, as a number: equal numbers can share code. */
  const shapeNumber = (node: Node, depth: number): number | undefined => {
    if (node.keys === undefined) return undefined;
    let description = `${depth}`;
    // The methods `served` lists, named without building its list: this runs for every node below a wide one.
    for (const method of METHOD_ORDER) if (slotFor(node, method) !== undefined) description += ` ${method}`;
    if (node.other !== undefined) description += ' *';
    for (let i = 0; i < node.keys.length; i++) {
      const inner = shapeNumber(node.children![i]!, depth);
      if (inner === undefined) return undefined;
      description += ` ${node.keys[i]!.length}:${node.keys[i]}=${inner}`;
    }
    if (node.param !== undefined) {
      const inner = shapeNumber(node.param, depth + 1);
      if (inner === undefined) return undefined;
      description += ` :${inner}`;
    }
    let id = shapeIds.get(description);
    if (id === undefined) shapeIds.set(description, (id = shapeIds.size));
    return id;
  };

  /** A subtree's data in the order the code for its shape reads it: prebuilt answers, each route with params as its group, place and route, and method maps. */
  const dataOf = (node: Node, out: Data): Data => {
    for (const method of METHOD_ORDER) {
      const slot = slotFor(node, method);
      if (slot === undefined) continue;
      if (slot.found !== undefined) {
        out.push(slot.found);
      } else {
        const at = place(slot.route.params);
        out.push(at.group, at.which, slot.route);
      }
    }
    if (node.other !== undefined) out.push(node.other);
    for (const child of node.children!) dataOf(child, out);
    if (node.param !== undefined) dataOf(node.param, out);
    return out;
  };

  /** Where a function's code finds its constants: references in the top function, per-child data in a shape function. */
  interface Scope {
    /** The code naming the next constant. */
    constant(value: Data[number]): string;
    /** Whether answers are built in place (the top function, whose routes are known) or through builders. */
    inline: boolean;
    /** Whether a wide node may be written here: only in the top function. */
    wide: boolean;
  }

  // Param lists below wide nodes share builders, each list a `switch` case with stores of its own: a few builders warm up where a thousand did not.
  const places = new Map<string, { readonly group: Group; readonly which: number }>();
  const filling = new Map<number, Group>();
  /** The group of a param list and its place in it, given on first sight. */
  const place = (names: readonly string[]): { readonly group: Group; readonly which: number } => {
    const key = names.join('/');
    let at = places.get(key);
    if (at === undefined) {
      let group = filling.get(names.length);
      if (group === undefined || group.lists.length === GROUP) filling.set(names.length, (group = { lists: [], build: undefined }));
      places.set(key, (at = { group, which: group.lists.push(names) - 1 }));
    }
    return at;
  };
  /** A group's builder, written on its first match (of `route`). */
  const grouped = (group: Group, route: Route): Grouped => {
    if (group.build === undefined) {
      const value = (i: number): string => `v${i}`;
      const first = group.lists[0]!;
      // The last list is the default case, so every path through the switch stores some list's names.
      const last = group.lists.length - 1;
      const cases = group.lists.map((names, k) => `${k === last ? 'default' : `case ${k}`}: ${storesCode(names, value)}break; `).join('');
      const body = answerCode(first, value, (i) => `T(route.params[${i}], ${max})`, 'route', String(max), `switch (which) { ${cases}} `);
      const args = first.map((_, i) => `, v${i}`).join('');
      group.build = new Function('N', 'T', `return function answer(which, route${args}) { ${body} };`)(NullObject, tooLong) as Grouped;
      // Every case runs before V8 optimizes the builder, or a case first met later would deoptimize it.
      const empty = first.map(() => '');
      const passes = 2 + Math.ceil(FEEDBACK_CALLS / group.lists.length);
      for (let pass = 0; pass < passes; pass++) for (let k = 0; k < group.lists.length; k++) group.build(k, route, ...empty);
    }
    return group.build;
  };

  /** The code answering with `slot`, its params bound in `v0…`. */
  const answerOf = (slot: Slot, scope: Scope): string => {
    if (slot.found !== undefined) return `return ${scope.constant(slot.found)};`;
    if (!scope.inline) {
      // The group, the place in it and the route sit side by side in the child's data: nothing else of the resource is read.
      const at = place(slot.route.params);
      const args = slot.route.params.map((_, i) => `, v${i}`).join('');
      const [g, w, r] = [scope.constant(at.group), scope.constant(at.which), scope.constant(slot.route)];
      return `{ const g = ${g}, r = ${r}; return (g.build ?? A(g, r))(${w}, r${args}); }`;
    }
    const names = slot.route.params;
    return `{ ${answerCode(names, (i) => `v${i}`, (i) => `${long}(${JSON.stringify(names[i])}, ${max})`, ref(slot.route), String(max))} }`;
  };

  /** The code comparing segment `k` (from `p{k}`) with a static key, its end included. */
  const equals = (key: string, k: number): string => {
    const end = `(p${k} + ${key.length} === n || path.charCodeAt(p${k} + ${key.length}) === 47)`;
    return [...keyChecks(key, `p${k}`), end].join(' && ');
  };

  /** The code finding the end of segment `k` into `e{k}`; an escape in it sends the path to the careful path. */
  const segmentEnd = (k: number): string =>
    `let e${k} = p${k}; while (e${k} < n) { const c = path.charCodeAt(e${k}); if (c === 47) break; if (c === 37) return C; e${k}++; } `;
  // `.` and `..` segments must be refused, which the careful path does.
  const dot = (k: number): string =>
    `if (path.charCodeAt(p${k}) === 46 && (e${k} - p${k} === 1 || (e${k} - p${k} === 2 && path.charCodeAt(p${k} + 1) === 46))) return C; `;

  /** The code comparing a node's static children in place, each followed by its subtree's code. */
  const inlineStatics = (node: Node, k: number, depth: number, budget: { nodes: number }, scope: Scope): string | undefined => {
    let code = '';
    for (let i = 0; i < node.keys!.length; i++) {
      const key = node.keys![i]!;
      const inner = emit(node.children![i]!, k + 1, depth, budget, scope);
      if (inner === undefined) return undefined;
      code += `if (${equals(key, k)}) { const p${k + 1} = p${k} + ${key.length + 1}; ${inner} } `;
    }
    return code;
  };

  /**
   * The code looking a node's static child up and calling the shape function of its subtree
   * with its data; `undefined` when a child's subtree has no shape, its code cannot be written,
   * or its new shapes do not fit the limit, and then no shape it wrote is kept.
   */
  const sharedStatics = (node: Node, k: number, depth: number): string | undefined => {
    const children = [...node.statics.values()];
    const numbers: number[] = [];
    const fresh = new Set<number>();
    for (const child of children) {
      const shape = shapeNumber(child, depth);
      if (shape === undefined) return undefined;
      numbers.push(shape);
      if (!shapes.has(shape)) fresh.add(shape);
    }
    // Shapes are written only when all of them fit: a node that cannot share leaves the limit to the nodes after it.
    if (shapes.size + fresh.size > GENERATED_SHAPES) return undefined;
    const above = Array.from({ length: depth }, (_, i) => `, v${i}`).join('');
    const functions: unknown[] = [];
    for (let i = 0; i < children.length; i++) {
      let fn = shapes.get(numbers[i]!);
      if (fn === undefined) {
        let next = 0;
        const inner = emit(children[i]!, k + 1, depth, { nodes: 0 }, { constant: () => `D[d + ${next++}]`, inline: false, wide: false });
        if (inner === undefined) {
          for (const shape of fresh) shapes.delete(shape);
          return undefined;
        }
        fn = new Function('C', 'A', 'G', `return function shape(path, method, p${k + 1}, n, D, d${above}) { ${inner} return undefined; };`)(CAREFUL, grouped, general);
        shapes.set(numbers[i]!, fn);
      }
      functions.push(fn);
    }
    // Every child's data in one array, each child's from its offset: one array to read, not one per child.
    const data: Data = [];
    const offsets = children.map((child) => {
      const offset = data.length;
      dataOf(child, data);
      return offset;
    });
    // The params bound so far go along as arguments; one shape (the usual case) is called by name.
    const keys = [...node.statics.keys()];
    const call = new Set(functions).size === 1 ? ref(functions[0]) : `${ref(functions)}[i]`;
    return (
      `{ const i = ${ref(wideLookup(node))}(path, p${k}, n); ` +
      `if (i !== -1) { const h = ${call}(path, method, p${k} + ${ref(keys.map((key) => key.length + 1))}[i], n, ${ref(data)}, ${ref(Int32Array.from(offsets))}[i]${above}); if (h !== undefined) return h; } } `
    );
  };

  /** The code for a node whose segment index is `k`, with `depth` params bound above it. */
  const emit = (node: Node, k: number, depth: number, budget: { nodes: number }, scope: Scope): string | undefined => {
    if (++budget.nodes > GENERATED_NODES) return undefined;
    let here = '';
    for (const [method, slot] of served(node)) here += `if (method === ${JSON.stringify(method)}) ${answerOf(slot, scope)} `;
    if (node.other !== undefined) {
      const taken = Array.from({ length: depth }, (_, i) => `v${i}`).join(', ');
      here += `{ const s = ${scope.constant(node.other)}.get(method); if (s !== undefined) return G(s, [${taken}]); } `;
    }
    // Many static children, in the top function, share shape functions (the code of a few is inlined); where those cannot be written, the children are compared in place after all.
    const share = scope.wide && (node.keys === undefined || node.keys.length > sharePast);
    if (share && node.keys !== undefined) attempt.fewShared = true;
    const shared = share ? sharedStatics(node, k, depth) : undefined;
    let below = shared ?? (node.keys === undefined ? undefined : inlineStatics(node, k, depth, budget, scope));
    if (below === undefined) return undefined;
    if (node.param !== undefined) {
      const inner = emit(node.param, k + 1, depth + 1, budget, scope);
      if (inner === undefined) return undefined;
      below += `{ ${segmentEnd(k)}if (e${k} > p${k}) { ${dot(k)}const v${depth} = path.slice(p${k}, e${k}); const p${k + 1} = e${k} + 1; ${inner} } } `;
    }
    if (below === '') return here === '' ? '' : `if (p${k} > n) { ${here}}`;
    if (here === '') return `if (p${k} <= n) { ${below}}`;
    return `if (p${k} > n) { ${here}} else { ${below}}`;
  };

  // Segments are compared raw, so a static segment that is a dot segment or holds an escape is left to the general walk.
  const plain = (node: Node): boolean => {
    for (const key of node.statics.keys()) if (key === '.' || key === '..' || key.includes('%')) return false;
    for (const child of node.statics.values()) if (!plain(child)) return false;
    return node.param === undefined || plain(node.param);
  };
  try {
    // Inside the try: a tree deep enough to exhaust the stack gets the general walk, as any tree generation fails on.
    if (!plain(root)) return undefined;
    const top: Scope = { constant: (value) => ref(value), inline: true, wide: true };
    const body = emit(root, 0, 0, { nodes: 0 }, top);
    // What only writing the code needed: the builders' closures keep this function's scope alive as long as the matcher.
    for (const map of [places, filling, shapeIds, shapes]) map.clear();
    if (body === undefined) return undefined;
    return new Function('R', 'C', 'N', 'G', `return function walk(path, method) { const n = path.length; const p0 = 1; ${body} return undefined; };`)(
      refs,
      CAREFUL,
      NullObject,
      general,
    ) as Walk;
  } catch (error) {
    if (!unsupported(error)) throw error;
    // Code generation is disallowed here (--disallow-code-generation-from-strings), or the tree is too deep for it: the general walk serves.
    return undefined;
  }
}

// Static keys up to this long are compared a character at a time in generated code, which measured faster than one `startsWith` call.
const INLINE_CHARACTERS = 32;

// Generated decision code is cut into functions of about this many characters, which V8 optimizes.
const SWITCH_CHUNK = 3000;

/**
 * The place of a wide node's static child whose segment starts at `start`, or -1. Up to 48
 * keys, as generated code: a switch on the character that tells most of the keys apart, then
 * on the next, down to one key, whose other characters and end are then compared, without
 * scanning the segment for its end first. Past that, and for key sets a tree serves badly (very
 * many characters, long chains of keys that prefix each other), a hash table whose keys are
 * compared as packed numbers: a tree over many keys is code too large for the processor's
 * caches once requests spread over them, and its branches unpredictable (see
 * docs/performance.md).
 */
function wideLookup(node: Node): WideLookup {
  const keys = [...node.statics.keys()];
  let characters = 0;
  for (const key of keys) characters += key.length;
  if (keys.length > TREE_KEYS || characters > WIDE_CHARACTERS) return wideHash(keys);
  const parts: unknown[] = [];
  // One stamp per counting pass: a character was seen in this pass when its entry holds the current stamp.
  const stamps = new Int32Array(65_536);
  let stamp = 0;
  // The segment is not scanned first: each key's end is checked where the key is known.
  const ends = (length: number): string => `(start + ${length} === n || path.charCodeAt(start + ${length}) === 47)`;
  const leaf = (i: number, seen: readonly number[]): string => {
    const key = keys[i]!;
    const unseen: number[] = [];
    for (let pos = 0; pos < key.length; pos++) if (!seen.includes(pos)) unseen.push(pos);
    const checks = keyChecks(key, 'start', unseen);
    checks.push(ends(key.length));
    return `return ${checks.join(' && ')} ? ${i} : -1;`;
  };
  const decide = (group: readonly number[], seen: readonly number[], chain: number): string => {
    if (group.length === 1) return leaf(group[0]!, seen);
    // Only places every key in the group has are read to choose: past its end a segment reads `/` or nothing, which no key holds.
    let shortest = Infinity;
    for (const i of group) shortest = Math.min(shortest, keys[i]!.length);
    // Distinct characters per place are counted with stamps, and only the place chosen is grouped: grouping by every place allocated a Map and lists for each.
    let best = -1;
    let most = 0;
    for (let pos = 0; pos < shortest; pos++) {
      if (seen.includes(pos)) continue;
      stamp++;
      let distinct = 0;
      for (const i of group) {
        const c = keys[i]!.charCodeAt(pos);
        if (stamps[c] !== stamp) {
          stamps[c] = stamp;
          distinct++;
        }
      }
      if (distinct > most) [best, most] = [pos, distinct];
    }
    let code: string;
    if (most > 1) {
      code = `switch (path.charCodeAt(start + ${best})) { `;
      for (const [c, sub] of groupBy(group, (i) => keys[i]!.charCodeAt(best))) code += `case ${c}: { ${decide(sub, [...seen, best], chain)} } `;
      code += 'default: return -1; }';
    } else {
      // Every key agrees up to the shortest one's end, so the shortest is a prefix of the rest: its end decides.
      // A long chain of such keys would be tried one by one; the hash serves it instead.
      if (chain >= PREFIX_CHAIN) throw IRREGULAR;
      const short = group.find((i) => keys[i]!.length === shortest)!;
      code = `if (${ends(shortest)}) { ${leaf(short, seen)} } ${decide(group.filter((i) => i !== short), seen, chain + 1)}`;
    }
    if (code.length < SWITCH_CHUNK) return code;
    // A part may call parts of its own, so every part sees them all.
    const part = new Function('P', `return function part(path, start, n) { ${code} };`)(parts);
    return `return P[${parts.push(part) - 1}](path, start, n);`;
  };
  try {
    const code = decide(keys.map((_, i) => i), [], 0);
    return new Function('P', `return function pick(path, start, n) { ${code} };`)(parts) as WideLookup;
  } catch (error) {
    if (error === IRREGULAR) return wideHash(keys);
    throw error;
  }
}

// More keys than this are hashed: with packed keys the hash measured faster than the tree from 64 keys up, and slower at 30 on hot traffic.
const TREE_KEYS = 48;
// Keys whose characters add up to more than this are hashed: a decision tree over them would be slow to build and large.
const WIDE_CHARACTERS = 65_536;
// Keys that are prefixes of each other, nested deeper than this, are hashed too.
const PREFIX_CHAIN = 8;
const IRREGULAR = new Error('keys too irregular for a decision tree');

/**
 * The lookup by hash: the segment hashed (FNV-1a) and packed as it is read to its end, then an
 * open-addressed table of key indexes in an `Int32Array`, probed until a key equal to the
 * segment, or an empty entry. Four entries per key keep probes short (`perKey`, which tests
 * lower to make every probe pass many keys). Exported for tests.
 */
export function wideHash(keys: readonly string[], perKey = 4): WideLookup {
  let size = 2;
  while (size < keys.length * perKey || size <= keys.length) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  keys.forEach((key, i) => {
    let at = fnv(key, 0, key.length) & mask;
    while (table[at] !== -1) at = (at + 1) & mask;
    table[at] = i;
  });
  const lengths = Int32Array.from(keys, (key) => key.length);
  // Each key packed exactly, seven bits a character and four to a word: four words and the length in `packed` (-1 when it cannot be), more in `rest`.
  const packed = new Int32Array(keys.length * 5);
  const restAt = new Int32Array(keys.length);
  const restWords: number[] = [];
  keys.forEach((key, i) => {
    const at = 5 * i;
    packed[at + 4] = -1;
    restAt[i] = restWords.length;
    if (key.length > PACKED) return;
    for (let j = 0; j < key.length; j++) if (key.charCodeAt(j) > 127) return;
    for (let j = 0; j < key.length; j++) {
      const c = key.charCodeAt(j);
      if (j < 16) packed[at + (j >> 2)] = (packed[at + (j >> 2)]! << 7) | c;
      else if ((j & 3) === 0) restWords.push(c);
      else restWords[restWords.length - 1] = (restWords[restWords.length - 1]! << 7) | c;
    }
    packed[at + 4] = key.length;
  });
  const rest = Int32Array.from(restWords);
  /** A segment of 17 to PACKED ASCII characters: its fourth word and the words past it packed again from the path, then compared. */
  const longer = (path: string, start: number, length: number, h: number, w0: number, w1: number, w2: number): number => {
    let w3 = 0;
    for (let k = 12; k < 16; k++) w3 = (w3 << 7) | path.charCodeAt(start + k);
    for (let k = 16; k < length; k++) {
      const r = (k >> 2) - 4;
      SCRATCH[r] = ((k & 3) === 0 ? 0 : SCRATCH[r]! << 7) | path.charCodeAt(start + k);
    }
    next: for (let at = h & mask; ; at = (at + 1) & mask) {
      const i = table[at]!;
      if (i === -1) return -1;
      const b = 5 * i;
      if (packed[b + 4] !== length || packed[b] !== w0 || packed[b + 1] !== w1 || packed[b + 2] !== w2 || packed[b + 3] !== w3) continue;
      for (let r = 0, from = restAt[i]!, words = ((length + 3) >> 2) - 4; r < words; r++) if (rest[from + r] !== SCRATCH[r]) continue next;
      return i;
    }
  };
  /** A segment that does not pack (longer than PACKED, or not ASCII), against the keys that do not either. */
  const unpacked = (path: string, start: number, length: number, h: number): number => {
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const i = table[at]!;
      if (i === -1) return -1;
      if (lengths[i] === length && path.startsWith(keys[i]!, start)) return i;
    }
  };
  // The lookup itself stays small enough for V8 to inline it into the walk; longer segments go through the functions above.
  return (path, start, n) => {
    let h = FNV_BASIS;
    let end = start;
    // The segment packed as the keys are, while it is scanned: comparing it with a key is then five numbers, not a string.
    let w0 = 0;
    let w1 = 0;
    let w2 = 0;
    let w3 = 0;
    let high = 0;
    for (; end < n; end++) {
      const c = path.charCodeAt(end);
      if (c === 47) break;
      h = Math.imul(h ^ c, FNV_PRIME);
      high |= c;
      const k = end - start;
      if (k < 4) w0 = (w0 << 7) | c;
      else if (k < 8) w1 = (w1 << 7) | c;
      else if (k < 12) w2 = (w2 << 7) | c;
      else w3 = (w3 << 7) | c;
    }
    const length = end - start;
    if (high > 127 || length > PACKED) return unpacked(path, start, length, h);
    if (length > 16) return longer(path, start, length, h, w0, w1, w2);
    // Only a packed key can equal a segment that packs: the others are longer or not ASCII.
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const i = table[at]!;
      if (i === -1) return -1;
      const b = 5 * i;
      if (packed[b + 4] === length && packed[b] === w0 && packed[b + 1] === w1 && packed[b + 2] === w2 && packed[b + 3] === w3) return i;
    }
  };
}

// Keys of up to this many ASCII characters are compared as packed numbers (four seven-bit characters to a 32-bit word).
const PACKED = 64;
// A long segment's words past the fourth, while a lookup runs (lookups never interleave).
const SCRATCH = new Int32Array(PACKED / 4 - 4);
const FNV_BASIS = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a of `text[start, end)`, as `wideHash` computes it while it reads a path. */
function fnv(text: string, start: number, end: number): number {
  let h = FNV_BASIS;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/** Items grouped by a number computed from each, in first-seen order. */
function groupBy(items: readonly number[], of: (item: number) => number): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const item of items) {
    const key = of(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}

/** The search over decoded segments: a static child, then the param child, backtracking on a miss. */
function find(node: Node, segments: string[], i: number, values: string[], method: string): Node | undefined {
  if (i === segments.length) return slotFor(node, method) === undefined ? undefined : node;
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
