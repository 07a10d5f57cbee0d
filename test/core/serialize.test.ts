import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileSerializer, interpretSerializer } from '../../core/schema/serialize.js';
import { NullObject } from '../../core/util/null-object.js';
import { Post } from '../../examples/posts/schema.js';
import { reference } from '../support/serialize-reference.js';

// Each serializer three ways: the generated code, the walk over its plans, and the reference worked out on
// its own (test/support/serialize-reference.ts); all three must write the same bytes, and the bytes given here.

const LABEL = 'posts#show response 200';

/** The bytes all three write for `value`, checked equal (and against `expected` when given). */
function same(schema: object | boolean, value: unknown, expected?: string): string {
  const compiled = compileSerializer(schema as never, { label: LABEL });
  assert.type(compiled.source, 'string', 'code was generated');
  const written = compiled.serialize(value);
  assert.is(
    interpretSerializer(schema as never).serialize(value),
    written,
    'the walk writes what the code does',
  );
  assert.is(reference(schema, value), written, 'the reference writes what the code does');
  if (expected !== undefined) assert.is(written, expected);
  JSON.parse(written);
  return written;
}

const post = {
  id: 'hello',
  title: 'Hello',
  body: 'Text',
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-02T00:00:00.000Z',
};
const POST_JSON =
  '{"id":"hello","title":"Hello","body":"Text","createdAt":"2024-01-01T00:00:00.000Z","updatedAt":"2024-01-02T00:00:00.000Z"}';
const user = {
  type: 'object',
  properties: { name: { type: 'string' }, email: { type: 'string' } },
} as const;

// Strings whose escapes come close together, after a long plain run or throughout, surrogates among them.
const DENSE = [
  'col\tcol\t'.repeat(40),
  `${'plain text '.repeat(20)}${'"'.repeat(50)}`,
  '{"a":"b","c":[1,"\\\\"]}'.repeat(10),
  'line\r\n'.repeat(30),
  '😀 🎉 '.repeat(30),
  `${'\ud800'.repeat(20)}x${'\udc00\n'.repeat(20)}`,
  `${'a'.repeat(300)}\n\n${'b'.repeat(300)}"`,
];

