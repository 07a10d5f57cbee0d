// The state of one code generation: names, constants and shapes it has emitted so far.
import type { Route } from '../../types.js';
import { ParamGroups, writeGroupBuilder, type Group, type GroupBuilder } from './groups.js';
import type { SlotMatch } from '../interpret.js';

/**
 * What one attempt at writing a walk tracks (its constants, shapes and groups), and how the
 * walk it wrote is printed for `Matcher.source`.
 */

/** The generated identifiers, printed at the head of `Matcher.source`. */
const LEGEND = [
  '// The walk generated for this table (core/matcher/generate.ts). Legend:',
  '//   path, method  the path (still encoded, no trailing slash) and the request method',
  '//   n             path.length',
  '//   p{k}, e{k}    where segment k starts and ends',
  '//   v{i}          the value of the i-th param on the way',
  '//   R[i]          a constant: the routes, answers and lookups listed at the end',
  '//   C             DECODE: the path holds an escape or a dot segment, so it is decoded and searched instead',
  '//   N             the params class (no Object.prototype)',
  '//   T             tooLong(name, max): a param value over maxParamLength is a bad request',
  '//   G             the answer for a route of a method without a slot (PURGE, …)',
  '//   A             writes a group builder on its first use',
  "//   D, d          a shape function's data, and the offset of this child's data in it",
].join('\n');

/** Everything one attempt at writing a walk tracks; nothing of it outlives the attempt. */
export interface CodegenState {
  readonly max: number;
  /** In the top function, nodes of more static children than this share subtree code. */
  readonly sharePast: number;
  readonly general: SlotMatch;
  /** `A`: writes a group's builder on its first match. */
  readonly buildGroup: (group: Group, route: Route) => GroupBuilder;
  /** `R`: the constants of the top function, each with a line saying what it is. */
  readonly refs: unknown[];
  readonly labels: string[];
  /** Each constant's place in `refs`, so a value met twice (a GET route serving HEAD) is one constant. */
  readonly refIndex: Map<unknown, number>;
  /** Shape numbers by description: a node's description names its children's numbers, so each stays short. */
  readonly shapeIds: Map<string, number>;
  /** The function written for each shape met below a shared node, and its code. */
  readonly shapes: Map<number, { readonly fn: unknown; readonly source: string }>;
  /** The builder groups of the param lists met below shared nodes. */
  readonly groups: ParamGroups;
  /** Whether a node of `COMPARE_IN_PLACE_MAX` or fewer children tried to share. */
  fewShared: boolean;
}

/** A context for one attempt; `sharePast` as in `CodegenState`. */
export function newState(max: number, sharePast: number, general: SlotMatch): CodegenState {
  return {
    max,
    sharePast,
    general,
    buildGroup: (group, route) => group.build ?? writeGroupBuilder(group, route, max),
    refs: [],
    labels: [],
    refIndex: new Map(),
    shapeIds: new Map(),
    shapes: new Map(),
    groups: new ParamGroups(),
    fewShared: false,
  };
}

/** The text of `Matcher.source`: the legend, the walk, its shape functions, and its constants. */
export function printed(ctx: CodegenState, walk: string): string {
  const parts = [LEGEND, walk];
  for (const { source } of ctx.shapes.values()) parts.push(source);
  parts.push(ctx.labels.map((label, i) => `// R[${i}]: ${label}`).join('\n'));
  return `${parts.join('\n\n')}\n`;
}

/** The code naming a new constant of the top function. */
export function ref(ctx: CodegenState, value: unknown, label: string): string {
  let index = ctx.refIndex.get(value);
  if (index === undefined) {
    ctx.refIndex.set(value, (index = ctx.refs.push(value) - 1));
    ctx.labels.push(label.replaceAll('\n', '\n//   '));
  }
  return `R[${index}]`;
}

/** The name a shape function is printed under. */
export function shapeName(ctx: CodegenState, fn: unknown): string {
  for (const [number, written] of ctx.shapes) if (written.fn === fn) return `shape${number}`;
  return 'shape';
}
