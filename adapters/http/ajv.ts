// JSON Schema compiled by ajv, required on first use so tables without schemas never load it.
import { createRequire } from 'node:module';
import type { SchemaError } from '../../core/schema/messages.js';
import { MESSAGE_KEYWORD } from '../../core/schema/messages.js';
import type { CompiledSchema, SchemaCompiler, SchemaMode } from '../../core/schema/checks.js';
import type { JsonSchema } from '../../core/types.js';

/** The part of an ajv instance sevenfold uses. */
interface Ajv {
  compile(schema: object): { (value: unknown): boolean; errors?: readonly SchemaError[] | null };
  addKeyword(keyword: string): unknown;
}

// ajv is required on first use, so a table that declares no schema never loads it.
const require = createRequire(import.meta.url);

// Annotations OpenAPI documents use beside JSON Schema's own, so ajv's strict mode lets them be.
const ANNOTATIONS = [MESSAGE_KEYWORD, 'example', 'discriminator', 'xml', 'externalDocs'];

const instances = new Map<SchemaMode, Ajv>();
// A schema object compiled once per mode, however many tables and adapters share it.
const compiled = new Map<SchemaMode, WeakMap<object, CompiledSchema>>();

function instance(mode: SchemaMode): Ajv {
  let ajv = instances.get(mode);
  if (ajv !== undefined) return ajv;
  const Ajv2020 = (require('ajv/dist/2020') as { default: new (options: object) => Ajv }).default;
  const formats = require('ajv-formats') as { default: (ajv: Ajv) => void };
  ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    // Text fields (query, path params, urlencoded bodies) are coerced by type, JSON never; responses are only
    // checked.
    coerceTypes: mode === 'text' ? 'array' : false,
    useDefaults: mode !== 'response',
    // Unknown keywords and formats are refused (a typo is an error), but unions of types are JSON Schema.
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
    logger: false,
  });
  formats.default(ajv);
  for (const keyword of ANNOTATIONS) ajv.addKeyword(keyword);
  instances.set(mode, ajv);
  return ajv;
}

/** JSON Schema compiled by ajv (2020-12 with ajv-formats), each schema object once per mode. */
export const ajvCompiler: SchemaCompiler = {
  compile(schema: JsonSchema, mode: SchemaMode): CompiledSchema {
    let cache = compiled.get(mode);
    if (cache === undefined) compiled.set(mode, (cache = new WeakMap()));
    const known = cache.get(schema);
    if (known !== undefined) return known;
    const validate = instance(mode).compile(schema);
    const check: CompiledSchema = (value) => (validate(value) ? undefined : (validate.errors ?? []));
    cache.set(schema, check);
    return check;
  },
};
