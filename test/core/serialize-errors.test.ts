import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { RouteDefinitionError } from '../../core/index.js';
import { compileSerializer, interpretSerializer } from '../../core/schema/serialize.js';

// What a serializer refuses: at definition, a schema JSON cannot write (a RouteDefinitionError naming the
// label and the fix); when writing, a value it must not write (a TypeError naming the label and the fix),
// the generated code and the walk alike.

const LABEL = 'posts#show response 200';

const DEFINITION: Array<[string, unknown, string]> = [
  [
    'a Date type',
    { type: 'object', properties: { at: { type: 'date' } } },
    `the schema at #/properties/at has type "date", which JSON lacks (it has string, number, integer, boolean, null, object and array); a Date is written by its toJSON() as a string: declare { type: 'string', format: 'date-time' }`,
  ],
  [
    'a bigint type',
    { type: ['bigint', 'null'] },
    `the schema at # has type "bigint", which JSON lacks (it has string, number, integer, boolean, null, object and array); JSON has no BigInt: write it as a string or a number and declare type: 'string' or 'integer'`,
  ],
  [
    'a function type',
    { type: 'array', items: { type: 'function' } },
    `the schema at #/items has type "function", which JSON lacks (it has string, number, integer, boolean, null, object and array); nothing is written for a function: leave the field out of the schema`,
  ],
  [
    'a type named like an object key',
    { type: 'constructor' },
    `the schema at # has type "constructor", which JSON lacks (it has string, number, integer, boolean, null, object and array)`,
  ],
  [
    'a type that is not a name',
    { type: 7 },
    `the schema at # has type 7, which JSON lacks (it has string, number, integer, boolean, null, object and array)`,
  ],
  [
    'a file field',
    { type: 'object', properties: { avatar: { type: 'string', format: 'binary' } } },
    `the schema at #/properties/avatar is a file (format: 'binary'), which JSON cannot hold; send the file as its own answer, or declare it as a base64 string (contentEncoding: 'base64')`,
  ],
  [
    'a $ref to nowhere',
    { type: 'object', properties: { a: { $ref: '#/$defs/Missing' } }, $defs: {} },
    `the $ref "#/$defs/Missing" at #/properties/a/$ref points nowhere in the schema; add the definition it names (in $defs) or correct the reference`,
  ],
  [
    'a $ref to another document',
    { $ref: 'user.json#/$defs/User' },
    `the $ref "user.json#/$defs/User" at #/$ref points outside the schema; a serializer follows only references inside it: put the definition in the schema's $defs and refer to "#/$defs/Name"`,
  ],
  [
    'a $ref to an anchor',
    { $ref: '#user' },
    `the $ref "#user" at #/$ref points outside the schema; a serializer follows only references inside it: put the definition in the schema's $defs and refer to "#/$defs/Name"`,
  ],
  [
    'a $dynamicRef',
    { $dynamicRef: '#node' },
    `the schema at # has $dynamicRef, which a serializer does not follow; use $ref to "#/$defs/Name"`,
  ],
  [
    '$refs in a circle that declares nothing',
    { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } },
    `the schema at #/$defs/a refers back to itself (through $ref, allOf, anyOf or oneOf) before declaring a property or an item, so it describes no value; declare the value's type or properties there`,
  ],
  [
    'allOf that holds the schema itself',
    { type: 'object', properties: { a: { allOf: [{ $ref: '#/properties/a' }] } } },
    `the schema at #/properties/a refers back to itself (through $ref, allOf, anyOf or oneOf) before declaring a property or an item, so it describes no value; declare the value's type or properties there`,
  ],
  [
    'a pattern that is not a regular expression',
    { type: 'object', patternProperties: { '(': {} } },
    `patternProperties at # has "(", which is not a regular expression (Invalid regular expression: /(/u: Unterminated group)`,
  ],
  [
    'a schema that is a number',
    { type: 'object', properties: { a: 7 } },
    `the schema at #/properties/a is 7, not a JSON Schema (an object or a boolean)`,
  ],
  [
    'a schema that is an array',
    [{ type: 'string' }],
    `the schema at # is an array, not a JSON Schema (an object or a boolean)`,
  ],
  ['properties that are not schemas', { properties: [] }, `#/properties must be an object of schemas`],
  ['an empty anyOf', { anyOf: [] }, `#/anyOf must be a non-empty array of schemas`],
  ['an empty enum', { enum: [] }, `enum at # must be a non-empty array`],
];

for (const [name, schema, message] of DEFINITION)
  test(`compileSerializer() :: ${name} is a RouteDefinitionError naming the label and the fix`, () => {
    try {
      compileSerializer(schema as never, { label: LABEL });
      assert.unreachable('compiled');
    } catch (error) {
      assert.instance(error, RouteDefinitionError);
      assert.is((error as Error).message, `${LABEL}: ${message}`);
    }
  });

