// Precompiled validators: what `sevenfold validators` writes, and the compiler that looks schemas up in it.
import {
  SchemaCompilerError,
  type CompiledSchema,
  type SchemaCompiler,
  type SchemaMode,
} from '../../core/schema/checks.js';
import type { SchemaError } from '../../core/schema/messages.js';
import type { JsonSchema } from '../../core/types.js';

/**
 * What precompiled validators (`sevenfold validators`) call at run time: ajv's helpers, ajv-formats'
 * formats and the linear-time pattern engine, handed over by the adapter that runs them.
 */
export interface ValidatorRuntime {
  readonly pattern: (pattern: string) => { test(text: string): boolean };
  readonly formats: Readonly<Record<string, unknown>>;
  readonly ucs2length: (text: string) => number;
  readonly equal: (a: unknown, b: unknown) => boolean;
  readonly uri: unknown;
}

/** A precompiled validator: ajv's, with its errors on the function after a failed call. */
export interface PrecompiledValidator {
  (value: unknown): boolean;
  errors?: readonly SchemaError[] | null;
}

/**
 * A module `sevenfold validators` generated from a table: its JSON Schemas compiled ahead of time, for runtimes
 * that refuse code generation (Cloudflare Workers) and for a faster start. Pass it as the `validators` option.
 */
export type PrecompiledValidators = (runtime: ValidatorRuntime) => {
  readonly format: 1;
  readonly validators: Readonly<Record<string, PrecompiledValidator>>;
};

export function checkOf(validate: PrecompiledValidator): CompiledSchema {
  return (value) => (validate(value) ? undefined : (validate.errors ?? []));
}

/**
 * The key of a schema compiled for a mode in a precompiled module: a hash of its JSON (53 bits of cyrb53), the
 * same where the module is generated and where it is used, with no crypto module needed.
 */
export function schemaKey(schema: JsonSchema, mode: SchemaMode): string {
  const text = JSON.stringify(schema);
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${mode}:${hash.toString(36)}`;
}

/**
 * A compiler that looks each schema up in a precompiled module instead of generating code; a schema the
 * module lacks (it was generated from another version of the table) is refused at start-up.
 */
export function precompiledCompiler(
  runtime: () => ValidatorRuntime,
  precompiled: PrecompiledValidators,
): SchemaCompiler {
  let validators: Readonly<Record<string, PrecompiledValidator>> | undefined;
  return {
    compile(schema: JsonSchema, mode: SchemaMode): CompiledSchema {
      if (validators === undefined) {
        const made = typeof precompiled === 'function' ? precompiled(runtime()) : undefined;
        if (made?.format !== 1)
          throw new SchemaCompilerError(
            'the `validators` option must be the default export of a module `sevenfold validators` generated',
          );
        validators = made.validators;
      }
      const key = schemaKey(schema, mode);
      const validate = Object.hasOwn(validators, key) ? validators[key] : undefined;
      if (validate !== undefined) return checkOf(validate);
      throw new SchemaCompilerError(
        mode === 'response'
          ? 'the precompiled validators have no response checks: generate them with `sevenfold validators ' +
              '--check-responses` for a server started with `checkResponses: true`'
          : `the precompiled validators have none for this schema (read as ${mode}): they were generated from ` +
              'another version of the table; run `sevenfold validators` again',
      );
    },
  };
}
