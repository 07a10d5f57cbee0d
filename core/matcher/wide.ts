// How a node with many static children finds the one a segment names, in place.
import { unsupported } from './match.js';
import { formatCode } from './codegen/format.js';
import { wideHash } from './hash.js';
import { SLASH } from './segments.js';

/**
 * How a node with many static children finds the one a segment names, in place: no segment
 * is cut out of the path and no string is hashed. Both walks, generated and general, use it.
 */

/** The index of the static child whose segment starts at `start`, or -1; `n` is the path's end. */
export type WideLookup = (path: string, start: number, n: number) => number;

/** A lookup and what it is, for reading: its generated code, or a line that names the hash. */
export interface Lookup {
  readonly find: WideLookup;
  readonly source: string;
}

// More keys than this are hashed: with packed keys the hash measured faster than the tree from 64 keys up,
// and slower at 30 on hot traffic.
const TREE_KEYS = 48;
// Keys whose characters add up to more than this are hashed: a decision tree over them would be slow to build
// and large.
const TREE_CHARACTERS = 65_536;
// Keys that are prefixes of each other, nested deeper than this, are hashed too.
const PREFIX_CHAIN = 8;
// Keys up to this long are compared a character at a time in generated code, which measured faster than one
// `startsWith` call.
export const INLINE_CHARACTERS = 32;
// Generated decision code is cut into functions of about this many characters, which V8 optimizes.
const SWITCH_CHUNK = 3000;

/**
 * The code comparing `key` with the path from `base` (code naming a position) at `positions`,
 * every one unless given: a character at a time (every UTF-16 unit, as `charCodeAt` reads
 * them), or, past `INLINE_CHARACTERS`, one `startsWith` of the whole key.
 */
export function keyChecks(
  key: string,
  base: string,
  positions: readonly number[] = Array.from({ length: key.length }, (_, i) => i),
): string[] {
  if (positions.length > INLINE_CHARACTERS) return [`path.startsWith(${JSON.stringify(key)}, ${base})`];
  return positions.map((pos) => `path.charCodeAt(${base} + ${pos}) === ${key.charCodeAt(pos)}`);
}

/** The code testing that a key of `length` ends the segment that starts at `base`. */
export function endsCode(base: string, length: number): string {
  return `(${base} + ${length} === n || path.charCodeAt(${base} + ${length}) === ${SLASH})`;
}

/**
 * The lookup for a node's static `keys`. Up to 48 keys, generated code: a switch on the
 * character that tells most of the keys apart, then on the next, down to one key, whose other
 * characters and end are then compared, without scanning the segment for its end first. Past
 * that, and for key sets a tree serves badly (very many characters, long chains of keys that
 * prefix each other) or where code cannot be generated, the packed hash of `wideHash`: a tree
 * over many keys is code too large for the processor's caches once requests spread over them
 * (see docs/performance.md).
 */
export function wideLookup(keys: readonly string[]): Lookup {
  let characters = 0;
  for (const key of keys) characters += key.length;
  if (keys.length > TREE_KEYS || characters > TREE_CHARACTERS) return hashLookup(keys);
  const tree = new DecisionTree(keys);
  try {
    const code = tree.decide(
      keys.map((_, i) => i),
      [],
      0,
    );
    if (code === undefined) return hashLookup(keys);
    return { find: tree.function('pick', code) as WideLookup, source: tree.sources.join('\n') };
  } catch (error) {
    if (!unsupported(error)) throw error;
    return hashLookup(keys);
  }
}

function hashLookup(keys: readonly string[]): Lookup {
  return {
    find: wideHash(keys),
    source: `// ${keys.length} keys, found by wideHash: FNV-1a and keys packed as numbers`,
  };
}

