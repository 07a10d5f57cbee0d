import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { bodyFormat, parseBody } from '../../core/request/parse-body.js';
import { HttpError } from '../../core/errors.js';

function status(call: () => unknown): number | 'ok' {
  try {
    call();
    return 'ok';
  } catch (error) {
    assert.instance(error, HttpError);
    return (error as HttpError).status;
  }
}

const TYPES: ReadonlyArray<
  [contentType: string | undefined, encoding: string | undefined, expected: 'json' | 'form' | 415]
> = [
  ['application/json', undefined, 'json'],
  ['Application/JSON; charset=UTF-8', undefined, 'json'],
  ['application/json;charset="utf-8"', undefined, 'json'],
  ['application/x-www-form-urlencoded', undefined, 'form'],
  ['application/x-www-form-urlencoded; charset=utf-8', 'identity', 'form'],
  ['application/json; charset=latin1', undefined, 415],
  ['application/jsonx', undefined, 415],
  ['text/plain', undefined, 415],
  ['multipart/form-data; boundary=x', undefined, 415],
  ['application/json', 'gzip', 415],
  [undefined, undefined, 415],
  ['', undefined, 415],
];

for (const [type, encoding, expected] of TYPES) {
  test(`bodyFormat() :: ${type ?? '(none)'}${encoding ? ` + ${encoding}` : ''} → ${expected}`, () => {
    let got: string | number;
    try {
      got = bodyFormat(type, encoding);
    } catch (error) {
      got = (error as HttpError).status;
    }
    assert.is(got, expected);
  });
}

test('parseBody() :: JSON values, and 400 for empty, malformed or poisoned JSON', () => {
  assert.equal(parseBody('json', '{"title":"a","n":[1,2]}'), { title: 'a', n: [1, 2] });
  assert.equal(parseBody('json', '[1]'), [1]);
  assert.is(parseBody('json', '"text"'), 'text');
  assert.equal(parseBody('json', '\uFEFF{"a":1}'), { a: 1 }, 'a leading BOM is dropped');
  for (const bad of [
    '',
    '  ',
    '{',
    '{"a":1,}',
    "{'a':1}",
    '{"__proto__":{"x":1}}',
    '{"a":{"constructor":{"prototype":{"x":1}}}}',
  ]) {
    assert.is(
      status(() => parseBody('json', bad)),
      400,
      bad,
    );
  }
  assert.is(({} as Record<string, unknown>).x, undefined);
});

test('parseBody() :: prototype keys spelt with escapes are refused as plainly spelt ones are', () => {
  const poisoned = [
    String.raw`{"\u005f_proto__":{"x":1}}`,
    String.raw`{"__proto\u005F_":{"x":1}}`,
    String.raw`{"a":[{"__proto__" :{"x":1}}]}`,
    String.raw`{"a":{"\u0063onstructor":{"prototype":{"x":1}}}}`,
    String.raw`{"a":{"constructo\u0072":{"prototype":{"x":1}}}}`,
  ];
  for (const bad of poisoned)
    assert.is(
      status(() => parseBody('json', bad)),
      400,
      bad,
    );
  // The words themselves, as values or in other keys, are fine; so are other escapes.
  assert.equal(parseBody('json', '{"title":"__proto__ and constructor"}'), {
    title: '__proto__ and constructor',
  });
  assert.equal(parseBody('json', String.raw`{"title":"a\"b\u00e9","constructor":"x"}`), {
    title: 'a"bé',
    constructor: 'x',
  });
  assert.is(({} as Record<string, unknown>).x, undefined);
});

test('parseBody() :: urlencoded fields land in an object without Object.prototype, repeated ones as arrays', () => {
  const fields = parseBody('form', 'title=Hello+world&body=%E2%9C%93&tag=a&tag=b&constructor=x') as Record<
    string,
    unknown
  >;
  assert.not.ok(Object.prototype.isPrototypeOf(fields));
  assert.equal({ ...fields }, { title: 'Hello world', body: '✓', tag: ['a', 'b'], constructor: 'x' });
  assert.equal({ ...(parseBody('form', '') as object) }, {});
  assert.is(
    status(() => parseBody('form', '__proto__=1')),
    400,
  );
  assert.is(
    status(() => parseBody('form', '%5F%5Fproto%5F%5F[x]=1')),
    'ok',
  );
});

test.run();
