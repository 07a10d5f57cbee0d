// Response headers as plain records: one home for case-insensitive lookup, merging and Vary.

/** The key under which `headers` holds the header `lower` (a lower-case name), whatever its letter case. */
export function headerKey(headers: Readonly<Record<string, string>>, lower: string): string | undefined {
  for (const name of Object.keys(headers)) {
    // Lengths differ for almost every pair, which settles it without lower-casing the name.
    if (name.length === lower.length && name.toLowerCase() === lower) return name;
  }
  return undefined;
}

/** Sets headers over others whatever their letter case, so `content-type` replaces `Content-Type`. */
export function setHeaders(target: Record<string, string>, source: Readonly<Record<string, string>>): void {
  for (const name of Object.keys(source)) {
    let lower: string | undefined;
    for (const existing of Object.keys(target)) {
      if (existing === name || existing.length !== name.length) continue;
      if (existing.toLowerCase() === (lower ??= name.toLowerCase())) delete target[existing];
    }
    target[name] = source[name]!;
  }
}

/** Adds `field` (e.g. `Accept`) to the headers' Vary, once, under the name `Vary`; `*` already covers it. */
export function addVary(headers: Record<string, string>, field: string): void {
  const key = headerKey(headers, 'vary');
  const vary = key === undefined ? undefined : headers[key]!;
  if (key !== undefined) delete headers[key];
  const listed =
    vary !== undefined &&
    vary.split(',').some((token) => {
      const name = token.trim().toLowerCase();
      return name === '*' || name === field.toLowerCase();
    });
  headers.Vary = vary === undefined ? field : listed ? vary : `${vary}, ${field}`;
}

// What node's http module refuses in a header (and Web Headers too): control characters and anything past
// Latin-1 in a value, anything but a token in a name.
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The first header (its name) that no platform would send as it is, or `undefined` when all can be. */
export function unsendableHeader(
  headers: Readonly<Record<string, string>>,
  cookies?: readonly string[],
): string | undefined {
  for (const name of Object.keys(headers)) {
    if (!NAME.test(name) || BAD_VALUE.test(String(headers[name]))) return JSON.stringify(name);
  }
  if (cookies !== undefined)
    for (const line of cookies) if (BAD_VALUE.test(String(line))) return '"Set-Cookie"';
  return undefined;
}
