// JSON Schema patterns (ECMA-262, with the `u` flag) rewritten for a linear-time RE2 engine, with
// JavaScript's meaning kept.

// JavaScript's \s, as code point ranges: RE2's \s is ASCII only.
const SPACES: ReadonlyArray<readonly [number, number]> = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

const hex = (code: number) => `\\x{${code.toString(16)}}`;
const ranges = (list: ReadonlyArray<readonly [number, number]>) =>
  list.map(([lo, hi]) => (lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`)).join('');

/**
 * Every code point JavaScript's \S matches, for use inside a class where RE2 has no negated escape to offer.
 */
function complement(list: ReadonlyArray<readonly [number, number]>): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let next = 0;
  for (const [lo, hi] of list) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  out.push([next, 0x10ffff]);
  return out;
}

const SPACE = ranges(SPACES);
const NOT_SPACE = ranges(complement(SPACES));
// JavaScript's `.` without the s flag: anything but a line terminator (RE2's stops at \n only).
const ANY_BUT_LINE_END = '[^\\n\\r\\x{2028}\\x{2029}]';

/** A pattern the linear-time engine cannot run, with the construct that stops it. */
export class UnsupportedPattern extends Error {
  constructor(pattern: string, construct: string) {
    super(
      `pattern ${JSON.stringify(pattern)} uses ${construct}, which a linear-time engine cannot run; ` +
        'rewrite it without lookarounds and backreferences (patterns run in linear time, so no input can stall the server)',
    );
    this.name = 'UnsupportedPattern';
  }
}

/**
 * The pattern in RE2 syntax, matching what JavaScript would: `\s`, `\S` and `.` as JavaScript
 * reads them, `\uXXXX` and `\u{…}` as `\x{…}` (a surrogate pair as its one code point). Lookarounds
 * and backreferences throw `UnsupportedPattern`: they are what makes a pattern exponential.
 */
export function toRe2Syntax(pattern: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const e = pattern[++i];
      if (e === undefined) return out + '\\\\';
      if (e === 's') out += inClass ? SPACE : `[${SPACE}]`;
      else if (e === 'S') out += inClass ? NOT_SPACE : `[${NOT_SPACE}]`;
      else if (e === 'u') {
        const [code, end] = unicodeEscape(pattern, i);
        i = end;
        out += hex(code);
      } else if (e === '0' && !/[0-9]/.test(pattern[i + 1] ?? '')) out += hex(0);
      else if (/[1-9]/.test(e) || e === 'k') throw new UnsupportedPattern(pattern, 'a backreference');
      else if (e === 'c') throw new UnsupportedPattern(pattern, 'a control escape (\\c)');
      else out += `\\${e}`;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
      // A negated class keeps its `^` where it is.
      if (pattern[i + 1] === '^') out += pattern[++i];
    } else if (c === '.') out += ANY_BUT_LINE_END;
    else if (c === '(' && pattern[i + 1] === '?' && /^(=|!|<=|<!)/.test(pattern.slice(i + 2, i + 4)))
      throw new UnsupportedPattern(pattern, 'a lookaround');
    else out += c;
  }
  return out;
}

/** The code point of the `\u` escape whose `u` is at `at`, and the index of its last character. */
function unicodeEscape(pattern: string, at: number): [number, number] {
  if (pattern[at + 1] === '{') {
    const close = pattern.indexOf('}', at);
    return [parseInt(pattern.slice(at + 2, close), 16), close];
  }
  const code = parseInt(pattern.slice(at + 1, at + 5), 16);
  // A high surrogate written before its low one is one code point, as JavaScript's `u` flag reads it.
  if (code >= 0xd800 && code <= 0xdbff && pattern.startsWith('\\u', at + 5)) {
    const low = parseInt(pattern.slice(at + 7, at + 11), 16);
    if (low >= 0xdc00 && low <= 0xdfff) return [0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00), at + 10];
  }
  return [code, at + 4];
}

/**
 * The pattern between `^` and `$` when both anchor the whole of it (no `|` outside a group or
 * class), else `undefined`: RE2 tests a whole string several times faster than it searches one.
 */
export function anchoredBody(pattern: string): string | undefined {
  if (!pattern.startsWith('^') || !pattern.endsWith('$')) return undefined;
  let depth = 0;
  let inClass = false;
  let i = 1;
  for (; i < pattern.length - 1; i++) {
    const c = pattern[i]!;
    if (c === '\\') i++;
    else if (inClass) inClass = c !== ']';
    else if (c === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
    } else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return undefined;
  }
  // The `$` is an anchor only when no backslash escapes it (`i` stepped past it if one did).
  return i === pattern.length - 1 && !inClass ? pattern.slice(1, -1) : undefined;
}
