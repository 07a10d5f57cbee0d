// Method override: an HTML form can only GET and POST, so a POST names the method it means in a field.

/** A method a form may ask for with its `_method` field. */
export type OverrideMethod = 'PUT' | 'PATCH' | 'DELETE';

/**
 * The methods a form may ask for: what the request path honours, OpenAPI documents and `paths().form()`
 * builds.
 */
export const OVERRIDE_METHODS: ReadonlySet<string> = new Set<OverrideMethod>(['PUT', 'PATCH', 'DELETE']);

/** The field a form names its real method in, as Rails and Laravel call it. */
export const METHOD_FIELD = '_method';

/**
 * The method a parsed urlencoded POST body asks for, removing its `_method` field; `undefined`
 * (and the body untouched) unless the field is one `PUT`, `PATCH` or `DELETE`, in any letter case.
 */
export function overriddenMethod(body: Record<string, unknown>): OverrideMethod | undefined {
  const method = methodNamed(body[METHOD_FIELD]);
  if (method !== undefined) delete body[METHOD_FIELD];
  return method;
}

/** The method a `_method` value names: `PUT`, `PATCH` or `DELETE` in any letter case, else `undefined`. */
export function methodNamed(asked: unknown): OverrideMethod | undefined {
  if (typeof asked !== 'string') return undefined;
  const method = asked.toUpperCase();
  return OVERRIDE_METHODS.has(method) ? (method as OverrideMethod) : undefined;
}

/** Whether a Content-Type is urlencoded: a form whose `_method` field is read in full before matching. */
export function isUrlencoded(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType);
}

/** Whether a Content-Type is multipart/form-data: a form whose first part alone is read for `_method`. */
export function isMultipart(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType);
}
