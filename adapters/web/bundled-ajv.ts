// The JSON Schema compiler where there is no `require` (Bun, Deno, Workers): ajv and re2js imported as modules.
import * as ajv2020 from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import * as codegen from 'ajv/dist/compile/codegen/index.js';
import * as vocabulary from 'ajv/dist/vocabularies/code.js';
import * as ucs2length from 'ajv/dist/runtime/ucs2length.js';
import * as equal from 'ajv/dist/runtime/equal.js';
import * as uri from 'ajv/dist/runtime/uri.js';
import * as formats from 'ajv-formats/dist/formats.js';
import { RE2JS } from 're2js';
import { ajvCompiler as compilerOf, linearPattern, type AjvModules } from '../pipeline/ajv-compiler.js';

/** A CommonJS module's export as ESM hands it over: some runtimes wrap `module.exports` in `default`, some twice. */
function unwrap<T>(module: unknown, name: string): T {
  let value = module as Record<string, unknown>;
  for (let depth = 0; depth < 3 && typeof value !== 'function' && !(name in value); depth++)
    value = value.default as Record<string, unknown>;
  return (name in value ? value[name] : value) as T;
}

/** JSON Schema compiled by ajv (2020-12 with ajv-formats), patterns on RE2, each schema object once per mode. */
export const ajvCompiler = compilerOf(
  (): AjvModules => ({
    Ajv2020: unwrap<AjvModules['Ajv2020']>(ajv2020, 'Ajv2020'),
    addFormats: unwrap<AjvModules['addFormats']>(ajvFormats, 'addFormats'),
    _: unwrap<AjvModules['_']>(codegen, '_'),
    str: unwrap<AjvModules['str']>(codegen, 'str'),
    usePattern: unwrap<AjvModules['usePattern']>(vocabulary, 'usePattern'),
    compileRe2,
  }),
  () => ({
    pattern: (pattern) => linearPattern(compileRe2, pattern),
    formats: unwrap<Record<string, unknown>>(formats, 'fullFormats'),
    ucs2length: defaultOf<(text: string) => number>(ucs2length),
    equal: defaultOf<(a: unknown, b: unknown) => boolean>(equal),
    uri: defaultOf<unknown>(uri),
  }),
);

function compileRe2(pattern: string) {
  return RE2JS.compile(pattern);
}

/** A CommonJS module's `exports.default`, however deep the runtime wrapped `module.exports`. */
function defaultOf<T>(module: unknown): T {
  let value = module as { default?: unknown; __esModule?: boolean };
  for (let depth = 0; depth < 3 && typeof value === 'object' && value !== null && 'default' in value; depth++)
    value = value.default as typeof value;
  return value as T;
}
