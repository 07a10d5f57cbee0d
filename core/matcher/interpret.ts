// The general walk over a raw path, node by node: static child first, then the param child.
import type { Match } from '../types.js';
import { DECODE, type Slot, type Walked } from './match.js';
import { isDotSegment } from './segments.js';
import { slotFor, type Node } from './tree.js';

/** The match of a slot, from the param values walked to it. */
export type SlotMatch = (slot: Slot, values: readonly string[]) => Match;

/**
 * The general walk over a raw path (no trailing slash, no escapes): at each node the static
 * child first, found by comparing segments or by the node's lookup, then the param child, then
 * the latest branch point on a miss. It answers exactly what a generated walk answers, for any
 * tree, and serves where no walk can be generated.
 */
export function interpreter(root: Node, matchSlot: SlotMatch): (path: string, method: string) => Walked {
  // Param values and branch points of the walk under way; a walk never yields, so one set serves all.
  const values: string[] = [];
  const backNodes: Node[] = [];
  const backStarts: number[] = [];
  const backEnds: number[] = [];
  const backDepths: number[] = [];
  return function interpret(path, method) {
    let node = root;
    let start = 1;
    let depth = 0;
    let branches = 0;
    for (;;) {
      if (start > path.length) {
        const hit = slotFor(node, method);
        if (hit !== undefined) return matchSlot(hit, values);
      } else {
        let end = path.indexOf('/', start);
        if (end === -1) end = path.length;
        if (isDotSegment(path, start, end)) return DECODE;
        const param = end > start ? node.param : undefined;
        let next: Node | undefined;
        let segment: string | undefined;
        if (node.wide) {
          const i = node.lookup!.find(path, start, path.length);
          if (i !== -1) next = node.children[i];
        } else {
          segment = path.slice(start, end);
          const keys = node.keys;
          for (let i = 0; i < keys.length; i++) {
            if (keys[i] === segment) {
              next = node.children[i];
              break;
            }
          }
        }
        if (next !== undefined) {
          if (param !== undefined) {
            backNodes[branches] = param;
            backStarts[branches] = start;
            backEnds[branches] = end;
            backDepths[branches++] = depth;
          }
          node = next;
          start = end + 1;
          continue;
        }
        if (param !== undefined) {
          values[depth++] = segment ?? path.slice(start, end);
          node = param;
          start = end + 1;
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
  };
}
