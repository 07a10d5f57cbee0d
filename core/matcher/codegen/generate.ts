// The matcher's walk as generated JavaScript: the tree unrolled into one function per table.
import { NullObject } from '../../util/null-object.js';
import { matchCode, DECODE, tooLong, unsupported, type Slot, type Walked } from '../match.js';
import { newState, printed, ref, shapeName, type CodegenState } from './state.js';
import { formatCode } from './format.js';
import type { SlotMatch } from '../interpret.js';
import { eachEnding, layout, pushSlot, type Constant } from './layout.js';
import { isDotSegmentCode, segmentEndCode } from '../segments.js';
import { COMPARE_IN_PLACE_MAX, lookupOf, shapeNumber, type Node } from '../tree.js';
import { endsCode, keyChecks } from '../wide.js';

/**
 * The walk of a tree written as code for that tree, answers included:
 *
 * - a node's static segments are compared a character at a time against constants, in place,
 *   without finding the segment's end first; a param's value is cut into a local `v{i}`;
 * - methods are compared against constants, and each route's answer is built where the walk
 *   ends, its params object stored with constant names (every store monomorphic);
 * - backtracking is the nesting of the code: a static branch that finds nothing falls through
 *   to the param branch;
 * - in the top function, a node of more than two static children finds its child by a lookup,
 *   and subtrees of the same shape (every resource's seven routes) share one shape function
 *   that reads its routes from per-child data, through group builders of up to 128 param lists:
 *   a few functions, kept hot, for a thousand resources;
 * - it answers exactly what the general walk (`interpreter`) answers, or is not written: the tree
 *   too large or irregular for it, or code generation disallowed here.
 *
 * `Matcher.source` prints what it wrote, with a legend; docs/posts-walk.txt is the posts example's.
 */

// Generated code stays hot only while it is small: limits on the nodes written out in one
// function and on the distinct subtree shapes behind wide nodes; past them the general walk serves.
const GENERATED_NODES = 64;
const GENERATED_SHAPES = 16;
// More static children than this, in the top function, are looked up and share shape functions: from three up
// that measured faster than comparing each in place.
const INLINE_CHILDREN_MAX = 2;
/** A walk, generated or general. */
export type Walk = (path: string, method: string) => Walked;

/** A generated walk, and what it is as text. */
export interface GeneratedWalk {
  readonly walk: Walk;
  readonly source: string;
}

/**
 * Where a function's code finds its constants: as `R[i]` in the top function, in per-child data in a shape
 * function.
 */
type Scope = { readonly top: true } | { readonly top: false; readonly at: ReadonlyMap<Node, number> };

/**
 * The walk of `root` as code, or `undefined` where the general walk must serve. Nodes of more
 * than two static children share subtree code; where small nodes took the shapes a wide one
 * needed, only nodes past `COMPARE_IN_PLACE_MAX` children share on a second attempt.
 */
export function generateWalk(root: Node, max: number, general: SlotMatch): GeneratedWalk | undefined {
  try {
    // Inside the try: a tree deep enough to exhaust the stack gets the general walk, as any tree generation
    // fails on.
    if (!plain(root)) return undefined;
    const first = attempt(root, max, general, INLINE_CHILDREN_MAX);
    if (first.walk !== undefined) return first.walk;
    return first.fewShared ? attempt(root, max, general, COMPARE_IN_PLACE_MAX).walk : undefined;
  } catch (error) {
    if (!unsupported(error)) throw error;
    return undefined;
  }
}

// Segments are compared raw, so a static segment that is a dot segment or holds an escape is left to the
// general walk.
function plain(node: Node): boolean {
  for (let i = 0; i < node.keys.length; i++) {
    const key = node.keys[i]!;
    if (key === '.' || key === '..' || key.includes('%') || !plain(node.children[i]!)) return false;
  }
  return node.param === undefined || plain(node.param);
}

function attempt(
  root: Node,
  max: number,
  general: SlotMatch,
  sharePast: number,
): { walk?: GeneratedWalk; fewShared: boolean } {
  const ctx = newState(max, sharePast, general);
  const body = emit(ctx, root, 0, 0, { nodes: 0 }, { top: true });
  if (body === undefined) return { fewShared: ctx.fewShared };
  const source = formatCode(
    `function walk(path, method) { const n = path.length; const p0 = 1; ${body} return undefined; }`,
  );
  const walk = new Function('R', 'C', 'N', 'G', 'T', `return ${source};`)(
    ctx.refs,
    DECODE,
    NullObject,
    general,
    tooLong,
  ) as Walk;
  return { walk: { walk, source: printed(ctx, source) }, fewShared: ctx.fewShared };
}

