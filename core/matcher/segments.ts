/** The rules every walk shares about path segments, and the character codes they read. */

export const SLASH = 47; // '/'
export const DOT = 46; // '.'
export const PERCENT = 37; // '%'

// Control characters in a decoded segment are never part of a legitimate resource path.
export const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * Where a path ends once one trailing slash is dropped (`/posts/` ends where `/posts` does); `/` stays whole.
 */
export function trimmedEnd(path: string): number {
  return path.length > 1 && path.charCodeAt(path.length - 1) === SLASH ? path.length - 1 : path.length;
}

/** Whether `path[start, end)` is `.` or `..`, which must be refused. */
export function isDotSegment(path: string, start: number, end: number): boolean {
  return (
    path.charCodeAt(start) === DOT &&
    (end - start === 1 || (end - start === 2 && path.charCodeAt(start + 1) === DOT))
  );
}

/** The same test as generated code, for the segment from `p{k}` to `e{k}`. */
export function isDotSegmentCode(k: number): string {
  return `path.charCodeAt(p${k}) === ${DOT} && (e${k} - p${k} === 1 || (e${k} - p${k} === 2 && path.charCodeAt(p${k} + 1) === ${DOT}))`;
}

/**
 * The code finding the end of segment `k` into `e{k}`; an escape in it returns `C`, to decode the path first.
 */
export function segmentEndCode(k: number): string {
  return `let e${k} = p${k}; while (e${k} < n) { const c = path.charCodeAt(e${k}); if (c === ${SLASH}) break; if (c === ${PERCENT}) return C; e${k}++; } `;
}

/** A percent-decoded segment, or `undefined` where its encoding is malformed. */
export function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}
