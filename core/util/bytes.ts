// Byte arrays searched and joined, with no Buffer: core runs on every runtime.

/** Where `needle` first occurs in `bytes`, or -1. */
export function indexOf(bytes: Uint8Array, needle: Uint8Array): number {
  const first = needle[0]!;
  const last = bytes.byteLength - needle.byteLength;
  for (let at = bytes.indexOf(first); at !== -1 && at <= last; at = bytes.indexOf(first, at + 1)) {
    let i = 1;
    while (i < needle.byteLength && bytes[at + i] === needle[i]) i++;
    if (i === needle.byteLength) return at;
  }
  return -1;
}

/** `a` then `b`, in one new array. */
export function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/** The chunks, `size` bytes in all, in one new array. */
export function concatAll(chunks: readonly Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) (out.set(chunk, at), (at += chunk.byteLength));
  return out;
}
