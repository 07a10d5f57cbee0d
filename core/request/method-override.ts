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
  const asked = body[METHOD_FIELD];
  if (typeof asked !== 'string') return undefined;
  const method = asked.toUpperCase();
  if (!OVERRIDE_METHODS.has(method)) return undefined;
  delete body[METHOD_FIELD];
  return method as OverrideMethod;
}

/** Whether a Content-Type is urlencoded, the only body method override reads. */
export function isUrlencoded(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*application\/x-www-form-urlencoded\s*(;|$)/i.test(contentType);
}
