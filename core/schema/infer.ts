// Types from schemas with no code generation: JSON Schema `as const` read keyword by keyword, or Standard
// Schema.

/**
 * The TypeScript type of a value that passed a schema, with no code generation: a Standard
 * Schema value (zod, valibot, arktype) gives its own output type, a JSON Schema written
 * `as const` is read keyword by keyword. Defaults are applied before handlers run, so a
 * property with a `default` is present in the type.
 */
export type Infer<S> = S extends Typed<unknown, infer Out> ? Out : FromSchema<S>;

/**
 * The type of what a client may send for a schema: as `Infer`, but a top-level property with a `default` may be
 * left out (the server fills it in), and a Standard Schema gives its input type. Nested values are read as the
 * server reads them, so their types are shared with the handler's (a type-check on a large table pays once).
 */
export type InferInput<S> = S extends Typed<infer In, unknown> ? In : FromSchema<S, true>;

// A Standard Schema's types, as `StandardSchemaV1.InferInput` and `InferOutput` read them: a check of one
// property, which a JSON Schema fails at once.
type Typed<In, Out> = {
  readonly '~standard': { readonly types?: { readonly input: In; readonly output: Out } | undefined };
};

/**
 * The type of a JSON Schema (2020-12) written `as const`: `type` (one or a list), `const`,
 * `enum`, `properties`/`required`/`additionalProperties`, `items`, `anyOf`/`oneOf`/`allOf`.
 * Keywords that do not change the type (lengths, patterns, formats) are ignored; a schema it
 * cannot read is `unknown`, never a wrong type.
 */
export type FromSchema<S, In extends boolean = false> =
  S extends Leaf<infer T, infer F>
    ? Primitives<F>[T]
    : S extends Fields<infer P>
      ? PropertiesOf<S, P, In>
      : S extends true
        ? unknown
        : S extends false
          ? never
          : Base<S, In> & (S extends { readonly allOf: readonly unknown[] } ? Both<S['allOf'], In> : unknown);

// Most of a schema's nodes are one primitive type, or an object of properties, and nothing that changes it:
// one check reads each.
type Leaf<T extends keyof Primitives<never>, F extends string> = {
  readonly type: T;
  readonly format?: F;
  readonly contentMediaType?: never;
  readonly const?: never;
  readonly enum?: never;
  readonly anyOf?: never;
  readonly oneOf?: never;
  readonly allOf?: never;
};
type Fields<P> = {
  readonly type: 'object';
  readonly properties: P;
  readonly const?: never;
  readonly enum?: never;
  readonly anyOf?: never;
  readonly oneOf?: never;
  readonly allOf?: never;
};

interface Primitives<F> {
  // A binary string is an uploaded file.
  readonly string: F extends 'binary' ? File : string;
  readonly number: number;
  readonly integer: number;
  readonly boolean: boolean;
  readonly null: null;
}

// allOf narrows whatever the rest of the schema says, so it is intersected with it above.
type Base<S, In extends boolean> = S extends { readonly const: infer C }
  ? C
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly unknown[] }
      ? Each<S['anyOf'], In>
      : S extends { readonly oneOf: readonly unknown[] }
        ? Each<S['oneOf'], In>
        : S extends { readonly type: infer T }
          ? T extends readonly (infer U)[]
            ? TypeOf<S, U, In>
            : TypeOf<S, T, In>
          : S extends { readonly properties: object }
            ? ObjectOf<S, In>
            : unknown;

type Each<L extends readonly unknown[], In extends boolean> = {
  [K in keyof L]: FromSchema<L[K], In>;
}[number];

type Both<L extends readonly unknown[], In extends boolean> = L extends readonly [infer First, ...infer Rest]
  ? FromSchema<First, In> & Both<Rest, In>
  : unknown;

// Distributes over a list of types: `['string', 'null']` is `string | null`; a binary string is an uploaded
// file.
type TypeOf<S, T, In extends boolean> = T extends 'string'
  ? S extends { readonly format: 'binary' } | { readonly contentMediaType: string }
    ? File
    : string
  : T extends 'number' | 'integer'
    ? number
    : T extends 'boolean'
      ? boolean
      : T extends 'null'
        ? null
        : T extends 'array'
          ? S extends { readonly items: infer I }
            ? FromSchema<I>[]
            : unknown[]
          : T extends 'object'
            ? ObjectOf<S, In>
            : unknown;

type Keys<L> = L extends readonly (infer K)[] ? K & string : never;

// Defaults are applied before the handler runs, so a defaulted property is always there.
type Defaulted<P> = [P[keyof P]] extends [NoDefault]
  ? never
  : { [K in keyof P]: P[K] extends { readonly default: unknown } ? K : never }[keyof P];

// Most objects have no default among their properties: one check over them all says so.
type NoDefault = { readonly default?: never; readonly [keyword: string]: unknown };

type Present<S, P, In extends boolean> =
  (S extends { readonly required: infer R } ? Keys<R> : never) | (In extends true ? never : Defaulted<P>);

// Fields the schema lets through unnamed are typed only when it says what they are (or `true`):
// a misspelt field name is then a compile error instead of `unknown`.
type Rest<S, In extends boolean> = S extends { readonly additionalProperties: infer A }
  ? A extends false
    ? {}
    : { [field: string]: FromSchema<A> }
  : {};

type ObjectOf<S, In extends boolean> = S extends { readonly properties: infer P }
  ? PropertiesOf<S, P, In>
  : S extends { readonly additionalProperties: unknown }
    ? Rest<S, In>
    : { [field: string]: unknown };

type PropertiesOf<S, P, In extends boolean> = Split<P, Present<S, P, In>, Rest<S, In>>;

// The properties always present (`R`), the others optional, and what else the schema lets through.
type Split<P, R, X> = Flat<
  { [K in keyof P & R]: FromSchema<P[K]> } & { [K in Exclude<keyof P, R>]?: FromSchema<P[K]> } & X
>;

type Flat<T> = { [K in keyof T]: T[K] } & {};