test('compileSerializer() :: a schema past 50 000 places to plan is a RouteDefinitionError', () => {
  const properties = Object.fromEntries(
    Array.from({ length: 50_001 }, (_, i) => [`p${i}`, { type: 'string' }]),
  );
  assert.throws(
    () => compileSerializer({ type: 'object', properties }, { label: LABEL }),
    (error: Error) =>
      error instanceof RouteDefinitionError &&
      error.message ===
        `${LABEL}: the schema has more than 50000 subschemas and combinations of its allOf, anyOf and oneOf branches to plan; declare fewer properties or alternatives`,
  );
});

test('compileSerializer() :: a $ref to an unused broken definition is fine; only what is reached is read', () => {
  const schema = { type: 'string', $defs: { unused: { type: 'date' } } };
  assert.is(compileSerializer(schema).serialize('x'), '"x"');
});

/** The message `value` makes both serializers of `schema` throw: the same TypeError from each. */
function refusal(schema: object, value: unknown): string {
  const messages = [true, false].map((generate) => {
    try {
      compileSerializer(schema as never, { label: LABEL, generate }).serialize(value);
    } catch (error) {
      assert.instance(error, TypeError);
      return (error as Error).message;
    }
    return assert.unreachable('written') as never;
  });
  assert.is(messages[1], messages[0], 'the walk refuses as the code does');
  return messages[0]!;
}

const user = { type: 'object', properties: { name: { type: 'string' } } } as const;

test('serialize() :: an object where the schema declares a scalar is refused, never written', () => {
  assert.is(
    refusal(
      { type: 'object', properties: { name: { type: 'string' } } },
      { name: { first: 'a', hash: 'h' } },
    ),
    `${LABEL}: an object where the schema at #/properties/name declares string; only what the schema declares is written: return that, or declare the object and its properties`,
  );
  assert.is(
    refusal({ type: 'array', items: { type: ['integer', 'null'] } }, [1, [2]]),
    `${LABEL}: an array where the schema at #/items declares number or null; only what the schema declares is written: return that, or declare the array`,
  );
  assert.is(
    refusal(user, [{ name: 'a' }]),
    `${LABEL}: an array where the schema at # declares object; only what the schema declares is written: return that, or declare the array`,
  );
  assert.is(
    refusal(
      { type: 'object', properties: { gone: false, a: { anyOf: [false, { type: 'string' }] } } },
      { a: {} },
    ),
    `${LABEL}: an object where the schema at #/properties/a declares string; only what the schema declares is written: return that, or declare the object and its properties`,
  );
  assert.is(
    refusal({ type: 'array', items: false }, [{}]),
    `${LABEL}: an object where the schema at #/items declares no value (false); only what the schema declares is written: return that, or declare the object and its properties`,
  );
});

test('serialize() :: a BigInt is refused, unless BigInt.prototype has a toJSON()', () => {
  const schema = { type: 'object', properties: { id: { type: 'integer' } } };
  assert.is(
    refusal(schema, { id: 12n }),
    `${LABEL}: a BigInt where the schema at #/properties/id declares number; JSON has no BigInt: convert it (Number(n) or String(n)) or give BigInt.prototype a toJSON()`,
  );
  const proto = BigInt.prototype as { toJSON?: () => string };
  proto.toJSON = function (this: bigint) {
    return this.toString();
  };
  try {
    for (const generate of [true, false])
      assert.is(compileSerializer(schema, { generate }).serialize({ id: 12n }), '{"id":"12"}');
  } finally {
    delete proto.toJSON;
  }
});

test('serialize() :: nothing to write at the top (undefined, a function) is refused', () => {
  for (const value of [undefined, () => 1, Symbol('s'), { toJSON: () => undefined }])
    assert.is(
      refusal(user, value),
      `${LABEL}: the value is undefined, a function or a symbol, which JSON cannot write; return a value, or answer without a body`,
    );
});

test('serialize() :: a circular value under a recursive schema stops at 1 000 deep, with the reason', () => {
  const node = {
    $ref: '#/$defs/Node',
    $defs: { Node: { type: 'object', properties: { next: { $ref: '#/$defs/Node' } } } },
  };
  const circular: { next?: unknown } = {};
  circular.next = circular;
  assert.is(
    refusal(node, circular),
    `${LABEL}: the value nests more than 1000 objects or arrays deep at #, where the schema is recursive; is it circular?`,
  );
  let deep: object = {};
  for (let i = 0; i < 1000; i++) deep = { next: deep };
  for (const generate of [true, false])
    assert.ok(compileSerializer(node, { generate }).serialize(deep).startsWith('{"next":{"next":'));
  assert.match(refusal(node, { next: deep }), 'more than 1000');
});

test('serialize() :: a circular value where the schema takes anything is refused by JSON.stringify', () => {
  const circular: { self?: unknown } = {};
  circular.self = circular;
  assert.match(refusal({ type: 'object', properties: { a: {} } }, { a: circular }), /circular/i);
});

test('serialize() :: a toJSON() that throws is not caught: its error is the one thrown', () => {
  const value = {
    at: {
      toJSON() {
        throw new RangeError('bad date');
      },
    },
  };
  for (const serializer of [compileSerializer(user), interpretSerializer(user)])
    assert.throws(
      () => serializer.serialize({ name: value.at }),
      (error: Error) => error.message === 'bad date',
    );
});

test.run();
