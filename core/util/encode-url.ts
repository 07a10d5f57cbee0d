// A route's path with its params filled in and a query string, percent-encoded: shared by paths() and the client.

/** Query values a URL is written with: `undefined` is left out, an array repeats its key. */
export type QueryValues = {
  readonly [key: string]: string | number | boolean | readonly (string | number | boolean)[] | undefined;
};

/**
 * The path pattern `path` with each `:param` replaced by its value from `params`, percent-encoded as one
 * segment; a `TypeError` starting with `where` for a missing, empty or dot-segment value, or a key the path
 * does not name (`hint` may add a suggestion for it).
 */
export function fillPath(
  path: string,
  params: unknown,
  where: string,
  hint: (key: string, names: readonly string[]) => string = () => '',
): string {
  const segments = path.split('/');
  const names = segments.filter((s) => s[0] === ':').map((s) => s.slice(1));
  if (params !== undefined && (params === null || typeof params !== 'object' || Array.isArray(params)))
    throw new TypeError(`${where}: params must be an object such as { ${names[0] ?? ''} }`);
  const given = (params ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!names.includes(key)) {
      throw new TypeError(
        `${where}: "${key}" is not a param of ${path}${hint(key, names)}; it takes ${names.join(', ') || 'none'}`,
      );
    }
  }
  // Segment by segment, so a value can never be read as a param's name.
  return segments
    .map((segment) => {
      if (segment[0] !== ':') return segment;
      const name = segment.slice(1);
      const value = given[name];
      if (!(
        (typeof value === 'string' && value !== '') ||
        (typeof value === 'number' && Number.isFinite(value))
      ))
        throw new TypeError(`${where}: missing value for :${name} (a non-empty string or a finite number)`);
      // Browsers and URL parsers drop "." and ".." segments, even percent-encoded: no link could reach them.
      if (value === '.' || value === '..') {
        throw new TypeError(
          `${where}: :${name} cannot be ${JSON.stringify(value)}: URL parsers resolve it as a dot segment, so no link could carry it`,
        );
      }
      return encodeURIComponent(value);
    })
    .join('/');
}

/** `?a=1&tag=x&tag=y` from query values, each encoded; `''` when there are none. */
export function queryString(query: unknown, where: string): string {
  if (query === undefined) return '';
  if (query === null || typeof query !== 'object' || Array.isArray(query))
    throw new TypeError(`${where}: the query must be an object such as { limit: 10 }`);
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined) continue;
      if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') {
        throw new TypeError(
          `${where}: query value "${key}" must be a string, number or boolean, got ${typeof item}`,
        );
      }
      pairs.push(`${encodeURIComponent(key)}=${encodeURIComponent(item)}`);
    }
  }
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}