const CASES: Array<[string, object | boolean, unknown, string]> = [
  ['a post, its hash left out', Post, { passwordHash: 'x', ...post, draft: true }, POST_JSON],
  ['properties in the schema order', Post, Object.fromEntries(Object.entries(post).reverse()), POST_JSON],
  [
    'the index: each post cut down',
    { type: 'array', items: Post },
    [post, { ...post, secret: 1 }],
    `[${POST_JSON},${POST_JSON}]`,
  ],
  ['a missing property is left out', user, { email: 'e' }, '{"email":"e"}'],
  ['an empty object', user, {}, '{}'],
  [
    'nested objects cut down',
    { type: 'object', properties: { author: user, n: { type: 'integer' } } },
    { author: { name: 'a', password: 'p' }, n: 3, admin: true },
    '{"author":{"name":"a"},"n":3}',
  ],
  [
    'arrays of objects cut down',
    { type: 'object', properties: { users: { type: 'array', items: user } } },
    { users: [{ name: 'a', token: 't' }, { email: 'b' }] },
    '{"users":[{"name":"a"},{"email":"b"}]}',
  ],
  [
    'anyOf: the union of the object branches',
    { anyOf: [user, { type: 'object', properties: { role: { type: 'string' } } }, { type: 'string' }] },
    { name: 'n', role: 'r', secret: 's' },
    '{"name":"n","role":"r"}',
  ],
  ['anyOf: a string branch', { anyOf: [user, { type: 'string' }] }, 'plain', '"plain"'],
  [
    'oneOf with null, nested',
    { type: 'object', properties: { author: { oneOf: [user, { type: 'null' }] } } },
    { author: null, x: 1 },
    '{"author":null}',
  ],
  ['a type list', { type: ['string', 'null'] }, null, 'null'],
  ['nullable (OpenAPI 3.0)', { type: 'object', nullable: true, properties: { a: {} } }, null, 'null'],
  [
    'allOf merges what its branches declare',
    { allOf: [user, { type: 'object', properties: { id: { type: 'integer' } } }] },
    { id: 1, name: 'n', email: 'e', hash: 'h' },
    '{"name":"n","email":"e","id":1}',
  ],
  [
    '$ref to $defs, recursive',
    {
      $ref: '#/$defs/Node',
      $defs: {
        Node: {
          type: 'object',
          properties: {
            name: { type: 'string' },
            children: { type: 'array', items: { $ref: '#/$defs/Node' } },
          },
        },
      },
    },
    { name: 'a', x: 1, children: [{ name: 'b', children: [{ name: 'c', y: 2, children: [] }] }] },
    '{"name":"a","children":[{"name":"b","children":[{"name":"c","children":[]}]}]}',
  ],
  [
    '$ref to the root and to definitions',
    {
      type: 'object',
      properties: { next: { anyOf: [{ $ref: '#' }, { type: 'null' }] }, tag: { $ref: '#/definitions/a~1b' } },
      definitions: { 'a/b': { type: 'string' } },
    },
    { next: { next: null, tag: 't', z: 0 }, tag: 'u' },
    '{"next":{"next":null,"tag":"t"},"tag":"u"}',
  ],
  [
    'additionalProperties: true writes the other keys whole',
    { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: true },
    { b: { deep: [1] }, a: 'x', c: null },
    '{"a":"x","b":{"deep":[1]},"c":null}',
  ],
  [
    'additionalProperties as a schema cuts the other keys down',
    { type: 'object', additionalProperties: user },
    { u1: { name: 'a', pw: 1 }, u2: { email: 'b' } },
    '{"u1":{"name":"a"},"u2":{"email":"b"}}',
  ],
  [
    'patternProperties: the first match, else additional',
    {
      type: 'object',
      properties: { id: { type: 'string' } },
      patternProperties: { '^x-': { type: 'string' }, '^meta': user },
      additionalProperties: false,
    },
    { id: 'i', 'x-a': 'a', metaUser: { name: 'n', pw: 1 }, other: 1 },
    '{"id":"i","x-a":"a","metaUser":{"name":"n"}}',
  ],
  [
    'a property declared false is never written, whatever else allows it',
    { type: 'object', properties: { secret: false, a: {} }, additionalProperties: true },
    { secret: 's', a: 1, b: 2 },
    '{"a":1,"b":2}',
  ],
  [
    'prefixItems, then items',
    { type: 'array', prefixItems: [{ type: 'string' }, user], items: { type: 'integer' } },
    ['a', { name: 'n', pw: 1 }, 3, 4],
    '["a",{"name":"n"},3,4]',
  ],
  [
    'a draft-07 tuple with additionalItems',
    { type: 'array', items: [user], additionalItems: user },
    [
      { name: 'a', x: 1 },
      { email: 'b', y: 2 },
    ],
    '[{"name":"a"},{"email":"b"}]',
  ],
  ['an array with no items declared is written whole', { type: 'array' }, [{ a: 1 }, 2], '[{"a":1},2]'],
  ['type object with no properties writes none', { type: 'object' }, { a: 1 }, '{}'],
  ['{} takes any value whole', {}, { a: [{ b: 1 }], c: 'x' }, '{"a":[{"b":1}],"c":"x"}'],
  ['true takes any value whole', true, [1, { a: null }], '[1,{"a":null}]'],
  ['a description alone takes any value', { description: 'anything' }, { a: 1 }, '{"a":1}'],
  [
    'const and enum objects declare their keys',
    { type: 'object', properties: { c: { const: { a: 1 } }, e: { enum: ['x', { b: [{ c: 1 }] }] } } },
    { c: { a: 1, z: 2 }, e: { b: [{ c: 1, d: 2 }], y: 3 } },
    '{"c":{"a":1},"e":{"b":[{"c":1}]}}',
  ],
  [
    'toJSON(): Dates as strings',
    { type: 'object', properties: { at: { type: 'string', format: 'date-time' } } },
    { at: new Date(0) },
    '{"at":"1970-01-01T00:00:00.000Z"}',
  ],
  [
    "toJSON()'s answer is cut down by the schema",
    user,
    { toJSON: () => ({ name: 'n', password: 'p' }) },
    '{"name":"n"}',
  ],
  [
    'numbers as JSON.stringify writes them',
    { type: 'array', items: { type: 'number' } },
    [NaN, Infinity, -Infinity, -0, 1e21, 0.1, 5],
    '[null,null,null,0,1e+21,0.1,5]',
  ],
  [
    'strings escaped as JSON.stringify escapes them',
    { type: 'array', items: { type: 'string' } },
    ['"\\', '\n\t\u0000\u001f', '\u2028\u2029', '\ud800', 'a\udfffb', '😀', 'café', '\u007f'],
    JSON.stringify(['"\\', '\n\t\u0000\u001f', '\u2028\u2029', '\ud800', 'a\udfffb', '😀', 'café', '\u007f']),
  ],
  [
    // Past a few escapes close together, the writer hands the whole string to JSON.stringify.
    'strings dense in escapes, after plain text and throughout',
    { type: 'array', items: { type: 'string' } },
    DENSE,
    JSON.stringify(DENSE),
  ],
  [
    'a scalar of a type the schema does not declare is written as it is',
    { type: 'object', properties: { n: { type: 'integer' }, s: { type: 'string' } } },
    { n: '7', s: 8.5 },
    '{"n":"7","s":8.5}',
  ],
  [
    'undefined, functions and symbols: left out, null in arrays',
    { type: 'object', properties: { a: {}, b: {}, c: {}, list: {} } },
    { a: undefined, b: () => 1, c: Symbol('c'), list: [undefined, () => 1, Symbol('s'), 1] },
    '{"list":[null,null,null,1]}',
  ],
  [
    'keys JSON must escape, and names Object.prototype has',
    // JSON.parse makes __proto__ a key; names like "1" come first, as Object.keys lists them.
    JSON.parse(
      '{"type":"object","properties":{"a\\"b":{},"constructor":{},"toString":{},"1":{},"__proto__":{}}}',
    ),
    JSON.parse('{"__proto__":4,"a\\"b":1,"constructor":2,"1":3,"z":5}'),
    '{"1":3,"a\\"b":1,"constructor":2,"__proto__":4}',
  ],
  [
    'wrapper objects as their primitives',
    { type: 'array', items: { type: 'string' } },
    [new String('s'), new Number(2), Object(false)],
    '["s",2,false]',
  ],
  [
    'objects without Object.prototype',
    { type: 'array', items: user },
    [
      Object.assign(Object.create(null), { name: 'a', pw: 1 }),
      Object.assign(new NullObject(), { email: 'b' }),
    ],
    '[{"name":"a"},{"email":"b"}]',
  ],
];

