// JSON Schema compiled by ajv with linear-time patterns, from modules each I/O shell loads its own way.
import { MESSAGE_KEYWORD, type SchemaError } from '../../core/schema/messages.js';
import type { CompiledSchema, SchemaCompiler, SchemaMode } from '../../core/schema/checks.js';
import { anchoredBody, toRe2Syntax } from '../../core/schema/regexp-syntax.js';
import type { JsonSchema } from '../../core/types.js';

/** The part of an ajv instance sevenfold uses. */
interface Ajv {
  compile(schema: object): { (value: unknown): boolean; errors?: readonly SchemaError[] | null };
  addKeyword(keyword: string | object): unknown;
  removeKeyword(keyword: string): unknown;
}

/** A tagged template of ajv's code generator (`_`, `str`). */
type CodeTemplate = (strings: TemplateStringsArray, ...values: unknown[]) => unknown;

/** The part of ajv's keyword context the pattern keyword reads. */
interface KeywordContext {
  readonly data: unknown;
  readonly schema: string;
  readonly parentSchema: { readonly maxLength?: unknown };
  fail$data(condition: unknown): void;
}

/** What RE2JS gives a compiled pattern. */
interface Re2 {
  test(text: string): boolean;
  testExact(text: string): boolean;
}

/** The modules the compiler is made of: ajv 2020 with its formats, its code templates, and re2js. */
export interface AjvModules {
  readonly Ajv2020: new (options: object) => Ajv;
  readonly addFormats: (ajv: Ajv) => void;
  readonly _: CodeTemplate;
  readonly str: CodeTemplate;
  readonly usePattern: (cxt: KeywordContext, pattern: string) => unknown;
  readonly compileRe2: (pattern: string) => Re2;
}

// Annotations OpenAPI documents use beside JSON Schema's own, so ajv's strict mode lets them be.
const ANNOTATIONS = [MESSAGE_KEYWORD, 'example', 'discriminator', 'xml', 'externalDocs'];

/**
 * A compiler of JSON Schema on ajv (2020-12, ajv-formats), each schema object compiled once per
 * mode; `load` is called on the first compile, so a table without schemas never needs the modules.
 */
export function ajvCompiler(load: () => AjvModules): SchemaCompiler {
  let modules: AjvModules | undefined;
  const instances = new Map<SchemaMode, Ajv>();
  const compiled = new Map<SchemaMode, WeakMap<object, CompiledSchema>>();

  function instance(mode: SchemaMode): Ajv {
    let ajv = instances.get(mode);
    if (ajv !== undefined) return ajv;
    const m = (modules ??= load());
    ajv = new m.Ajv2020({
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
      code: { regExp: (pattern: string) => linearPattern(m, pattern) },
    });
    m.addFormats(ajv);
    for (const keyword of ANNOTATIONS) ajv.addKeyword(keyword);
    cheapBeforePattern(m, ajv);
    instances.set(mode, ajv);
    return ajv;
  }

  return {
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
}

/**
 * A schema pattern compiled for RE2's linear-time engine (re2js, pure JavaScript): no pattern,
 * however written, can make a check take more than time linear in its input. A pattern anchored
 * at both ends is tested as a whole string, which RE2 does several times faster than a search.
 */
function linearPattern(m: AjvModules, pattern: string): { test(text: string): boolean; toString(): string } {
  const syntax = toRe2Syntax(pattern);
  const body = anchoredBody(syntax);
  if (body !== undefined) {
    const whole = m.compileRe2(body);
    return { test: (text) => whole.testExact(text), toString: () => pattern };
  }
  const compiled = m.compileRe2(syntax);
  return { test: (text) => compiled.test(text), toString: () => pattern };
}

/**
 * ajv's `pattern` keyword, run only on a string its sibling `maxLength` lets through: with
 * `allErrors` every keyword runs, so a megabyte the length check refuses would still be searched.
 * The bound is twice `maxLength`, in UTF-16 units, since ajv counts code points.
 */
function cheapBeforePattern(m: AjvModules, ajv: Ajv): void {
  const { _, str, usePattern } = m;
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
