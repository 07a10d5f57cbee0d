// The walk for paths the raw walks cannot judge (escapes, dot segments): decode, check, then search.
import type { Match } from '../types.js';
import { badRequest, NOT_FOUND } from './match.js';
import type { SlotMatch } from './interpret.js';
import { CONTROL, decodeSegment, trimmedEnd } from './segments.js';
import { allowOf, methodsOf, slotFor, type Node } from './tree.js';

/**
 * The walk for paths the raw walks cannot judge (an escape, a dot segment): every segment
 * decoded once and checked, then the same search over the decoded segments.
 */
export function matchDecoded(root: Node, method: string, path: string, matchSlot: SlotMatch): Match {
  const end = trimmedEnd(path);
  const segments = end <= 1 ? [] : path.slice(1, end).split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    const decoded = segment.includes('%') ? decodeSegment(segment) : segment;
    if (decoded === undefined) return badRequest('the path has malformed percent-encoding');
    if (decoded === '.' || decoded === '..') return badRequest('dot segments are not allowed in the path');
    if (CONTROL.test(decoded)) return badRequest('control characters are not allowed in the path');
    segments[i] = decoded;
  }
  const values: string[] = [];
  const node = find(root, segments, values, method);
  return node === undefined ? missed(root, segments) : matchSlot(slotFor(node, method)!, values);
}

/** No route for this method: 405 with what every route on the path allows, or 404. */
export function missed(root: Node, segments: readonly string[]): Match {
  // Static and param branches may both match the path: Allow names what every one of them serves.
  const ends: Node[] = [];
  visitMatches(root, segments, 0, (node) => {
    if (node.allow !== '') ends.push(node);
    return false;
  });
  if (ends.length === 0) return NOT_FOUND;
  const allow = ends.length === 1 ? ends[0]!.allow : allowOf(ends.flatMap(methodsOf));
  return { kind: 'method-not-allowed', allow };
}

/**
 * The first node, static branches first, whose path matches the segments and which serves `method`; `values`
 * gets its params.
 */
function find(root: Node, segments: readonly string[], values: string[], method: string): Node | undefined {
  let found: Node | undefined;
  const serves = (node: Node): boolean => {
    if (slotFor(node, method) === undefined) return false;
    found = node;
    return true;
  };
  visitMatches(root, segments, 0, serves, values);
  return found;
}

/**
 * Calls `visit` with every node whose path matches the segments, static branches before param
 * ones, until it returns true; `values`, when given, holds the params of the node visited.
 */
function visitMatches(
  node: Node,
  segments: readonly string[],
  i: number,
  visit: (node: Node) => boolean,
  values?: string[],
): boolean {
  if (i === segments.length) return visit(node);
  const segment = segments[i]!;
  const next = node.statics.get(segment);
  if (next !== undefined && visitMatches(next, segments, i + 1, visit, values)) return true;
  if (node.param === undefined || segment === '') return false;
  values?.push(segment);
  if (visitMatches(node.param, segments, i + 1, visit, values)) return true;
  values?.pop();
  return false;
}
