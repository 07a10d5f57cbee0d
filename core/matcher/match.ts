// The matcher's results (found, 405, 404, 400), a found one built once per route where it has no params.
import { NullObject } from '../util/null-object.js';
import type { Match, Route } from '../types.js';

/** A match that found a route, with its params. */
export type Found = Extract<Match, { kind: 'found' }>;

/**
 * Builds the match of `route` from the param values walked, or a bad request for a value longer than `max`.
 */
export type Builder = (route: Route, values: readonly string[], max: number) => Match;

/** A route ending at a node, with its match built once when it has no params. */
export interface Slot {
  readonly route: Route;
  /** The whole match, for a route without params. */
  readonly found: Found | undefined;
  /** The route's builder, made on its first match. */
  builder: Builder | undefined;
}

/**
 * What a walk finds: the route's match, `DECODE` when the path must be decoded and searched instead, `undefined` for
 * no route.
 */
export type Walked = Match | typeof DECODE | undefined;

/** What a walk over raw segments gives for a path it cannot judge raw: an escape, or a dot segment. */
export const DECODE: unique symbol = Symbol('decode the path, then search');

export const NOT_FOUND: Match = Object.freeze({ kind: 'not-found' });

/** The params of every route without params: one frozen object. */
export const EMPTY_PARAMS: Record<string, string> = Object.freeze(new NullObject());

// Module-wide caches stop growing here: a process that compiles table after table of new names keeps its
// memory.
export const CACHED = 4096;

// Builders by param list, shared by every table: one per list keeps call sites few and warm.
const BUILDERS = new Map<string, Builder>();

export function badRequest(detail: string): Match {
  return { kind: 'bad-request', detail };
}

/** Where param `name`'s value is longer than `max`: a bad request naming the param. */
export function tooLong(name: string, max: number): Match {
  return badRequest(`path parameter :${name} is longer than ${max} characters`);
}

/**
 * Whether generating code failed for a reason of the process, not a bug: code generation
 * disallowed (EvalError), or code too deep or long for the engine (RangeError).
 */
export function unsupported(error: unknown): boolean {
  return error instanceof EvalError || error instanceof RangeError;
}

/**
 * The code that checks each value's length and answers with a params object of `names`, each
 * value read by `value(i)`, filled by `fill` (the stores of `names` unless given); `N` (the
 * params class) must be in scope where it runs.
 */
export function matchCode(
  names: readonly string[],
  value: (i: number) => string,
  tooLongCode: (i: number) => string,
  route: string,
  max: string,
  fill = storesCode(names, value),
): string {
  const checks = names.map((_, i) => `if (${value(i)}.length > ${max}) return ${tooLongCode(i)}; `).join('');
  return `${checks}const o = new N(); ${fill}return { kind: 'found', route: ${route}, params: o };`;
}

/** The code storing each value into `o` under its name, each store with a constant name. */
export function storesCode(names: readonly string[], value: (i: number) => string): string {
  return names.map((name, i) => `o[${JSON.stringify(name)}] = ${value(i)}; `).join('');
}

/**
 * The builder for one list of param names, generated from it: its own code keeps each
 * property store monomorphic, where one shared loop over a thousand routes' names would go
 * megamorphic.
 */
export function builderFor(names: readonly string[]): Builder {
  const key = names.join('/');
  let builder = BUILDERS.get(key);
  if (builder !== undefined) return builder;
  try {
    const body = matchCode(
      names,
      (i) => `v[${i}]`,
      (i) => `T(${JSON.stringify(names[i])}, max)`,
      'route',
      'max',
    );
    builder = new Function('N', 'T', `return function answer(route, v, max) { ${body} };`)(
      NullObject,
      tooLong,
    ) as Builder;
  } catch (error) {
    if (!unsupported(error)) throw error;
    builder = loopBuilder(names);
  }
  if (BUILDERS.size < CACHED) BUILDERS.set(key, builder);
  return builder;
}

/** What `builderFor` writes, as a loop: for processes that disallow code generation. */
function loopBuilder(names: readonly string[]): Builder {
  return (route, values, max) => {
    for (let i = 0; i < names.length; i++) if (values[i]!.length > max) return tooLong(names[i]!, max);
    const params = new NullObject() as Record<string, string>;
    for (let i = 0; i < names.length; i++) params[names[i]!] = values[i]!;
    return { kind: 'found', route, params };
  };
}
