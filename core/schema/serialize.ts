// compileSerializer(): a response's JSON Schema in, a function out that writes only what it declares.
import type { JsonSchema } from '../types.js';
import { generate, type Generated } from './serialize-code.js';
import type { Plan } from './serialize-plan.js';
import { planSchema } from './serialize-schema.js';
import { interpret, walk } from './serialize-walk.js';

export interface SerializerOptions {
  /** Starts every message the serializer throws, naming what it writes: `posts#show response 200`. */
  readonly label?: string;
  /**
   * Whether to generate code for the schema (default `true`); `false` walks its plans, as a process that
   * disallows code generation does either way. Both write the same bytes.
   */
  readonly generate?: boolean;
}

export interface Serializer {
  /**
   * Writes `value` as JSON with only what the schema declares. Throws a `TypeError` naming the label for
   * an object or array where the schema declares another type, a BigInt, a value nested more than 1 000
   * deep in a recursive schema, and a top-level value JSON cannot write (undefined).
   */
  readonly serialize: (value: unknown) => string;
  /** The generated code, as a person reads it; `undefined` where the plans are walked. */
  readonly source: string | undefined;
}

// A schema object is planned, and its code generated, once: the routes and statuses that share it (show,
// edit, create, update) share that work, each serializer with its own label.
const PLANNED = new WeakMap<object, readonly Plan[]>();
const GENERATED = new WeakMap<readonly Plan[], Generated>();

function planned(schema: JsonSchema | boolean, label: string): readonly Plan[] {
  if (typeof schema === 'boolean') return planSchema(schema, label);
  let plans = PLANNED.get(schema);
  if (plans === undefined) PLANNED.set(schema, (plans = planSchema(schema, label)));
  return plans;
}

/**
 * The serializer of a JSON Schema (2020-12, plain data): an object writes only its `properties` (in the
 * schema's order), and other keys only where `patternProperties` or `additionalProperties` declare them;
 * arrays by `items` and `prefixItems`; `$ref` to the schema's own definitions, recursion included; `allOf`
 * merges what its branches declare, `anyOf` and `oneOf` write their union, by the value's JSON type. Values are
 * read as JSON.stringify reads them (`toJSON()`, NaN as null, strings escaped alike), properties only from
 * the value itself, never its prototype. A scalar the schema does not declare at its place is written as it
 * is, an object or array is an error. A schema JSON cannot write (a type it lacks, a file, a `$ref` to
 * nowhere) throws a `RouteDefinitionError` starting with `options.label`. A schema object is planned and its
 * code generated once, then reused by every serializer compiled from it: it must not change afterwards.
 */
export function compileSerializer(schema: JsonSchema | boolean, options: SerializerOptions = {}): Serializer {
  const label = options.label ?? 'response schema';
  const plans = planned(schema, label);
  const w = walk(plans, label);
  if (options.generate !== false) {
    try {
      let code = GENERATED.get(plans);
      if (code === undefined) GENERATED.set(plans, (code = generate(plans)));
      return {
        serialize: code.make(w),
        source: `// ${label}: only what the schema declares is written.\n${code.source}`,
      };
    } catch (error) {
      // Code generation disallowed (workerd: EvalError), or code too large for the engine (RangeError).
      if (!(error instanceof EvalError || error instanceof RangeError)) throw error;
    }
  }
  return { serialize: interpret(w), source: undefined };
}

/** The serializer of `schema` that walks its plans and generates no code: the same bytes as compiled. */
export function interpretSerializer(
  schema: JsonSchema | boolean,
  options: Omit<SerializerOptions, 'generate'> = {},
): Serializer {
  return compileSerializer(schema, { ...options, generate: false });
}
