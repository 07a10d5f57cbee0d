// The JSON Schema compiler where there is no `require` (Bun, Deno, Workers): ajv and re2js imported as modules.
import * as ajv2020 from 'ajv/dist/2020.js';
import * as ajvFormats from 'ajv-formats';
import * as codegen from 'ajv/dist/compile/codegen/index.js';
import * as vocabulary from 'ajv/dist/vocabularies/code.js';
import { RE2JS } from 're2js';
import { ajvCompiler as compilerOf, type AjvModules } from '../pipeline/ajv-compiler.js';

/** A CommonJS module's export as ESM hands it over: some runtimes wrap `module.exports` in `default`, some twice. */
function unwrap<T>(module: unknown, name: string): T {
  let value = module as Record<string, unknown>;
  for (let depth = 0; depth < 3 && typeof value !== 'function' && !(name in value); depth++)
    value = value.default as Record<string, unknown>;
  return (name in value ? value[name] : value) as T;
}

/** JSON Schema compiled by ajv (2020-12 with ajv-formats), patterns on RE2, each schema object once per mode. */
export const ajvCompiler = compilerOf((): AjvModules => ({
  Ajv2020: unwrap<AjvModules['Ajv2020']>(ajv2020, 'Ajv2020'),
  addFormats: unwrap<AjvModules['addFormats']>(ajvFormats, 'addFormats'),
  _: unwrap<AjvModules['_']>(codegen, '_'),
  str: unwrap<AjvModules['str']>(codegen, 'str'),
  usePattern: unwrap<AjvModules['usePattern']>(vocabulary, 'usePattern'),
  compileRe2: (pattern) => RE2JS.compile(pattern),
}));
