import type { Route } from '../types.js';
import type { Found, Slot } from './answers.js';
import type { GenContext } from './context.js';
import type { Group } from './groups.js';
import { servedMethods, type Node } from './tree.js';

/**
 * The order a subtree's answers are listed in, one traversal for both sides of a shape
 * function: the code reads each constant at the place `layout` gives it, and each child's
 * data is laid out by the same `layout`.
 */

/** One answer a node gives: a slotted method's route, or the map of its other methods. */
export type Ending =
  | { readonly method: string; readonly slot: Slot }
  | { readonly method: undefined; readonly other: Map<string, Slot> };

/** What a shape function reads from its data for one ending (see `constantsOf`). */
export type Constant = Found | Group | number | Route | Map<string, Slot>;

/** The answers a node gives, in the order both its code and its data list them. */
export function endingsOf(node: Node): Ending[] {
  const endings: Ending[] = servedMethods(node).map(([method, slot]) => ({ method, slot }));
  if (node.other !== undefined) endings.push({ method: undefined, other: node.other });
  return endings;
}

/** What a shape function's data holds for one ending: the prebuilt answer; or the group, the case in it and the route; or the method map. */
export function constantsOf(ctx: GenContext, ending: Ending): Constant[] {
  if (ending.method === undefined) return [ending.other];
  if (ending.slot.found !== undefined) return [ending.slot.found];
  const at = ctx.groups.placeOf(ending.slot.route.params);
  return [at.group, at.which, ending.slot.route];
}

/** Pushes a subtree's constants onto `data`, node by node (the node, its static children in order, its param child), noting where each node's start in `at`. */
export function layout(ctx: GenContext, node: Node, data: Constant[], at?: Map<Node, number>): void {
  at?.set(node, data.length);
  for (const ending of endingsOf(node)) data.push(...constantsOf(ctx, ending));
  for (const child of node.children) layout(ctx, child, data, at);
  if (node.param !== undefined) layout(ctx, node.param, data, at);
}
