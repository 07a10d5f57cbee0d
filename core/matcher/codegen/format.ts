/**
 * Lays generated code out a statement a line, indented by block, so that what runs is what a
 * person reads in `Matcher.source`. It knows only the code the generators write: string
 * literals are copied whole, `{ … }` after `return` is an object literal and stays on its
 * line, and `} else {` stays together.
 */
export function formatCode(code: string): string {
  const lines: string[] = [];
  let line = '';
  let depth = 0;
  // How deep inside an object literal the text is: its braces and semicolons do not break lines.
  let literal = 0;
  const flush = (): void => {
    const text = line.trim();
    if (text !== '') lines.push('  '.repeat(depth) + text);
    line = '';
  };
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === '"' || c === "'") {
      const end = stringEnd(code, i);
      line += code.slice(i, end);
      i = end - 1;
    } else if (c === '{' && (literal > 0 || /\breturn\s*$/.test(line))) {
      literal++;
      line += c;
    } else if (c === '}' && literal > 0) {
      literal--;
      line += c;
    } else if (c === '{') {
      line += c;
      flush();
      depth++;
    } else if (c === '}') {
      flush();
      depth--;
      line = '}';
      // `} else {` reads as one line; anything else starts a new one.
      if (!/^\s*else\b/.test(code.slice(i + 1))) flush();
    } else if (c === ';' && literal === 0) {
      line += c;
      flush();
    } else if (c === ':' && literal === 0 && /^\s*(case\b.*|default)$/.test(line)) {
      line += c;
      // `case 97: {` reads as one line; a case without a block ends its line at the colon.
      if (!/^\s*\{/.test(code.slice(i + 1))) flush();
    } else {
      line += c;
    }
  }
  flush();
  return lines.join('\n');
}

/** The index just past the string literal that starts at `start`. */
function stringEnd(code: string, start: number): number {
  const quote = code[start];
  let i = start + 1;
  while (i < code.length && code[i] !== quote) i += code[i] === '\\' ? 2 : 1;
  return i + 1;
}