/** The decision code for a set of keys, and the functions it is cut into. */
class DecisionTree {
  /** The functions long code is cut into, called as `P[i]` by the others. */
  readonly parts: unknown[] = [];
  /** The code of every function written, the lookup itself (`pick`) last. */
  readonly sources: string[] = [];
  // One stamp per counting pass: a character was seen in this pass when its entry holds the current stamp.
  private readonly stamps = new Int32Array(65_536);
  private stamp = 0;

  constructor(private readonly keys: readonly string[]) {}

  /**
   * The code returning key `i`'s index when the segment is that key, its places in `seen` already compared.
   */
  private leaf(i: number, seen: readonly number[]): string {
    const key = this.keys[i]!;
    const unseen: number[] = [];
    for (let pos = 0; pos < key.length; pos++) if (!seen.includes(pos)) unseen.push(pos);
    const checks = keyChecks(key, 'start', unseen);
    checks.push(endsCode('start', key.length));
    return `return ${checks.join(' && ')} ? ${i} : -1;`;
  }

  /**
   * The place, not in `seen`, where the keys of `group` differ most, and how many characters they have there.
   */
  private bestPlace(
    group: readonly number[],
    seen: readonly number[],
  ): { place: number; distinct: number; shortest: number } {
    const keys = this.keys;
    // Only places every key in the group has are read to choose: past its end a segment reads `/` or nothing,
    // which no key holds.
    let shortest = Infinity;
    for (const i of group) shortest = Math.min(shortest, keys[i]!.length);
    let place = -1;
    let most = 0;
    for (let pos = 0; pos < shortest; pos++) {
      if (seen.includes(pos)) continue;
      const stamp = ++this.stamp;
      let distinct = 0;
      for (const i of group) {
        const c = keys[i]!.charCodeAt(pos);
        if (this.stamps[c] !== stamp) {
          this.stamps[c] = stamp;
          distinct++;
        }
      }
      if (distinct > most) [place, most] = [pos, distinct];
    }
    return { place, distinct: most, shortest };
  }

  /**
   * The code finding which key of `group` the segment is; `undefined` for a chain of prefixes too long for a
   * tree.
   */
  decide(group: readonly number[], seen: readonly number[], chain: number): string | undefined {
    const keys = this.keys;
    if (group.length === 1) return this.leaf(group[0]!, seen);
    const { place, distinct, shortest } = this.bestPlace(group, seen);
    let code: string;
    if (distinct > 1) {
      code = `switch (path.charCodeAt(start + ${place})) { `;
      for (const [c, sub] of groupBy(group, (i) => keys[i]!.charCodeAt(place))) {
        const inner = this.decide(sub, [...seen, place], chain);
        if (inner === undefined) return undefined;
        code += `case ${c}: { ${inner} } `;
      }
      code += 'default: return -1; }';
    } else {
      // Every key agrees up to the shortest one's end, so the shortest is a prefix of the rest: its end
      // decides.
      if (chain >= PREFIX_CHAIN) return undefined;
      const short = group.find((i) => keys[i]!.length === shortest)!;
      const rest = this.decide(
        group.filter((i) => i !== short),
        seen,
        chain + 1,
      );
      if (rest === undefined) return undefined;
      code = `if (${endsCode('start', shortest)}) { ${this.leaf(short, seen)} } ${rest}`;
    }
    if (code.length < SWITCH_CHUNK) return code;
    const index = this.parts.length;
    this.parts.push(this.function(`part${index}`, code));
    return `return P[${index}](path, start, n);`;
  }

  /** A function named `name` of the code, which may call the parts (every part sees them all). */
  function(name: string, code: string): unknown {
    const source = formatCode(`function ${name}(path, start, n) { ${code} }`);
    this.sources.push(source);
    return new Function('P', `return ${source};`)(this.parts);
  }
}

/** Items grouped by a number computed from each, in first-seen order. */
function groupBy(items: readonly number[], of: (item: number) => number): Map<number, number[]> {
  const groups = new Map<number, number[]>();
  for (const item of items) {
    const key = of(item);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [item]);
    else group.push(item);
  }
  return groups;
}