for (const [name, schema, value, expected] of CASES)
  test(`compileSerializer() :: ${name}`, () => {
    same(schema, value, expected);
  });

test('compileSerializer() :: every UTF-16 code unit is escaped as JSON.stringify escapes it, alone and in text', () => {
  const strings: string[] = [];
  for (let code = 0; code <= 0xffff; code++) {
    const one = String.fromCharCode(code);
    strings.push(one, `plain ${one} text`, `${one}${one}`);
  }
  // Surrogates in pairs, reversed, doubled and at the ends, beside characters that need escaping.
  for (const [high, low] of [
    ['\ud800', '\udc00'],
    ['\udbff', '\udfff'],
    ['\ud83d', '\ude00'],
  ] as const)
    strings.push(
      high + low,
      low + high,
      high + high + low,
      `"${high}`,
      `${low}\n`,
      `a${high + low}\\${low}b`,
    );
  const schema = { type: 'array', items: { type: 'string' } };
  for (const generate of [true, false])
    assert.is(compileSerializer(schema, { generate }).serialize(strings), JSON.stringify(strings));
});

test('compileSerializer() :: names that end a line in the generated code are only text there', () => {
  const names = ['a\nthrow new Error("ran")', 'b\u2028throw 1', 'c\r*/ throw 2', '"); throw 3; ("'];
  const schema = {
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'object', properties: { x: {} } }])),
  };
  const value = Object.fromEntries(names.map((name) => [name, { x: 1, y: 2 }]));
  same(schema, value, `{${names.map((name) => `${JSON.stringify(name)}:{"x":1}`).join(',')}}`);
  const { source } = compileSerializer(schema);
  assert.ok(source!.includes('// #/properties/a\\u000athrow new Error("ran")'));
});

