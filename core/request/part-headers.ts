// The header lines of one multipart part: Content-Disposition's parameters, and names sent in UTF-8.

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/** Header text came in as latin1 (one char per byte); browsers send names in UTF-8. */
export function utf8(latin1: string): string {
  const bytes = Uint8Array.from(latin1, (c) => c.charCodeAt(0));
  try {
    return UTF8.decode(bytes);
  } catch {
    return latin1;
  }
}

/** The parameters of `form-data; name="a"; filename="b.txt"` (quoted or not, with `\"` escapes). */
export function dispositionParams(value: string): Map<string, string> | undefined {
  const params = new Map<string, string>();
  const kind = /^\s*form-data\s*(;|$)/i.exec(value);
  if (kind === null) return undefined;
  const pattern = /;?\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/gy;
  pattern.lastIndex = kind[0].length - (kind[1] === ';' ? 1 : 0);
  let found: RegExpExecArray | null;
  while ((found = pattern.exec(value)) !== null) {
    const key = found[1]!.toLowerCase();
    if (!params.has(key))
      params.set(key, found[2] !== undefined ? found[2].replace(/\\(.)/g, '$1') : found[3]!.trim());
  }
  return params;
}
