// JSON Schema compiled by ajv with linear-time patterns, from modules each I/O shell loads its own way.
import { MESSAGE_KEYWORD } from '../../core/schema/messages.js';
import {
  SchemaCompilerError,
  type CompiledSchema,
  type SchemaCompiler,
  type SchemaMode,
} from '../../core/schema/checks.js';
import { anchoredBody, toRe2Syntax } from '../../core/schema/regexp-syntax.js';
import {
  checkOf,
  precompiledCompiler,
  schemaKey,
  type PrecompiledValidator,
  type PrecompiledValidators,
  type ValidatorRuntime,
} from './precompiled.js';
import type { JsonSchema } from '../../core/types.js';

/** The part of an ajv instance sevenfold uses. */
export interface Ajv {
  compile(schema: object): PrecompiledValidator;
  addSchema(schema: object, key: string): unknown;
  getSchema(key: string): PrecompiledValidator | undefined;
  addKeyword(keyword: string | object): unknown;
  removeKeyword(keyword: string): unknown;
  validateSchema(schema: object): boolean | Promise<unknown>;
  errorsText(): string;
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
export interface Re2 {
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

/** ajv as the adapters use it: schemas compiled as they come, or looked up in precompiled validators. */
export interface AjvCompiler extends SchemaCompiler {
  precompiled(validators: PrecompiledValidators): SchemaCompiler;
}

/**
 * A compiler of JSON Schema on ajv (2020-12, ajv-formats), each schema object compiled once per
 * mode; `load` is called on the first compile, so a table without schemas never needs the modules.
 */
export function ajvCompiler(load: () => AjvModules, runtime: () => ValidatorRuntime): AjvCompiler {
  let modules: AjvModules | undefined;
  // Checks every schema against JSON Schema's own: one compiled meta-schema (the slowest compile at start-up)
  // for all modes, where each mode's instance would compile its own.
  let meta: Ajv | undefined;
  const valid = new WeakSet<object>();
  const instances = new Map<SchemaMode, Ajv>();
  const compiled = new Map<SchemaMode, WeakMap<object, CompiledSchema>>();

  function instance(mode: SchemaMode): Ajv {
    let ajv = instances.get(mode);
    if (ajv !== undefined) return ajv;
    ajv = newAjv((modules ??= load()), mode, false);
    instances.set(mode, ajv);
    return ajv;
  }

  /** Throws what ajv throws for a schema its meta-schema refuses, once per schema object. */
  function validateSchema(schema: JsonSchema): void {
    if (valid.has(schema)) return;
    meta ??= new (modules ??= load()).Ajv2020({ logger: false });
    if (meta.validateSchema(schema) !== true) throw new Error(`schema is invalid: ${meta.errorsText()}`);
    valid.add(schema);
  }

  return {
    // Precompiled validators need only ajv's small run-time helpers, never its compiler.
    precompiled: (validators) => precompiledCompiler(runtime, validators),
    compile(schema: JsonSchema, mode: SchemaMode): CompiledSchema {
      let cache = compiled.get(mode);
      if (cache === undefined) compiled.set(mode, (cache = new WeakMap()));
      const known = cache.get(schema);
      if (known !== undefined) return known;
      let validate;
      try {
        validateSchema(schema);
        validate = instance(mode).compile(schema);
      } catch (error) {
        if (error instanceof EvalError) throw new SchemaCompilerError(CODEGEN_REFUSED);
        throw error;
      }
      const check = checkOf(validate);
      cache.set(schema, check);
      return check;
    },
  };
}

const CODEGEN_REFUSED =
  'this runtime refuses code generation (`new Function`), which compiling a JSON Schema needs: generate the ' +
  "table's validators ahead of time with `npx sevenfold validators <module> --out validators.js` and pass them " +
  'as the `validators` option (docs/runtimes.md)';

/** An ajv instance for `mode`; `standalone` keeps each validator's source and has it call `R` for its helpers. */
function newAjv(m: AjvModules, mode: SchemaMode, standalone: boolean): Ajv {
  const regExp = Object.assign((pattern: string) => linearPattern(m.compileRe2, pattern), {
    code: 'R.pattern',
  });
  const ajv = new m.Ajv2020({
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
    // A schema is checked against the meta-schema once, by the compiler's own instance (ajvCompiler), while
    // generated modules keep ajv's check.
    validateSchema: standalone,
    code: standalone ? { regExp, source: true, lines: true, formats: m._`R.formats` } : { regExp },
  });
  m.addFormats(ajv);
  for (const keyword of ANNOTATIONS) ajv.addKeyword(keyword);
  cheapBeforePattern(m, ajv);
  return ajv;
}

/** Records the schemas a table compiles, then prints them as one ES module of precompiled validators. */
export interface ValidatorGenerator extends SchemaCompiler {
  /** How many schemas (per mode) it holds so far. */
  size(): number;
  /** The module's text, JavaScript or TypeScript (type-checking off); `header` is its first comment's text. */
  print(header: string, typescript: boolean): string;
}

/** ajv's sourceURL comment naming a schema's `$id`, the JSON-quoted `$id` matched whole (escapes included). */
const SOURCE_URL = /\/\*# sourceURL=("(?:[^"\\]|\\.)*") \*\//g;

/**
 * The generator behind `sevenfold validators`: each schema compiled by an ajv instance with the options the
 * adapters use, its source kept, and printed with ajv's standalone code as a module that imports nothing.
 */
export function validatorGenerator(
  m: AjvModules,
  standaloneCode: (ajv: Ajv, refs: Record<string, string>) => string,
): ValidatorGenerator {
  const modes = new Map<SchemaMode, { ajv: Ajv; refs: Record<string, string> }>();
  // Each key's JSON, so a hash collision is an error rather than one schema checked by another's validator.
  const texts = new Map<string, string>();
  // Each `$id`'s schema object per mode: ajv refuses two objects with one `$id`, and so must the generator.
  const ids = new Map<string, object>();
  return {
    compile(schema: JsonSchema, mode: SchemaMode): CompiledSchema {
      let entry = modes.get(mode);
      if (entry === undefined) modes.set(mode, (entry = { ajv: newAjv(m, mode, true), refs: {} }));
      const id = (schema as { $id?: unknown }).$id;
      if (typeof id === 'string') {
        const seen = ids.get(`${mode}\0${id}`);
        if (seen !== undefined && seen !== schema)
          throw new Error(`schema with key or id "${id}" already exists`);
        ids.set(`${mode}\0${id}`, schema);
      }
      const key = schemaKey(schema, mode);
      const text = JSON.stringify(schema);
      const known = texts.get(key);
      if (known !== undefined && known !== text)
        throw new Error(`two different schemas hash to ${key}; please report this to sevenfold`);
      if (known === undefined) {
        texts.set(key, text);
        entry.ajv.addSchema(schema, key);
        if (entry.ajv.getSchema(key) === undefined) throw new Error(`ajv did not compile ${key}`);
        entry.refs[key] = key;
      }
      return () => undefined;
    },
    size: () => texts.size,
    print(header, typescript) {
      const parts = [...modes].map(([mode, { ajv, refs }]) => {
        // A module is strict already; inside a function the directive would be a stray expression.
        const code = standaloneCode(ajv, refs)
          .replace(/^"use strict";\n?/, '')
          // ajv names each schema's `$id` in a comment, quoted but free to hold `*/`: the whole comment goes,
          // so no schema text reaches the module outside a string literal.
          .replace(SOURCE_URL, '')
          .replace(/require\("ajv\/dist\/runtime\/(ucs2length|equal|uri)"\)\.default/g, 'R.$1');
        // ajv writes a schema's strings JSON-quoted, so an unescaped `require("` can only be code.
        const left = /\brequire\("[^"]*"\)/.exec(code);
        if (left !== null)
          throw new Error(
            `the validators need ${left[0]}, which sevenfold does not hand to precompiled code`,
          );
        return `  // Read as ${mode}.\n  Object.assign(validators, (() => {\n    const exports = {};\n${code}\n    return exports;\n  })());`;
      });
      return [
        ...header.split('\n').map((line) => `// ${line}`.trimEnd()),
        ...(typescript
          ? [
              '// @ts-nocheck',
              "import type { PrecompiledValidators } from 'sevenfold/fetch';",
              '',
              'const precompiled: PrecompiledValidators = (R) => {',
            ]
          : ['', 'export default function precompiled(R) {']),
        '  const validators = {};',
        ...parts,
        '  return { format: 1, validators };',
        typescript ? '};\nexport default precompiled;' : '}',
        '',
      ].join('\n');
    },
  };
}

/**
 * A schema pattern compiled for RE2's linear-time engine (re2js, pure JavaScript): no pattern,
 * however written, can make a check take more than time linear in its input. A pattern anchored
 * at both ends is tested as a whole string, which RE2 does several times faster than a search.
 */
export function linearPattern(
  compileRe2: (pattern: string) => Re2,
  pattern: string,
): { test(text: string): boolean; toString(): string } {
  const syntax = toRe2Syntax(pattern);
  const body = anchoredBody(syntax);
  if (body !== undefined) {
    const whole = compileRe2(body);
    return { test: (text) => whole.testExact(text), toString: () => pattern };
  }
  const compiled = compileRe2(syntax);
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