test("compileSerializer() :: a value's prototype is never read: class getters and Object.prototype's names", () => {
  class Account {
    name = 'a';
    get email() {
      return 'from the prototype';
    }
  }
  const schema = { type: 'object', properties: { name: {}, email: {}, constructor: {}, __proto__: {} } };
  for (const generate of [true, false]) {
    const { serialize } = compileSerializer(JSON.parse(JSON.stringify(schema)), { generate });
    assert.is(serialize(new Account()), '{"name":"a"}');
    assert.is(serialize({}), '{}', 'neither constructor nor __proto__ of a plain object');
    assert.is(serialize(Object.create({ name: 'inherited' })), '{}');
  }
});

test('compileSerializer() :: what a polluted Object.prototype holds is never written, before or after compiling', () => {
  const schema = { type: 'object', properties: { polluted: {}, name: {}, getter: {} } };
  const early = compileSerializer(schema);
  // Warm, so that the optimized code has seen Object.prototype without the name.
  for (let i = 0; i < 20_000; i++) early.serialize({ name: 'n' });
  const proto = Object.prototype as Record<string, unknown>;
  proto.polluted = 'x';
  Object.defineProperty(proto, 'getter', { get: () => 'g', configurable: true });
  try {
    for (const { serialize } of [early, compileSerializer(schema), interpretSerializer(schema)]) {
      assert.is(serialize({ name: 'n' }), '{"name":"n"}');
      assert.is(
        serialize({ polluted: 'x', getter: 'g' }),
        '{"polluted":"x","getter":"g"}',
        'its own, though equal',
      );
      assert.is(serialize({ polluted: 'y' }), '{"polluted":"y"}');
    }
  } finally {
    delete proto.polluted;
    delete proto.getter;
  }
});

test('compileSerializer() :: an own property is written though not enumerable (JSON.stringify would skip it)', () => {
  const value = Object.defineProperty({ email: 'e' }, 'name', { value: 'n', enumerable: false });
  for (const generate of [true, false])
    assert.is(compileSerializer(user, { generate }).serialize(value), '{"name":"n","email":"e"}');
});

test('compileSerializer() :: the code and the walk read a value alike (every get and check, in order)', () => {
  const schema = {
    type: 'object',
    properties: { a: { type: 'string' }, b: user, c: { type: 'array', items: user } },
    additionalProperties: { type: 'number' },
  };
  const logged = (log: string[]) => {
    const watch = (target: object, path: string): object =>
      new Proxy(target, {
        get(t, key, receiver) {
          log.push(`get ${path}.${String(key)}`);
          const got = Reflect.get(t, key, receiver);
          return got !== null && typeof got === 'object' ? watch(got, `${path}.${String(key)}`) : got;
        },
        getOwnPropertyDescriptor(t, key) {
          log.push(`own ${path}.${String(key)}`);
          return Reflect.getOwnPropertyDescriptor(t, key);
        },
        getPrototypeOf(t) {
          log.push(`proto ${path}`);
          return Reflect.getPrototypeOf(t);
        },
        ownKeys(t) {
          log.push(`keys ${path}`);
          return Reflect.ownKeys(t);
        },
      });
    return watch({ a: 'x', b: { name: 'n', pw: 1 }, c: [{ email: 'e' }], d: 4, e: 'no' }, 'v');
  };
  const [byCode, byWalk] = [[], []] as [string[], string[]];
  const written = compileSerializer(schema).serialize(logged(byCode));
  assert.is(interpretSerializer(schema).serialize(logged(byWalk)), written);
  assert.is(written, '{"a":"x","b":{"name":"n"},"c":[{"email":"e"}],"d":4,"e":"no"}');
  assert.ok(byCode.length > 10);
  assert.equal(byWalk, byCode);
});

