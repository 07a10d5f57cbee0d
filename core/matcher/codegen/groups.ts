// Param groups of the generated walk: the param values each route reads, built without arrays.
import { NullObject } from '../../util/null-object.js';
import type { Match, Route } from '../../types.js';
import { matchCode, storesCode, tooLong, unsupported } from '../match.js';

/**
 * Builders shared by the param lists of routes below shared nodes: each list a `switch` case
 * with stores of its own, so a few builders warm up where a thousand did not.
 */

// Param lists per group builder: V8's time to optimize a builder grows with the square of its cases, and 128
// keep it to tens of milliseconds.
const GROUP_SIZE = 128;
// Calls that make sure V8 has given even a small builder its feedback vector, which it does after about
// eight.
const FEEDBACK_CALLS = 16;

/** Builds the answer for param list `which` of a group, from values passed as arguments. */
export type GroupBuilder = (which: number, route: Route, ...values: string[]) => Match;

/** Param lists of one length that share one generated builder, which is written on first use. */
export interface Group {
  readonly lists: Array<readonly string[]>;
  build: GroupBuilder | undefined;
}

/** A param list's group and its case in it. */
export interface Place {
  readonly group: Group;
  readonly which: number;
}

/** The groups of the param lists met so far, filled as lists are met. */
export class ParamGroups {
  private readonly places = new Map<string, Place>();
  /** The group still taking param lists, by list length. */
  private readonly open = new Map<number, Group>();

  /** The group of a param list and its case in it, given on first sight. */
  placeOf(names: readonly string[]): Place {
    const key = names.join('/');
    let at = this.places.get(key);
    if (at === undefined) {
      let group = this.open.get(names.length);
      if (group === undefined || group.lists.length === GROUP_SIZE)
        this.open.set(names.length, (group = { lists: [], build: undefined }));
      this.places.set(key, (at = { group, which: group.lists.push(names) - 1 }));
    }
    return at;
  }
}

/** A group's builder, written on its first match (of `route`), and warmed on every case. */
export function writeGroupBuilder(group: Group, route: Route, max: number): GroupBuilder {
  const value = (i: number): string => `v${i}`;
  const first = group.lists[0]!;
  // The last list is the default case, so every path through the switch stores some list's names.
  const last = group.lists.length - 1;
  const cases = group.lists
    .map((names, k) => `${k === last ? 'default' : `case ${k}`}: ${storesCode(names, value)}break; `)
    .join('');
  const body = matchCode(
    first,
    value,
    (i) => `T(route.params[${i}], ${max})`,
    'route',
    String(max),
    `switch (which) { ${cases}} `,
  );
  const args = first.map((_, i) => `, v${i}`).join('');
  let build: GroupBuilder;
  try {
    build = new Function('N', 'T', `return function answer(which, route${args}) { ${body} };`)(
      NullObject,
      tooLong,
    ) as GroupBuilder;
  } catch (error) {
    // workerd lets a module generate code while it loads but not while it answers, which is when this runs.
    if (!unsupported(error)) throw error;
    return (group.build = loopGroupBuilder(group, max));
  }
  // Every case runs before V8 optimizes the builder, or a case first met later would deoptimize it.
  const empty = first.map(() => '');
  const passes = 2 + Math.ceil(FEEDBACK_CALLS / group.lists.length);
  for (let pass = 0; pass < passes; pass++)
    for (let k = 0; k < group.lists.length; k++) build(k, route, ...empty);
  group.build = build;
  return build;
}

/** What `writeGroupBuilder` writes, as a loop: where code generation is refused. */
function loopGroupBuilder(group: Group, max: number): GroupBuilder {
  return (which, route, ...values) => {
    for (let i = 0; i < values.length; i++)
      if (values[i]!.length > max) return tooLong(route.params[i]!, max);
    // As the generated switch does, a case past the last is the last.
    const names = group.lists[which] ?? group.lists[group.lists.length - 1]!;
    const params = new NullObject() as Record<string, string>;
    for (let i = 0; i < names.length; i++) params[names[i]!] = values[i]!;
    return { kind: 'found', route, params };
  };
}
