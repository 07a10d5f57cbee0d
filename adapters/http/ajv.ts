// The JSON Schema compiler on node: ajv and re2js required on first use, so tables without schemas never load them.
import { createRequire } from 'node:module';
import { ajvCompiler as compilerOf, type AjvModules } from '../pipeline/ajv-compiler.js';

const require = createRequire(import.meta.url);

/** JSON Schema compiled by ajv (2020-12 with ajv-formats), patterns on RE2, each schema object once per mode. */
export const ajvCompiler = compilerOf((): AjvModules => ({
  Ajv2020: (require('ajv/dist/2020') as { default: AjvModules['Ajv2020'] }).default,
  addFormats: (require('ajv-formats') as { default: AjvModules['addFormats'] }).default,
  ...(require('ajv/dist/compile/codegen') as Pick<AjvModules, '_' | 'str'>),
  usePattern: (require('ajv/dist/vocabularies/code') as Pick<AjvModules, 'usePattern'>).usePattern,
  compileRe2: (pattern) => (require('re2js') as typeof import('re2js')).RE2JS.compile(pattern),
}));