test('compileSerializer() :: source is the generated code, with its legend and a function per object and array', () => {
  const { source } = compileSerializer({ type: 'array', items: Post }, { label: 'posts#index response 200' });
  assert.ok(source!.startsWith('// posts#index response 200: only what the schema declares is written.'));
  for (const line of [
    'function serialize(v) {',
    'function a0(v, d) {',
    'function o1(v, d, p) {',
    '  x = v["createdAt"];',
    '  if (x !== undefined && (p && x !== B["createdAt"] || H(v, "createdAt"))) {',
    '      if ((t = T(x)) === x.length) {',
    '        s += (c === 0 ? "{\\"createdAt\\":\\"" : c === 1 ? ",\\"createdAt\\":\\"" : "\\",\\"createdAt\\":\\"") + x; c = 2;',
  ])
    assert.ok(source!.split('\n').includes(line), line);
  assert.is(compileSerializer(Post, { generate: false }).source, undefined);
});

test('compileSerializer() :: walks its plans where code generation is refused, with the same bytes', () => {
  const schema = { type: 'array', items: { anyOf: [Post, user] } };
  const value = [
    { ...post, pw: 1 },
    { name: 'n', email: 'e', x: 2 },
  ];
  const compiled = compileSerializer(schema);
  const expected = compiled.serialize(value);
  const allowed = globalThis.Function;
  globalThis.Function = function refused() {
    throw new EvalError('Code generation from strings disallowed for this context');
  } as unknown as FunctionConstructor;
  try {
    // A copy of the schema is planned anew, and its code cannot be generated now.
    const walked = compileSerializer(structuredClone(schema), { label: LABEL });
    assert.is(walked.source, undefined);
    assert.is(walked.serialize(value), expected);
    // Code generated while it was allowed still serves, as workerd allows it while a module loads.
    assert.is(compiled.serialize(value), expected);
    const again = compileSerializer(schema, { label: LABEL });
    assert.ok(again.source!.startsWith(`// ${LABEL}: `), 'the same schema object reuses its code');
    assert.is(again.serialize(value), expected);
  } finally {
    globalThis.Function = allowed;
  }
});

test('compileSerializer() :: a schema object shared by routes is planned once, each serializer with its label', () => {
  const shared = { type: 'object', properties: { name: { type: 'string' } } };
  const [show, edit] = ['posts#show response 200', 'posts#edit response 200'].map((label) =>
    compileSerializer(shared, { label }),
  );
  assert.ok(show!.source!.startsWith('// posts#show response 200: '));
  assert.ok(edit!.source!.startsWith('// posts#edit response 200: '));
  assert.throws(() => edit!.serialize({ name: {} }), /^posts#edit response 200: an object where/);
  assert.throws(() => show!.serialize({ name: {} }), /^posts#show response 200: an object where/);
});

test('compileSerializer() :: serves without code generation under --disallow-code-generation-from-strings', async () => {
  const script = `import { compileSerializer } from ${JSON.stringify(new URL('../../core/schema/serialize.js', import.meta.url).href)};
const s = compileSerializer({ type: 'object', properties: { a: { type: 'string' } } });
console.log(JSON.stringify({ source: s.source === undefined, text: s.serialize({ a: 'x', b: 1 }) }));`;
  const { execFile } = await import('node:child_process');
  const out = await new Promise<string>((resolve, reject) =>
    execFile(
      'node',
      ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script],
      (error, stdout) => (error ? reject(error) : resolve(stdout)),
    ),
  );
  assert.equal(JSON.parse(out), { source: true, text: '{"a":"x"}' });
});

test.run();
