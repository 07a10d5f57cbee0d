// JSON Schema compiled by ajv, required on first use so tables without schemas never load it.
import { createRequire } from 'node:module';
import type { SchemaError } from '../../core/schema/messages.js';
import { MESSAGE_KEYWORD } from '../../core/schema/messages.js';
import type { CompiledSchema, SchemaCompiler, SchemaMode } from '../../core/schema/checks.js';
import type { JsonSchema } from '../../core/types.js';
import { anchoredBody, toRe2Syntax } from '../../core/schema/regexp-syntax.js';

/** The part of an ajv instance sevenfold uses. */
interface Ajv {
  compile(schema: object): { (value: unknown): boolean; errors?: readonly SchemaError[] | null };
  addKeyword(keyword: string | object): unknown;
  removeKeyword(keyword: string): unknown;
}

/** What ajv needs of a pattern: `test`, and a string for its cache key. */
interface Pattern {
  test(text: string): boolean;
  toString(): string;
}

/** The part of ajv's keyword context the pattern keyword reads. */
interface KeywordContext {
  readonly data: unknown;
  readonly schema: string;
  readonly parentSchema: { readonly maxLength?: unknown };
  fail$data(condition: unknown): void;
}

/**
 * Schema patterns compiled for RE2's linear-time engine (re2js, pure JavaScript): no pattern, however
 * written, can make a request's check take more than time linear in its input. Required with ajv.
 */
function linearPattern(pattern: string): Pattern {
  const { RE2JS } = require('re2js') as typeof import('re2js');
  const syntax = toRe2Syntax(pattern);
  const body = anchoredBody(syntax);
  if (body !== undefined) {
    const whole = RE2JS.compile(body);
    return { test: (text) => whole.testExact(text), toString: () => pattern };
  }
  const compiled = RE2JS.compile(syntax);
  return { test: (text) => compiled.test(text), toString: () => pattern };
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
    code: { regExp: linearPattern },
  });
  formats.default(ajv);
  for (const keyword of ANNOTATIONS) ajv.addKeyword(keyword);
  cheapBeforePattern(ajv);
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

/**
 * ajv's `pattern` keyword, run only on a string its sibling `maxLength` lets through: with
 * `allErrors` every keyword runs, so a megabyte the length check refuses would still be searched.
 * The bound is twice `maxLength`, in UTF-16 units, since ajv counts code points.
 */
function cheapBeforePattern(ajv: Ajv): void {
  const { _, str } = require('ajv/dist/compile/codegen') as {
    _: (strings: TemplateStringsArray, ...values: unknown[]) => unknown;
    str: (strings: TemplateStringsArray, ...values: unknown[]) => unknown;
  };
  const { usePattern } = require('ajv/dist/vocabularies/code') as {
    usePattern(cxt: KeywordContext, pattern: string): unknown;
  };
  ajv.removeKeyword('pattern');
  ajv.addKeyword({
    keyword: 'pattern',
    type: 'string',
    schemaType: 'string',
    error: {
      message: ({ schemaCode }: { schemaCode: unknown }) => str`must match pattern "${schemaCode}"`,
      params: ({ schemaCode }: { schemaCode: unknown }) => _`{pattern: ${schemaCode}}`,
    },
    code(cxt: KeywordContext) {
      const pattern = usePattern(cxt, cxt.schema);
      const max = cxt.parentSchema.maxLength;
      if (typeof max === 'number' && Number.isSafeInteger(max) && max >= 0)
        cxt.fail$data(_`${cxt.data}.length <= ${2 * max} && !${pattern}.test(${cxt.data})`);
      else cxt.fail$data(_`!${pattern}.test(${cxt.data})`);
    },
  });
}
