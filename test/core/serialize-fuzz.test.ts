import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSerializer, interpretSerializer } from '../../core/schema/serialize.js';
import { reference, Undeclared } from '../support/serialize-reference.js';

// Generated schemas and values, from fixed seeds: the generated code, the walk and the reference must
// write the same bytes for each pair (so nothing undeclared leaves), or all refuse it.

/** A seeded generator of numbers in [0, 1) (mulberry32): the same cases on every run. */
function random(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Schema = Record<string, unknown> | boolean;
const NAMES = ['a', 'b', 'id', 'name', '1', 'x-1', 'x-2', '__proto__', 'constructor', 'é"\\'];
const SCALAR_TYPES = ['string', 'number', 'integer', 'boolean', 'null'];
const DEFS = ['D0', 'D1', 'D2'];

function generator(next: () => number) {
  const chance = (p: number) => next() < p;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const some = <T>(list: readonly T[], n: number): T[] => [...list].sort(() => next() - 0.5).slice(0, n);

  /** A schema; `inside` once under properties or items, where a $ref may lead back without a cycle. */
  function schema(depth: number, inside: boolean): Schema {
    const r = next();
    if (depth > 3 || r < 0.25) return scalar();
    if (r < 0.45) return object(depth, inside);
    if (r < 0.55) return array(depth);
    if (r < 0.65)
      return { [pick(['anyOf', 'oneOf'])]: [schema(depth + 1, inside), schema(depth + 1, inside)] };
    if (r < 0.72) return { allOf: [object(depth + 1, inside), object(depth + 1, inside)] };
    if (r < 0.8 && inside) return { $ref: pick([...DEFS.map((d) => `#/$defs/${d}`), '#']) };
    if (r < 0.85) return chance(0.5) ? { const: constant(1) } : { enum: [constant(1), constant(1), 'e'] };
    return pick<Schema>([
      {},
      true,
      false,
      { description: 'anything' },
      { type: 'object' },
      { type: 'array' },
    ]);
  }

  function scalar(): Schema {
    if (chance(0.3)) return { type: some(SCALAR_TYPES, 2) };
    return chance(0.1) ? { type: pick(SCALAR_TYPES), nullable: true } : { type: pick(SCALAR_TYPES) };
  }

  function object(depth: number, inside: boolean): Schema {
    const properties: Record<string, Schema> = {};
    for (const name of some(NAMES, Math.floor(next() * 4))) properties[name] = schema(depth + 1, true);
    const s: Record<string, unknown> = { properties };
    if (chance(0.8)) s.type = chance(0.2) ? ['object', 'null'] : 'object';
    if (chance(0.2)) s.additionalProperties = pick<Schema>([true, false, schema(depth + 1, true)]);
    if (chance(0.15)) s.patternProperties = { '^x-': schema(depth + 1, true) };
    if (chance(0.1) && Object.keys(properties).length > 0) properties[Object.keys(properties)[0]!] = false;
    return inside || chance(0.5) ? s : { ...s, required: Object.keys(properties) };
  }

  function array(depth: number): Schema {
    const r = next();
    if (r < 0.6) return { type: 'array', items: schema(depth + 1, true) };
    if (r < 0.8)
      return { type: 'array', prefixItems: [schema(depth + 1, true)], items: schema(depth + 1, true) };
    if (r < 0.9) return { type: 'array', prefixItems: [schema(depth + 1, true)], items: false };
    return { type: 'array', items: [schema(depth + 1, true)], additionalItems: schema(depth + 1, true) };
  }

  function constant(depth: number): unknown {
    const r = next();
    if (depth > 2 || r < 0.5) return pick(['c', 1, true, null, 2.5]);
    if (r < 0.75) return [constant(depth + 1)];
    return { [pick(NAMES)]: constant(depth + 1) };
  }

  /** A root schema, with definitions its $refs may name. */
  function root(): Schema {
    const defs = Object.fromEntries(DEFS.map((d) => [d, chance(0.7) ? object(1, false) : array(1)]));
    const top = schema(0, false);
    return typeof top === 'boolean' ? top : { ...top, $defs: defs };
  }

  const resolve = (s: Schema, rootSchema: Schema): Schema => {
    if (typeof s !== 'object' || typeof s.$ref !== 'string') return s;
    if (s.$ref === '#') return rootSchema;
    return (rootSchema as { $defs: Record<string, Schema> }).$defs[s.$ref.slice('#/$defs/'.length)]!;
  };

  /** Any value at all: scalars, objects of the same names and others, arrays, Dates, undefined. */
  function anything(depth: number): unknown {
    const r = next();
    if (depth > 3 || r < 0.5)
      return pick([
        'text',
        'quote " and \\ and \n',
        '\u2028',
        '\ud800',
        0,
        -0,
        7.5,
        NaN,
        Infinity,
        true,
        false,
        null,
        undefined,
        new Date(86_400_000),
      ]);
    if (r < 0.75) return Array.from({ length: Math.floor(next() * 3) }, () => anything(depth + 1));
    const o: Record<string, unknown> = {};
    for (const name of some([...NAMES, 'extra', 'x-3', 'hash'], Math.floor(next() * 4)))
      Object.defineProperty(o, name, { value: anything(depth + 1), enumerable: true, writable: true });
    return o;
  }

  /** A value that mostly fits `s`, with keys it does not declare and now and then a type it does not. */
  function fitting(s: Schema, rootSchema: Schema, depth: number): unknown {
    const one = resolve(s, rootSchema);
    if (typeof one === 'boolean' || depth > 5 || chance(0.08)) return anything(depth);
    for (const key of ['anyOf', 'oneOf', 'allOf'])
      if (Array.isArray(one[key])) return fitting(pick(one[key] as Schema[]), rootSchema, depth);
    if (one.const !== undefined) return one.const;
    if (Array.isArray(one.enum)) return pick(one.enum);
    const types = [one.type ?? pick(['object', 'array', 'string'])].flat() as string[];
    const type = pick(types);
    if (type === 'object' || one.properties !== undefined) {
      const o: Record<string, unknown> = {};
      const properties = (one.properties ?? {}) as Record<string, Schema>;
      for (const [name, sub] of Object.entries(properties))
        if (chance(0.8))
          Object.defineProperty(o, name, { value: fitting(sub, rootSchema, depth + 1), enumerable: true });
      for (const name of some(['extra', 'x-9', 'hash', 'b'], Math.floor(next() * 3)))
        if (!Object.hasOwn(o, name)) o[name] = anything(depth + 1);
      return o;
    }
    if (type === 'array') {
      const items = (Array.isArray(one.items) ? one.items : (one.prefixItems ?? [])) as Schema[];
      const rest = (Array.isArray(one.items) ? one.additionalItems : one.items) as Schema | undefined;
      return Array.from({ length: Math.floor(next() * 4) }, (_, i) =>
        fitting(items[i] ?? rest ?? true, rootSchema, depth + 1),
      );
    }
    return anything(depth + 3);
  }

  return { root, fitting, anything };
}

const REFUSED = 'refused';

/** What a serializer writes for `value`, or REFUSED where it throws a TypeError. */
function outcome(serialize: (value: unknown) => string, value: unknown): string {
  try {
    const text = serialize(value);
    JSON.parse(text);
    return text;
  } catch (error) {
    if (error instanceof TypeError && error.message.startsWith('fuzz: ')) return REFUSED;
    throw error;
  }
}

test('compileSerializer() :: generated schemas and values: the code, the walk and the reference agree', () => {
  let written = 0;
  let refused = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const next = random(seed);
    const { root, fitting, anything } = generator(next);
    const schema = root();
    const compiled = compileSerializer(schema as never, { label: 'fuzz' });
    const walked = interpretSerializer(schema as never, { label: 'fuzz' });
    for (let n = 0; n < 25; n++) {
      const value = n % 5 === 4 ? anything(0) : fitting(schema, schema, 0);
      let expected: string;
      try {
        expected = reference(schema, value);
      } catch (error) {
        if (!(error instanceof Undeclared)) throw error;
        expected = REFUSED;
      }
      const where = `seed ${seed}, value ${n}: ${JSON.stringify(schema)} with ${JSON.stringify(value)}`;
      assert.is(outcome(compiled.serialize, value), expected, `the code, ${where}`);
      assert.is(outcome(walked.serialize, value), expected, `the walk, ${where}`);
      if (expected === REFUSED) refused++;
      else written++;
    }
  }
  // Most pairs are written, and some refused: both paths are exercised.
  assert.ok(written > 6000 && refused > 300, `${written} written, ${refused} refused`);
});

test.run();
