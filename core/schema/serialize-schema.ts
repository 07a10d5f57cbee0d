// Reads a JSON Schema (2020-12, plain data) into the terms a serializer is planned from, refusing at
// definition what JSON cannot write.
import { RouteDefinitionError } from '../errors.js';
import {
  ANY_LEVEL,
  NO_LEVEL,
  BOOLEAN,
  NULL,
  NUMBER,
  plans,
  SCALARS,
  STRING,
  termSpace,
  type Level,
  type Plan,
  type Term,
} from './serialize-plan.js';

const TYPES: Readonly<Record<string, number>> = {
  string: STRING,
  number: NUMBER,
  integer: NUMBER,
  boolean: BOOLEAN,
  null: NULL,
  object: 0,
  array: 0,
};

// Types that JSON lacks, with what to declare instead.
const INSTEAD: Readonly<Record<string, string>> = {
  date: "a Date is written by its toJSON() as a string: declare { type: 'string', format: 'date-time' }",
  bigint: "JSON has no BigInt: write it as a string or a number and declare type: 'string' or 'integer'",
  function: 'nothing is written for a function: leave the field out of the schema',
  undefined: 'nothing is written for undefined: leave the field out of the schema, or out of `required`',
  symbol: 'nothing is written for a symbol: leave the field out of the schema',
  file: 'JSON cannot hold a file: send the file as its own answer',
};

// The keywords that decide what is written; a schema with none of them (`{}`, a description) takes any value.
const WRITING = [
  'type',
  'nullable',
  'properties',
  'patternProperties',
  'additionalProperties',
  'items',
  'prefixItems',
  'additionalItems',
  'const',
  'enum',
  '$ref',
  '$dynamicRef',
  '$recursiveRef',
  'allOf',
  'anyOf',
  'oneOf',
  'format',
];

const escapePointer = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * The plans of what `schema` writes, its own first; a schema that cannot be written as JSON throws a
 * `RouteDefinitionError` that starts with `label` and says what to declare instead.
 */