/**
 * The code for a node whose segment index is `k`, with `depth` params bound above it; `undefined` where it
 * cannot be written.
 */
function emit(
  ctx: CodegenState,
  node: Node,
  k: number,
  depth: number,
  budget: { nodes: number },
  scope: Scope,
): string | undefined {
  if (++budget.nodes > GENERATED_NODES) return undefined;
  const here = endingsCode(ctx, node, depth, scope);
  // Many static children, in the top function, share shape functions; where those cannot be written, a few
  // are compared in place after all.
  const share = scope.top && (node.wide || node.keys.length > ctx.sharePast);
  if (share && !node.wide) ctx.fewShared = true;
  let below =
    (share ? sharedStatics(ctx, node, k, depth) : undefined) ??
    (node.wide ? undefined : inlineStatics(ctx, node, k, depth, budget, scope));
  if (below === undefined) return undefined;
  if (node.param !== undefined) {
    const inner = emit(ctx, node.param, k + 1, depth + 1, budget, scope);
    if (inner === undefined) return undefined;
    below +=
      `{ ${segmentEndCode(k)}if (e${k} > p${k}) { if (${isDotSegmentCode(k)}) return C; ` +
      `const v${depth} = path.slice(p${k}, e${k}); const p${k + 1} = e${k} + 1; ${inner} } } `;
  }
  if (below === '') return here === '' ? '' : `if (p${k} > n) { ${here}}`;
  if (here === '') return `if (p${k} <= n) { ${below}}`;
  return `if (p${k} > n) { ${here}} else { ${below}}`;
}

/** The code answering every method a node serves, its params bound in `v0…`. */
function endingsCode(ctx: CodegenState, node: Node, depth: number, scope: Scope): string {
  let code = '';
  // In a shape function, each constant is read at the place `layout` put it: its node's place, then as many
  // as `pushSlot` pushes per slot.
  let next = scope.top ? 0 : scope.at.get(node)!;
  const read = (offset: number): string => `D[d + ${next + offset}]`;
  const counted: Constant[] = [];
  eachEnding(
    node,
    (method, slot) => {
      code += `if (method === ${JSON.stringify(method)}) ${slotMatchCode(ctx, slot, scope, read)} `;
      next += pushSlot(ctx, slot, counted);
    },
    (other) => {
      const map = scope.top
        ? ref(ctx, other, `the routes of other methods: ${[...other.keys()].join(', ')}`)
        : read(0);
      const values = Array.from({ length: depth }, (_, i) => `v${i}`).join(', ');
      code += `{ const s = ${map}.get(method); if (s !== undefined) return G(s, [${values}]); } `;
    },
  );
  return code;
}

/** The code answering with `slot`, its params bound in `v0…`. */
function slotMatchCode(
  ctx: CodegenState,
  slot: Slot,
  scope: Scope,
  read: (offset: number) => string,
): string {
  const route = slot.route;
  if (slot.found !== undefined) {
    return `return ${scope.top ? ref(ctx, slot.found, `the answer of ${route.name} (${route.method} ${route.path})`) : read(0)};`;
  }
  const values = route.params.map((_, i) => `, v${i}`).join('');
  if (!scope.top)
    return `{ const g = ${read(0)}, r = ${read(2)}; return (g.build ?? A(g, r))(${read(1)}, r${values}); }`;
  const names = route.params;
  const tooLongCode = (i: number): string => `T(${JSON.stringify(names[i])}, ${ctx.max})`;
  const code = matchCode(
    names,
    (i) => `v${i}`,
    tooLongCode,
    ref(ctx, route, `route ${route.name} (${route.method} ${route.path})`),
    String(ctx.max),
  );
  return `{ ${code} }`;
}

