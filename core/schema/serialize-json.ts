// How JSON.stringify writes one value, for the serializers: strings (escapes included), numbers, and which
// objects are plain data whose own properties can be told from Object.prototype's without asking.

// A run of characters JSON.stringify writes as they are, from lastIndex (where `*` always matches, so `g`
// searches no further): a string with a character to escape is scanned once, never backtracked over, and
// measured faster than the sticky flag and than an anchored test of the whole string.
const RUN = /[^\x00-\x1f"\\\ud800-\udfff]*/g;

// How JSON.stringify writes the characters it escapes, below U+0020 and the quote and backslash.
const ESCAPES = Array.from({ length: 93 }, (_, code) =>
  code < 0x20 || code === 0x22 || code === 0x5c ? JSON.stringify(String.fromCharCode(code)).slice(1, -1) : '',
);

/** How many characters from the start of `text` JSON.stringify writes as they are: all of them, mostly. */
export function plainLength(text: string): number {
  RUN.lastIndex = 0;
  RUN.test(text);
  return RUN.lastIndex;
}

/** A string as JSON.stringify writes it. */
export function quote(text: string): string {
  const plain = plainLength(text);
  return plain === text.length ? `"${text}"` : escaped(text, plain);
}

/**
 * A string as JSON.stringify writes it, its first `plain` characters known to need no escape: escapes
 * written as JSON.stringify writes them (a surrogate pair as it is, a lone surrogate as \udxxx).
 */
export function escaped(text: string, plain: number): string {
  let out = '"';
  let from = 0;
  let end = plain;
  for (;;) {
    out += text.slice(from, end);
    if (end === text.length) return `${out}"`;
    const code = text.charCodeAt(end);
    from = end + 1;
    if (code < 0xd800) out += ESCAPES[code];
    else if (code < 0xdc00 && from < text.length && (text.charCodeAt(from) & 0xfc00) === 0xdc00) {
      out += text.slice(end, from + 1);
      from++;
    } else out += `\\u${code.toString(16)}`;
    RUN.lastIndex = from;
    RUN.test(text);
    end = RUN.lastIndex;
  }
}

/** A number as JSON.stringify writes it. */
export function finite(n: number): string {
  return Number.isFinite(n) ? `${n}` : 'null';
}

/** Whether an object is plain data (its prototype Object.prototype or none), which the fast steps take. */
export function isPlain(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * Whether plain data can inherit something under `name` other than by value: an accessor of
 * Object.prototype (`__proto__`), whose value is not the one a plain object inherits, so that only
 * Object.hasOwn says whether the object has its own.
 */
export function inherits(name: string): boolean {
  return Object.getOwnPropertyDescriptor(Object.prototype, name)?.get !== undefined;
}
