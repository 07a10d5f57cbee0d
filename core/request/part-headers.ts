// The header lines of one multipart part: Content-Disposition's parameters, and names sent in UTF-8.
import { HttpError } from '../errors.js';

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

/** What a part's header block says: its field name, its file name when it is a file, and its type. */
export interface PartHeaders {
  readonly name: string;
  readonly filename: string | undefined;
  readonly type: string;
}

/**
 * A part's header block (latin1 text, the lines before its blank line) read; a `400` for a malformed line, a
 * part with no name and a field named `__proto__`.
 */
export function partHeaders(block: string): PartHeaders {
  let disposition: string | undefined;
  let type = 'application/octet-stream';
  for (const line of block.split('\r\n')) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon === -1) throw new HttpError(400, `a multipart part has a malformed header line`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') type = value;
  }
  const params = disposition === undefined ? undefined : dispositionParams(disposition);
  const name = params?.get('name');
  if (name === undefined || name === '')
    throw new HttpError(
      400,
      'a multipart part has no name: each needs Content-Disposition: form-data; name="…"',
    );
  if (name === '__proto__') throw new HttpError(400, 'form field "__proto__" is not allowed');
  const filename = params!.get('filename');
  return { name: utf8(name), filename: filename === undefined ? undefined : utf8(filename), type };
}
