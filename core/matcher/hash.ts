// The hash lookup of a wide node: FNV-1a of the segment computed while the path is read.
import type { WideLookup } from './wide.js';

/**
 * The lookup of a wide node by hash, for key sets a decision tree serves badly: FNV-1a of the
 * segment computed while it is read, keys compared as packed numbers.
 */

// Keys of up to this many ASCII characters are compared as packed numbers (four seven-bit characters to a
// 32-bit word).
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
  // Each key packed exactly, seven bits a character and four to a word: four words and the length in `packed`
  // (-1 when it cannot be), more in `rest`.
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
  /**
   * A segment of 17 to PACKED ASCII characters: its fourth word and the words past it packed again from the
   * path, then compared.
   */
  const longer = (
    path: string,
    start: number,
    length: number,
    h: number,
    w0: number,
    w1: number,
    w2: number,
  ): number => {
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
      if (
        packed[b + 4] !== length ||
        packed[b] !== w0 ||
        packed[b + 1] !== w1 ||
        packed[b + 2] !== w2 ||
        packed[b + 3] !== w3
      )
        continue;
      for (let r = 0, from = restAt[i]!, words = ((length + 3) >> 2) - 4; r < words; r++)
        if (rest[from + r] !== SCRATCH[r]) continue next;
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
  // The lookup itself stays small enough for V8 to inline it into the walk; longer segments go through the
  // functions above.
  return (path, start, n) => {
    let h = FNV_BASIS;
    let end = start;
    // The segment packed as the keys are, while it is scanned: comparing it with a key is then five numbers,
    // not a string.
    let w0 = 0;
    let w1 = 0;
    let w2 = 0;
    let w3 = 0;
    let high = 0;
    for (; end < n; end++) {
      const c = path.charCodeAt(end);
      if (c === 47 /* / */) break;
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
      if (
        packed[b + 4] === length &&
        packed[b] === w0 &&
        packed[b + 1] === w1 &&
        packed[b + 2] === w2 &&
        packed[b + 3] === w3
      )
        return i;
    }
  };
}
