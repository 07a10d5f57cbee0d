// One traversal order of the tree, so that the generated code and its constants agree.
import type { Route } from '../../types.js';
import type { Found, Slot } from '../match.js';
import type { CodegenState } from './state.js';
import type { Group } from './groups.js';
import { METHOD_ORDER, slotFor, type Node } from '../tree.js';

/**
 * The order a subtree's answers are listed in, one traversal for both sides of a shape
 * function: the code reads each constant at the place `layout` gives it, and each child's
 * data is laid out by the same `layout`.
 */

/** What a shape function reads from its data (see `pushSlot`). */
export type Constant = Found | Group | number | Route | Map<string, Slot>;

/**
 * Calls `onSlot` for each slotted method a node serves, in `METHOD_ORDER` (HEAD by its GET
 * route where it has no HEAD route), then `onOther` with the routes of other methods: the order
 * both a node's code and its data list its answers in.
 */
export function eachEnding(
  node: Node,
  onSlot: (method: string, slot: Slot) => void,
  onOther: (other: Map<string, Slot>) => void,
): void {
  for (let i = 0; i < METHOD_ORDER.length; i++) {
    const slot = slotFor(node, METHOD_ORDER[i]!);
    if (slot !== undefined) onSlot(METHOD_ORDER[i]!, slot);
  }
  if (node.other !== undefined) onOther(node.other);
}

/**
 * Pushes what a shape function reads for a slot (its prebuilt answer; or its group, its case there and its
 * route) and says how many.
 */
export function pushSlot(ctx: CodegenState, slot: Slot, data: Constant[]): number {
  if (slot.found !== undefined) return data.push(slot.found) && 1;
  const at = ctx.groups.placeOf(slot.route.params);
  data.push(at.group, at.which, slot.route);
  return 3;
}

/**
 * Pushes a subtree's constants onto `data`, node by node (the node, its static children in order, its param
 * child), noting where each node's start in `at`.
 */
export function layout(ctx: CodegenState, node: Node, data: Constant[], at?: Map<Node, number>): void {
  at?.set(node, data.length);
  eachEnding(
    node,
    (_, slot) => pushSlot(ctx, slot, data),
    (other) => data.push(other),
  );
  const children = node.children;
  for (let i = 0; i < children.length; i++) layout(ctx, children[i]!, data, at);
  if (node.param !== undefined) layout(ctx, node.param, data, at);
}
