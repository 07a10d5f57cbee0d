// fingerprint(): a short, fast, non-cryptographic name for a body's bytes, the same on every runtime.

/**
 * The fingerprint of `body`'s bytes (text as its UTF-8) under `kind` (a media type, say): its length and 53
 * bits of hash, in base 36 (`"2s-1kx9dg0yq3r"`). Two bodies of the same bytes get the same fingerprint
 * however they were given, text or bytes; it is a validator's value, never a secret's.
 */
export function fingerprint(body: string | Uint8Array, kind = ''): string {
  let h1 = 0x9e3779b9;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < kind.length; i++) {
    const c = kind.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x9e3779b1);
    h2 = Math.imul(h2 ^ c, 0x85ebca77);
  }
  return typeof body === 'string' ? textPrint(body, h1, h2) : bytesPrint(body, h1, h2);
}

const ENCODER = new TextEncoder();
// Text is encoded into this buffer, grown up to a limit, rather than into a new one per body.
let scratch = new Uint8Array(4096);
const MAX_SCRATCH = 256 * 1024;

function textPrint(text: string, h1: number, h2: number): string {
  // Three bytes per UTF-16 unit at most, so a buffer that long always takes the whole text.
  const most = text.length * 3;
  if (most > scratch.length) {
    if (most > MAX_SCRATCH) return bytesPrint(ENCODER.encode(text), h1, h2);
    scratch = new Uint8Array(Math.max(most, scratch.length * 2));
  }
  const { written } = ENCODER.encodeInto(text, scratch);
  return bytesPrint(scratch.subarray(0, written), h1, h2);
}

// Words are read through a typed view only where its byte order is the one the loop below assumes.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * Two 32-bit lanes, four bytes a step: xor, multiply, then a shift that carries the high bits down (a multiply
 * alone only carries them up, so two changed words could cancel out in both lanes).
 */
function bytesPrint(bytes: Uint8Array, h1: number, h2: number): string {
  const n = bytes.length;
  const whole = n & ~3;
  let i = 0;
  if (LITTLE_ENDIAN && (bytes.byteOffset & 3) === 0) {
    const words = new Int32Array(bytes.buffer, bytes.byteOffset, n >>> 2);
    for (let k = 0; k < words.length; k++) {
      const w = words[k]!;
      h1 = Math.imul(h1 ^ w, 0x9e3779b1);
      h1 ^= h1 >>> 15;
      h2 = Math.imul(h2 ^ w, 0x85ebca77);
      h2 ^= h2 >>> 13;
    }
    i = whole;
  }
  for (; i < whole; i += 4) {
    const w = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24);
    h1 = Math.imul(h1 ^ w, 0x9e3779b1);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ w, 0x85ebca77);
    h2 ^= h2 >>> 13;
  }
  for (; i < n; i++) {
    const b = bytes[i]!;
    h1 = Math.imul(h1 ^ b, 0x9e3779b1);
    h1 ^= h1 >>> 15;
    h2 = Math.imul(h2 ^ b, 0x85ebca77);
    h2 ^= h2 >>> 13;
  }
  // cyrb53's finish: each lane folded into the other, 53 bits kept (a double holds them exactly).
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${n.toString(36)}-${(4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(36)}`;
}