export function planSchema(schema: unknown, label: string): readonly Plan[] {
  const fail = (message: string): never => {
    throw new RouteDefinitionError(`${label}: ${message}`);
  };
  const space = termSpace(fail);
  const { any, none, leaf, or, and } = space;
  const read = new Map<object, Term>();

  function term(node: unknown, at: string): Term {
    if (node === true) return any;
    // A level of its own, so that a message names this place.
    if (node === false) return leaf(at, () => ({ ...NO_LEVEL }));
    if (node === null || typeof node !== 'object' || Array.isArray(node))
      return fail(
        `the schema at ${at} is ${Array.isArray(node) ? 'an array' : (JSON.stringify(node) ?? typeof node)}, not a JSON Schema (an object or a boolean)`,
      );
    const known = read.get(node);
    if (known !== undefined) return known;
    const s = node as Readonly<Record<string, unknown>>;
    if (!WRITING.some((keyword) => s[keyword] !== undefined)) return any;
    // Stands for the schema while its parts are read, so a $ref back to it finds it; its own keywords alone,
    // or combined with the rest (body).
    let own: Level | undefined;
    let body: Term | undefined;
    const self = leaf(at, () => (body === undefined ? own! : space.levelOf(body)));
    read.set(node, self);
    own = ownLevel(s, at);
    const mine = own;
    const parts: Term[] = [];
    if (s.$ref !== undefined) parts.push(reference(s.$ref, `${at}/$ref`));
    for (const keyword of ['$dynamicRef', '$recursiveRef'])
      if (s[keyword] !== undefined)
        fail(
          `the schema at ${at} has ${keyword}, which a serializer does not follow; use $ref to "#/$defs/Name"`,
        );
    if (s.allOf !== undefined) parts.push(...list(s.allOf, `${at}/allOf`));
    for (const keyword of ['anyOf', 'oneOf'])
      if (s[keyword] !== undefined) parts.push(or(list(s[keyword], `${at}/${keyword}`), at));
    if (s.const !== undefined) parts.push(constant(s.const, `${at}/const`));
    if (s.enum !== undefined) {
      if (!Array.isArray(s.enum) || s.enum.length === 0) fail(`enum at ${at} must be a non-empty array`);
      parts.push(constants(s.enum as unknown[], `${at}/enum`));
    }
    if (parts.length > 0) body = and([mine === ANY_LEVEL ? any : leaf(at, () => mine), ...parts], at);
    return self;
  }

  function list(value: unknown, at: string): Term[] {
    if (!Array.isArray(value) || value.length === 0)
      return fail(`${at} must be a non-empty array of schemas`);
    return value.map((one, i) => term(one, `${at}/${i}`));
  }

  function reference(ref: unknown, at: string): Term {
    if (typeof ref !== 'string') return fail(`${at} must be a string`);
    if (ref !== '#' && !ref.startsWith('#/'))
      return fail(
        `the $ref "${ref}" at ${at} points outside the schema; a serializer follows only references inside it: put the definition in the schema's $defs and refer to "#/$defs/Name"`,
      );
    let node: unknown = schema;
    for (const segment of ref === '#' ? [] : ref.slice(2).split('/')) {
      let name: string;
      try {
        name = decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');
      } catch {
        return fail(`the $ref "${ref}" at ${at} is not a valid JSON pointer`);
      }
      if (node === null || typeof node !== 'object' || !Object.hasOwn(node, name))
        return fail(
          `the $ref "${ref}" at ${at} points nowhere in the schema; add the definition it names (in $defs) or correct the reference`,
        );
      node = (node as Record<string, unknown>)[name];
    }
    return term(node, ref);
  }

  /** What a schema's own keywords declare: types, properties, items. */
  function ownLevel(s: Readonly<Record<string, unknown>>, at: string): Level {
    if (s.format === 'binary')
      fail(
        `the schema at ${at} is a file (format: 'binary'), which JSON cannot hold; send the file as its own answer, or declare it as a base64 string (contentEncoding: 'base64')`,
      );
    let scalars = SCALARS;
    let objects = true;
    let arrays = true;
    let objectType = false;
    if (s.type !== undefined) {
      const names = Array.isArray(s.type) ? (s.type as unknown[]) : [s.type];
      scalars = 0;
      for (const name of names) {
        if (typeof name !== 'string' || !Object.hasOwn(TYPES, name)) {
          const lower = typeof name === 'string' ? name.toLowerCase() : '';
          const instead = Object.hasOwn(INSTEAD, lower) ? INSTEAD[lower] : undefined;
          fail(
            `the schema at ${at} has type ${JSON.stringify(name)}, which JSON lacks (it has string, number, integer, boolean, null, object and array)${instead === undefined ? '' : `; ${instead}`}`,
          );
        }
        scalars |= TYPES[name as string]!;
      }
      objects = objectType = names.includes('object');
      arrays = names.includes('array');
      if (s.nullable === true) scalars |= NULL;
    }
    const strict =
      objectType ||
      s.properties !== undefined ||
      s.patternProperties !== undefined ||
      s.additionalProperties !== undefined;
    const object = !objects ? undefined : strict ? shape(s, at) : 'whole';
    const array = arrays ? items(s, at) : undefined;
    if (scalars === SCALARS && object === 'whole' && array === 'whole') return ANY_LEVEL;
    return { scalars, object, array };
  }

  function shape(s: Readonly<Record<string, unknown>>, at: string) {
    const props = new Map<string, Term>();
    for (const [name, sub] of entries(s.properties, `${at}/properties`))
      props.set(name, term(sub, `${at}/properties/${escapePointer(name)}`));
    const patterns = entries(s.patternProperties, `${at}/patternProperties`).map(([source, sub]) => {
      let regexp: RegExp;
      try {
        regexp = new RegExp(source, 'u');
      } catch (error) {
        return fail(
          `patternProperties at ${at} has ${JSON.stringify(source)}, which is not a regular expression (${(error as Error).message})`,
        );
      }
      return [regexp, term(sub, `${at}/patternProperties/${escapePointer(source)}`)] as const;
    });
    const extra = s.additionalProperties;
    const additional =
      extra === undefined || extra === false ? undefined : term(extra, `${at}/additionalProperties`);
    return { props, patterns, additional };
  }

  function items(s: Readonly<Record<string, unknown>>, at: string) {
    const tuple = Array.isArray(s.items) ? s.items : s.prefixItems;
    const prefix =
      tuple === undefined ? [] : list(tuple, `${at}/${Array.isArray(s.items) ? 'items' : 'prefixItems'}`);
    const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
    const restAt = `${at}/${Array.isArray(s.items) ? 'additionalItems' : 'items'}`;
    const after = rest === undefined ? any : term(rest, restAt);
    return prefix.length === 0 && after === any ? ('whole' as const) : { prefix, items: after };
  }

  function entries(value: unknown, at: string): Array<[string, unknown]> {
    if (value === undefined) return [];
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return fail(`${at} must be an object of schemas`);
    return Object.entries(value);
  }

  /** What a `const` declares: its own types, and of an object or array the keys and items it holds. */
  function constant(value: unknown, at: string): Term {
    if (value === null) return leaf(at, () => ({ scalars: NULL, object: undefined, array: undefined }));
    const bits = TYPES[typeof value];
    if (bits !== undefined && bits !== 0)
      return leaf(at, () => ({ scalars: bits, object: undefined, array: undefined }));
    if (Array.isArray(value)) {
      const items = constants(value, at);
      return leaf(at, () => ({ scalars: 0, object: undefined, array: { prefix: [], items } }));
    }
    if (typeof value !== 'object') return none;
    const props = new Map<string, Term>();
    for (const [name, one] of Object.entries(value))
      props.set(name, constant(one, `${at}/${escapePointer(name)}`));
    const object = { props, patterns: [], additional: undefined };
    return leaf(at, () => ({ scalars: 0, object, array: undefined }));
  }

  /** The union of what `values` declare, scalars in one term however many there are. */
  function constants(values: readonly unknown[], at: string): Term {
    let scalars = 0;
    const structured: Term[] = [];
    for (const value of values) {
      const bits = value === null ? NULL : TYPES[typeof value];
      if (bits !== undefined && bits !== 0) scalars |= bits;
      else structured.push(constant(value, at));
    }
    if (scalars !== 0) structured.push(leaf(at, () => ({ scalars, object: undefined, array: undefined })));
    return or(structured, at);
  }

  return plans(term(schema, '#'), space);
}
