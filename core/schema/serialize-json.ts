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
  let out = `"${text.slice(0, plain)}`;
  let at = plain;
  let steps = 0;
  while (at < text.length) {
    // Text dense in escapes (tabbed columns, JSON in a string, emoji) costs more in steps here than
    // JSON.stringify takes for it whole, measured past one step per dozen characters.
    if (++steps > 4 && steps * 12 > at) return JSON.stringify(text);
    const code = text.charCodeAt(at);
    // Escapes often come together (\r\n, a line break before a quote): the next character is read here,
    // and only a character written as it is sends the scan back to the regexp.
    if (code < 0x20 || code === 0x22 || code === 0x5c) {
      out += ESCAPES[code];
      at++;
    } else if (code < 0xd800 || code > 0xdfff) {
      RUN.lastIndex = at;
      RUN.test(text);
      out += text.slice(at, RUN.lastIndex);
      at = RUN.lastIndex;
    } else if (code < 0xdc00 && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) {
      out += text.slice(at, at + 2);
      at += 2;
    } else {
      out += `\\u${code.toString(16)}`;
      at++;
    }
  }
  return `${out}"`;
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
