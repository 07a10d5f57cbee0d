// The JSON Schema compiler on node: ajv and re2js required on first use, so tables without schemas never load them.
import { createRequire } from 'node:module';
import {
  ajvCompiler as compilerOf,
  linearPattern,
  validatorGenerator,
  type Ajv,
  type AjvModules,
  type ValidatorGenerator,
} from '../pipeline/ajv-compiler.js';
import type { ValidatorRuntime } from '../pipeline/precompiled.js';

const require = createRequire(import.meta.url);

/** ajv's modules, required once on first use. */
function modules(): AjvModules {
  return {
    Ajv2020: (require('ajv/dist/2020') as { default: AjvModules['Ajv2020'] }).default,
    addFormats: (require('ajv-formats') as { default: AjvModules['addFormats'] }).default,
    ...(require('ajv/dist/compile/codegen') as Pick<AjvModules, '_' | 'str'>),
    usePattern: (require('ajv/dist/vocabularies/code') as Pick<AjvModules, 'usePattern'>).usePattern,
    compileRe2,
  };
}

const compileRe2 = (pattern: string) => (require('re2js') as typeof import('re2js')).RE2JS.compile(pattern);

/** What precompiled validators call: ajv's run-time helpers alone, not its compiler. */
export function validatorRuntime(): ValidatorRuntime {
  return {
    pattern: (pattern) => linearPattern(compileRe2, pattern),
    formats: (require('ajv-formats/dist/formats') as { fullFormats: Record<string, unknown> }).fullFormats,
    ucs2length: (require('ajv/dist/runtime/ucs2length') as { default: (text: string) => number }).default,
    equal: (require('ajv/dist/runtime/equal') as { default: (a: unknown, b: unknown) => boolean }).default,
    uri: (require('ajv/dist/runtime/uri') as { default: unknown }).default,
  };
}

/** JSON Schema compiled by ajv (2020-12 with ajv-formats), patterns on RE2, each schema object once per mode. */
export const ajvCompiler = compilerOf(modules, validatorRuntime);

/** What `sevenfold validators` compiles a table's schemas with, printed as ajv's standalone code. */
export function standaloneGenerator(): ValidatorGenerator {
  const standalone = require('ajv/dist/standalone') as {
    default: (ajv: Ajv, refs: Record<string, string>) => string;
  };
  return validatorGenerator(modules(), standalone.default);
}

/** The version of ajv the validators are compiled with, for the generated module's header. */
export function ajvVersion(): string {
  return (require('ajv/package.json') as { version: string }).version;
}
