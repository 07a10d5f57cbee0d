// Which fields of a body schema are files: what makes a route take multipart/form-data uploads.
import type { JsonSchema } from '../types.js';

/**
 * Whether a property's schema is a file: `{ type: 'string', format: 'binary' }` (OpenAPI 3.0) or a string with
 * a `contentMediaType` and no `contentEncoding` (OpenAPI 3.1: raw bytes).
 */
export function isFileSchema(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const s = schema as Record<string, unknown>;
  if (s.type !== 'string') return false;
  return s.format === 'binary' || (typeof s.contentMediaType === 'string' && s.contentEncoding === undefined);
}

/** The names of a body schema's file fields (top-level properties only), none for a body without. */
export function fileFields(body: JsonSchema | undefined): readonly string[] {
  const properties = (body as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (properties === undefined || properties === null || typeof properties !== 'object') return [];
  return Object.keys(properties).filter((name) => isFileSchema(properties[name]));
}
