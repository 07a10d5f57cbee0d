// compile(): a table in, a matcher out (generated walk where code generation pays, else the general walk).
import { LIMITS } from '../util/limits.js';
import { wholeNumber } from '../util/whole-number.js';
import { isChecked } from '../table/table.js';
import type { Match, RouteTable } from '../types.js';
import { builderFor, DECODE, NOT_FOUND, type Slot, type Walked } from './match.js';
import { matchDecoded, missed } from './decoded.js';
import { generateWalk } from './codegen/generate.js';
import { interpreter } from './interpret.js';
import { buildTree, slotFor } from './tree.js';

const NO_VALUES: readonly string[] = Object.freeze([]);

/** Answers "which route serves this method and path?" for one compiled table. */
export interface Matcher {
  readonly routes: RouteTable;
  /**
   * Whether this table's walk was generated as code for it (see `MatcherOptions.generate`), or is the general
   * one.
   */
  readonly generated: boolean;
  /**
   * The generated walk as a person reads it: a legend, the code, and its constants; `undefined` for the
   * general walk.
   */
  readonly source: string | undefined;
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

/**
 * Compiles a route table into a matcher. Paths are grouped first and methods second, so
 * 405 with `Allow`, OPTIONS and HEAD-as-GET are each one lookup; static segments beat params.
 *
 * 1. `buildTree` (tree.ts) turns the table into nodes, a node per segment position.
 * 2. A walk reads the raw path, without splitting, decoding or recursion: the one generated as
 *    code for this tree (generate.ts; print it with `source`), or else the general one
 *    (interpret.ts), which answers the same. A node with many static children finds the
 *    segment's child in place (wide.ts).
 * 3. A path with an escape, or a miss with a dot segment, is decoded and searched instead
 *    (decoded.ts), which also checks each segment; a miss becomes 405 with `Allow`, or 404.
 *
 * Routes without params are found with a match built at compile time; params land in objects of
 * one class with no Object.prototype in its chain (match.ts).
 */
export function compile(table: RouteTable, options: MatcherOptions = {}): Matcher {
  // Generated code holds it as a literal, so only a whole number may be one.
  const max = wholeNumber('maxParamLength', options.maxParamLength ?? LIMITS.maxParamLength, 1);
  const root = buildTree(table, isChecked(table));
  const matchSlot = (slot: Slot, values: readonly string[]): Match =>
    slot.found ?? (slot.builder ??= builderFor(slot.route.params))(slot.route, values, max);
  const generated = options.generate === false ? undefined : generateWalk(root, max, matchSlot);
  const walk = generated?.walk ?? interpreter(root, matchSlot);
  // Read from the closure, not through the import: an imported binding is loaded anew on every match.
  const decode: typeof DECODE = DECODE;
  // The path `/`'s routes have no params, so no walk is needed for it.
  const rootMatch = (method: string): Walked => {
    const slot = slotFor(root, method);
    return slot === undefined ? undefined : matchSlot(slot, NO_VALUES);
  };

  function match(method: string, path: string): Match {
    // Only a path names a route; adapters give nothing else, direct callers might.
    if (path.charCodeAt(0) !== 47 /* / */) return NOT_FOUND;
    // The general walk compares segments raw, so an escape sends the path to be decoded first; a generated
    // walk finds escapes as it reads.
    if (generated === undefined && path.indexOf('%') !== -1)
      return matchDecoded(root, method, path, matchSlot);
    // trimmedEnd() written out: a call through an imported binding is a measurable part of a lookup.
    const end = path.length > 1 && path.charCodeAt(path.length - 1) === 47 ? path.length - 1 : path.length;
    const trimmed = end === path.length ? path : path.slice(0, end);
    const hit = end === 1 ? rootMatch(method) : walk(trimmed, method);
    if (hit === decode) return matchDecoded(root, method, path, matchSlot);
    if (hit !== undefined) return hit;
    // A miss is not the last word while a dot segment further on must be refused, or an escape may decode to
    // a route.
    if (path.indexOf('/.') !== -1 || path.indexOf('%') !== -1)
      return matchDecoded(root, method, path, matchSlot);
    return missed(root, end === 1 ? [] : trimmed.slice(1).split('/'));
  }

  return Object.freeze({
    routes: table,
    generated: generated !== undefined,
    source: generated?.source,
    match,
  });
}
