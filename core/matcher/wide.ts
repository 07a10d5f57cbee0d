import { unsupported } from './answers.js';
import { formatCode } from './format.js';
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

// More keys than this are hashed: with packed keys the hash measured faster than the tree from 64 keys up, and slower at 30 on hot traffic.
const TREE_KEYS = 48;
// Keys whose characters add up to more than this are hashed: a decision tree over them would be slow to build and large.
const TREE_CHARACTERS = 65_536;
// Keys that are prefixes of each other, nested deeper than this, are hashed too.
const PREFIX_CHAIN = 8;
// Keys up to this long are compared a character at a time in generated code, which measured faster than one `startsWith` call.
export const INLINE_CHARACTERS = 32;
// Generated decision code is cut into functions of about this many characters, which V8 optimizes.
const SWITCH_CHUNK = 3000;

/**
 * The code comparing `key` with the path from `base` (code naming a position) at `positions`,
 * every one unless given: a character at a time (every UTF-16 unit, as `charCodeAt` reads
 * them), or, past `INLINE_CHARACTERS`, one `startsWith` of the whole key.
 */
export function keyChecks(key: string, base: string, positions: readonly number[] = Array.from({ length: key.length }, (_, i) => i)): string[] {
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
  return { find: wideHash(keys), source: `// ${keys.length} keys, found by wideHash: FNV-1a and keys packed as numbers` };
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

  /** The code returning key `i`'s index when the segment is that key, its places in `seen` already compared. */
  private leaf(i: number, seen: readonly number[]): string {
    const key = this.keys[i]!;
    const unseen: number[] = [];
    for (let pos = 0; pos < key.length; pos++) if (!seen.includes(pos)) unseen.push(pos);
    const checks = keyChecks(key, 'start', unseen);
    checks.push(endsCode('start', key.length));
    return `return ${checks.join(' && ')} ? ${i} : -1;`;
  }

  /** The place, not in `seen`, where the keys of `group` differ most, and how many characters they have there. */
  private bestPlace(group: readonly number[], seen: readonly number[]): { place: number; distinct: number; shortest: number } {
    const keys = this.keys;
    // Only places every key in the group has are read to choose: past its end a segment reads `/` or nothing, which no key holds.
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

  /** The code finding which key of `group` the segment is; `undefined` for a chain of prefixes too long for a tree. */
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
      // Every key agrees up to the shortest one's end, so the shortest is a prefix of the rest: its end decides.
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

// Keys of up to this many ASCII characters are compared as packed numbers (four seven-bit characters to a 32-bit word).
const PACKED = 64;
// A long segment's words past the fourth, while a lookup runs (lookups never interleave).
const SCRATCH = new Int32Array(PACKED / 4 - 4);
const FNV_BASIS = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

/** FNV-1a of `text[start, end)`, as `wideHash` computes it while it reads a path. */
function fnv(text: string, start: number, end: number): number {
  let h = FNV_BASIS;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), FNV_PRIME);
  return h;
}

/**
 * The lookup by hash: the segment hashed (FNV-1a) and packed as it is read to its end, then an
 * open-addressed table of key indexes in an `Int32Array`, probed until a key equal to the
 * segment, or an empty entry. Four entries per key keep probes short (`perKey`, which tests
 * lower to make every probe pass many keys).
 */
export function wideHash(keys: readonly string[], perKey = 4): WideLookup {
  let size = 2;
  while (size < keys.length * perKey || size <= keys.length) size *= 2;
  const mask = size - 1;
  const table = new Int32Array(size).fill(-1);
  keys.forEach((key, i) => {
    let at = fnv(key, 0, key.length) & mask;
    while (table[at] !== -1) at = (at + 1) & mask;
    table[at] = i;
  });
  const lengths = Int32Array.from(keys, (key) => key.length);
  // Each key packed exactly, seven bits a character and four to a word: four words and the length in `packed` (-1 when it cannot be), more in `rest`.
  const packed = new Int32Array(keys.length * 5);
  const restAt = new Int32Array(keys.length);
  const restWords: number[] = [];
  keys.forEach((key, i) => {
    const at = 5 * i;
    packed[at + 4] = -1;
    restAt[i] = restWords.length;
    if (key.length > PACKED) return;
    for (let j = 0; j < key.length; j++) if (key.charCodeAt(j) > 127) return;
    for (let j = 0; j < key.length; j++) {
      const c = key.charCodeAt(j);
      if (j < 16) packed[at + (j >> 2)] = (packed[at + (j >> 2)]! << 7) | c;
      else if ((j & 3) === 0) restWords.push(c);
      else restWords[restWords.length - 1] = (restWords[restWords.length - 1]! << 7) | c;
    }
    packed[at + 4] = key.length;
  });
  const rest = Int32Array.from(restWords);
  /** A segment of 17 to PACKED ASCII characters: its fourth word and the words past it packed again from the path, then compared. */
  const longer = (path: string, start: number, length: number, h: number, w0: number, w1: number, w2: number): number => {
    let w3 = 0;
    for (let k = 12; k < 16; k++) w3 = (w3 << 7) | path.charCodeAt(start + k);
    for (let k = 16; k < length; k++) {
      const r = (k >> 2) - 4;
      SCRATCH[r] = ((k & 3) === 0 ? 0 : SCRATCH[r]! << 7) | path.charCodeAt(start + k);
    }
    next: for (let at = h & mask; ; at = (at + 1) & mask) {
      const i = table[at]!;
      if (i === -1) return -1;
      const b = 5 * i;
      if (packed[b + 4] !== length || packed[b] !== w0 || packed[b + 1] !== w1 || packed[b + 2] !== w2 || packed[b + 3] !== w3) continue;
      for (let r = 0, from = restAt[i]!, words = ((length + 3) >> 2) - 4; r < words; r++) if (rest[from + r] !== SCRATCH[r]) continue next;
      return i;
    }
  };
  /** A segment that does not pack (longer than PACKED, or not ASCII), against the keys that do not either. */
  const unpacked = (path: string, start: number, length: number, h: number): number => {
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const i = table[at]!;
      if (i === -1) return -1;
      if (lengths[i] === length && path.startsWith(keys[i]!, start)) return i;
    }
  };
  // The lookup itself stays small enough for V8 to inline it into the walk; longer segments go through the functions above.
  return (path, start, n) => {
    let h = FNV_BASIS;
    let end = start;
    // The segment packed as the keys are, while it is scanned: comparing it with a key is then five numbers, not a string.
    let w0 = 0;
    let w1 = 0;
    let w2 = 0;
    let w3 = 0;
    let high = 0;
    for (; end < n; end++) {
      const c = path.charCodeAt(end);
      if (c === SLASH) break;
      h = Math.imul(h ^ c, FNV_PRIME);
      high |= c;
      const k = end - start;
      if (k < 4) w0 = (w0 << 7) | c;
      else if (k < 8) w1 = (w1 << 7) | c;
      else if (k < 12) w2 = (w2 << 7) | c;
      else w3 = (w3 << 7) | c;
    }
    const length = end - start;
    if (high > 127 || length > PACKED) return unpacked(path, start, length, h);
    if (length > 16) return longer(path, start, length, h, w0, w1, w2);
    // Only a packed key can equal a segment that packs: the others are longer or not ASCII.
    for (let at = h & mask; ; at = (at + 1) & mask) {
      const i = table[at]!;
      if (i === -1) return -1;
      const b = 5 * i;
      if (packed[b + 4] === length && packed[b] === w0 && packed[b + 1] === w1 && packed[b + 2] === w2 && packed[b + 3] === w3) return i;
    }
  };
}