/** The code comparing a node's static children in place, each followed by its subtree's code. */
function inlineStatics(
  ctx: CodegenState,
  node: Node,
  k: number,
  depth: number,
  budget: { nodes: number },
  scope: Scope,
): string | undefined {
  let code = '';
  for (let i = 0; i < node.keys.length; i++) {
    const key = node.keys[i]!;
    const inner = emit(ctx, node.children[i]!, k + 1, depth, budget, scope);
    if (inner === undefined) return undefined;
    const equals = [...keyChecks(key, `p${k}`), endsCode(`p${k}`, key.length)].join(' && ');
    code += `if (/* ${JSON.stringify(key)} */ ${equals}) { const p${k + 1} = p${k} + ${key.length + 1}; ${inner} } `;
  }
  return code;
}

/**
 * The code looking a node's static child up and calling the shape function of its subtree
 * with its data; `undefined` when a child's subtree has no shape, its code cannot be written,
 * or its new shapes do not fit the limit, and then no shape it wrote is kept.
 */
function sharedStatics(ctx: CodegenState, node: Node, k: number, depth: number): string | undefined {
  const children = node.children;
  const numbers: number[] = [];
  const fresh = new Set<number>();
  for (const child of children) {
    const shape = shapeNumber(ctx.shapeIds, child, depth);
    if (shape === undefined) return undefined;
    numbers.push(shape);
    if (!ctx.shapes.has(shape)) fresh.add(shape);
  }
  // Shapes are written only when all of them fit: a node that cannot share leaves the limit to the nodes
  // after it.
  if (ctx.shapes.size + fresh.size > GENERATED_SHAPES) return undefined;
  const functions: unknown[] = [];
  for (let i = 0; i < children.length; i++) {
    const written = ctx.shapes.get(numbers[i]!) ?? writeShape(ctx, children[i]!, numbers[i]!, k + 1, depth);
    if (written === undefined) {
      for (const shape of fresh) ctx.shapes.delete(shape);
      return undefined;
    }
    functions.push(written.fn);
  }
  // Every child's data in one array, each child's from its offset: one array to read, not one per child.
  const data: Constant[] = [];
  const offsets = children.map((child) => {
    const offset = data.length;
    layout(ctx, child, data);
    return offset;
  });
  const distinct = [...new Set(functions)];
  // One shape (the usual case) is called by name; the params bound so far go along as arguments.
  const call =
    distinct.length === 1
      ? ref(
          ctx,
          functions[0],
          `${shapeName(ctx, functions[0])}, the code of every child of ${children.length}`,
        )
      : `${ref(ctx, functions, `the shape function of each of ${children.length} children: ${distinct.map((fn) => shapeName(ctx, fn)).join(', ')}`)}[i]`;
  const lookup = lookupOf(node);
  const find = ref(
    ctx,
    lookup.find,
    `the lookup of ${children.length} segments (${node.keys.slice(0, 3).join(', ')}${children.length > 3 ? ', …' : ''}):\n${lookup.source}`,
  );
  const skips = ref(
    ctx,
    node.keys.map((key) => key.length + 1),
    'the length of each segment, with its slash',
  );
  const above = Array.from({ length: depth }, (_, i) => `, v${i}`).join('');
  const args = `path, method, p${k} + ${skips}[i], n, ${ref(ctx, data, `the data of ${children.length} children`)}, ${ref(ctx, Int32Array.from(offsets), "each child's offset in it")}[i]${above}`;
  return `{ const i = ${find}(path, p${k}, n); if (i !== -1) { const h = ${call}(${args}); if (h !== undefined) return h; } } `;
}

/**
 * The shape function of `node`'s subtree (its segment index `k`), or `undefined` where its code cannot be
 * written.
 */
function writeShape(
  ctx: CodegenState,
  node: Node,
  number: number,
  k: number,
  depth: number,
): { fn: unknown; source: string } | undefined {
  const at = new Map<Node, number>();
  layout(ctx, node, [], at);
  const inner = emit(ctx, node, k, depth, { nodes: 0 }, { top: false, at });
  if (inner === undefined) return undefined;
  const above = Array.from({ length: depth }, (_, i) => `, v${i}`).join('');
  const source = formatCode(
    `function shape${number}(path, method, p${k}, n, D, d${above}) { ${inner} return undefined; }`,
  );
  const fn = new Function('C', 'A', 'G', `return ${source};`)(DECODE, ctx.buildGroup, ctx.general);
  const written = { fn, source };
  ctx.shapes.set(number, written);
  return written;
}
