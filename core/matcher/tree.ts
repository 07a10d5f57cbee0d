// The tree a table compiles to: a node per segment position, routes in slots by method.
import { checkRoute, duplicateRouteError } from '../table/table.js';
import type { Route, RouteTable } from '../types.js';
import { CACHED, EMPTY_PARAMS, type Slot } from './match.js';
import { wideLookup, type Lookup } from './wide.js';

/**
 * The tree a table compiles to: one node per path segment position, static children first,
 * then one param child; the routes ending at a node sit in fixed slots by method.
 */

/** One path segment position: its static children, its param child, and the routes that end here. */
export interface Node {
  /**
   * Static children by segment; `NO_STATICS` until the first one, since most nodes (route ends, params) have
   * none.
   */
  statics: Map<string, Node>;
  param: Node | undefined;
  /** The route per method in fixed slots: one monomorphic load beats a keyed lookup per request. */
  GET: Slot | undefined;
  HEAD: Slot | undefined;
  POST: Slot | undefined;
  PUT: Slot | undefined;
  PATCH: Slot | undefined;
  DELETE: Slot | undefined;
  OPTIONS: Slot | undefined;
  /** Routes of other methods (PURGE, …). */
  other: Map<string, Slot> | undefined;
  /** The `Allow` header for this path, derived from the slots by `seal`; `''` where no route ends. */
  allow: string;
  /** The static children's segments and nodes as parallel lists, in insertion order, filled by `seal`. */
  keys: readonly string[];
  children: readonly Node[];
  /** Whether the static children are too many to compare one by one, and are found by `lookup` instead. */
  wide: boolean;
  /** How a segment finds its static child's index, for wide nodes (and nodes whose subtrees share code). */
  lookup: Lookup | undefined;
}

// Up to this many static children are compared in place; more make a node wide, found by a lookup.
export const COMPARE_IN_PLACE_MAX = 8;

/** The methods that have a slot of their own, in the order `Allow` lists them. */
export const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
type SlottedMethod = (typeof METHOD_ORDER)[number];
const SLOTTED = new Set<string>(METHOD_ORDER);

// Shared by every node without static children; never added to, since `insert` gives a node its own Map
// first.
const NO_STATICS = new Map<string, Node>();
const NO_KEYS: readonly string[] = Object.freeze([]);
const NO_CHILDREN: readonly Node[] = Object.freeze([]);

export function newNode(): Node {
  return {
    statics: NO_STATICS,
    param: undefined,
    GET: undefined,
    HEAD: undefined,
    POST: undefined,
    PUT: undefined,
    PATCH: undefined,
    DELETE: undefined,
    OPTIONS: undefined,
    other: undefined,
    allow: '',
    keys: NO_KEYS,
    children: NO_CHILDREN,
    wide: false,
    lookup: undefined,
  };
}

/** The tree of a table, sealed; `checked` tables (see `isChecked`) skip the per-route check. */
export function buildTree(table: RouteTable, checked: boolean): Node {
  const root = newNode();
  for (const route of table) insert(root, route, checked);
  seal(root);
  return root;
}

/** Adds a route at the node its path leads to, making the nodes on the way. */
function insert(root: Node, route: Route, checked: boolean): void {
  if (!checked) checkRoute(route);
  let node = root;
  const path = route.path;
  // Segment by segment in place, a trailing empty one included, as `path.slice(1).split('/')` would give
  // them.
  for (let start = 1; path !== '/' && start <= path.length;) {
    let end = path.indexOf('/', start);
    if (end === -1) end = path.length;
    if (path[start] === ':') {
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
  const taken = ownSlot(node, route.method);
  if (taken !== undefined) throw duplicateRouteError(taken.route, route);
  const slot: Slot = {
    route,
    found:
      route.params.length === 0 ? Object.freeze({ kind: 'found', route, params: EMPTY_PARAMS }) : undefined,
    builder: undefined,
  };
  if (SLOTTED.has(route.method)) node[route.method as SlottedMethod] = slot;
  else (node.other ??= new Map()).set(route.method, slot);
}

/** Fills in what the complete tree derives: `Allow`, the child lists, and the wide nodes' lookups. */
function seal(node: Node): void {
  const methods = methodsOf(node);
  if (methods.length > 0) node.allow = allowFor(methods);
  if (node.statics.size > 0) {
    node.keys = [...node.statics.keys()];
    node.children = [...node.statics.values()];
    node.wide = node.keys.length > COMPARE_IN_PLACE_MAX;
    if (node.wide) node.lookup = wideLookup(node.keys);
  }
  for (let i = 0; i < node.children.length; i++) seal(node.children[i]!);
  if (node.param !== undefined) seal(node.param);
}

/** A node's lookup, made on first use for a node that is not wide. */
export function lookupOf(node: Node): Lookup {
  return (node.lookup ??= wideLookup(node.keys));
}

/** The route a node has for exactly this method (no HEAD from GET). */
function ownSlot(node: Node, method: string): Slot | undefined {
  return SLOTTED.has(method) ? node[method as SlottedMethod] : node.other?.get(method);
}

/** The route a node serves for a method: its own, or its GET route for HEAD. */
export function slotFor(node: Node, method: string): Slot | undefined {
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
 * A subtree's structure without its routes, as a number given by `ids`: equal numbers can share code; wide
 * subtrees have none.
 */
export function shapeNumber(ids: Map<string, number>, node: Node, depth: number): number | undefined {
  if (node.wide) return undefined;
  let description = `${depth}`;
  // The methods a node serves, named without building a list: this runs for every node below a shared one.
  for (const method of METHOD_ORDER) if (slotFor(node, method) !== undefined) description += ` ${method}`;
  if (node.other !== undefined) description += ' *';
  for (let i = 0; i < node.keys.length; i++) {
    const inner = shapeNumber(ids, node.children[i]!, depth);
    if (inner === undefined) return undefined;
    description += ` ${node.keys[i]!.length}:${node.keys[i]}=${inner}`;
  }
  if (node.param !== undefined) {
    const inner = shapeNumber(ids, node.param, depth + 1);
    if (inner === undefined) return undefined;
    description += ` :${inner}`;
  }
  let id = ids.get(description);
  if (id === undefined) ids.set(description, (id = ids.size));
  return id;
}

/** The methods of the routes that end at a node, slotted ones first. */
export function methodsOf(node: Node): string[] {
  const methods: string[] = [];
  for (let i = 0; i < METHOD_ORDER.length; i++)
    if (node[METHOD_ORDER[i]!] !== undefined) methods.push(METHOD_ORDER[i]!);
  if (node.other !== undefined) for (const method of node.other.keys()) methods.push(method);
  return methods;
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

/** The `Allow` header for routes of these methods: HEAD with GET, OPTIONS always, known methods first. */
export function allowOf(methods: Iterable<string>): string {
  const set = new Set(methods);
  if (set.has('GET')) set.add('HEAD');
  set.add('OPTIONS');
  const known: string[] = METHOD_ORDER.filter((m) => set.has(m));
  const others = [...set].filter((m) => !SLOTTED.has(m)).sort();
  return [...known, ...others].join(', ');
}
