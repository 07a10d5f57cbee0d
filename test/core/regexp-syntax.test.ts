// toRe2Syntax(): JSON Schema patterns keep JavaScript's meaning under the linear-time engine, and what it
// cannot run is refused.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resource } from '../../core/index.js';
import { anchoredBody, toRe2Syntax, UnsupportedPattern } from '../../core/schema/regexp-syntax.js';
import { ajvCompiler } from '../../adapters/http/ajv.js';
import { createListener } from '../../adapters/node.js';

/** Whether `pattern` accepts `text` under ajv (so the linear engine), as a JSON Schema pattern. */
const accepts = (pattern: string, text: string) =>
  ajvCompiler.compile({ type: 'string', pattern }, 'json')(text) === undefined;

// [pattern, text]: every row answers as JavaScript's own engine does with the u flag.
const SAME_AS_JAVASCRIPT: ReadonlyArray<readonly [string, string]> = [
  ['^\\s+$', ' \t\n\r\v\f\u00a0\u2028\u3000\ufeff'],
  ['^\\S+$', 'a\u00a0b'],
  ['^[\\s\\S]{3}$', 'a\nb'],
  ['^[^\\s]+$', 'ab\u2003'],
  ['^[\\S]+$', 'é😀'],
  ['^.$', '\n'],
  ['^.$', '\u2028'],
  ['^.$', '😀'],
  ['^.{2}$', 'ab'],
  ['^\\u00e9$', 'é'],
  ['^\\u{1F600}$', '😀'],
  ['^\\ud83d\\ude00$', '😀'],
  ['^[^\\u0000\\ud800-\\udfff]*$', 'a\u0000'],
  ['^[^\\u0000\\ud800-\\udfff]*$', 'a\ud800b'],
  ['^[^\\u0000\\ud800-\\udfff]*$', 'plain 😀'],
  ['^a\\0b$', 'a\u0000b'],
  ['^[a-z0-9_-]{1,64}$', 'post-1'],
  ['\\d', 'x٣'],
  ['^\\w+$', 'héllo'],
  ['\\bword\\b', 'a word here'],
  ['^\\/posts\\/\\.\\*$', '/posts/.*'],
  ['^\\p{L}+$', 'héllo'],
  ['^(?:ab|cd)+$', 'abcdab'],
  ['^(?<year>\\d{4})-\\d\\d$', '2026-11'],
  // Anchored both ends or not: a whole-string test only where `^` and `$` bound all of it.
  ['^a|b$', 'xb'],
  ['^a|b$', 'ax'],
  ['^(a|b)$', 'b'],
  ['^(a|b)$', 'ab'],
  ['^a\\$', 'a$'],
  ['^a\\\\$', 'a\\'],
  ['^[$]$', '$'],
  ['a$', 'ba'],
  ['^a', 'ab'],
  ['^a$', 'a\n'],
];

test('toRe2Syntax() :: a pattern answers as JavaScript does, under the linear engine', () => {
  for (const [pattern, text] of SAME_AS_JAVASCRIPT) {
    const expected = new RegExp(pattern, 'u').test(text);
    assert.is(accepts(pattern, text), expected, `${pattern} on ${JSON.stringify(text)}`);
  }
});

test('anchoredBody() :: the body only when ^ and $ bound the whole pattern', () => {
  assert.is(anchoredBody('^[a-z]+$'), '[a-z]+');
  assert.is(anchoredBody('^(a|b)$'), '(a|b)');
  assert.is(anchoredBody('^a|b$'), undefined);
  assert.is(anchoredBody('^a\\$'), undefined);
  assert.is(anchoredBody('^a\\\\$'), 'a\\\\');
  assert.is(anchoredBody('^[$]'), undefined);
  assert.is(anchoredBody('a$'), undefined);
});

test('toRe2Syntax() :: rewrites only what RE2 reads differently', () => {
  assert.is(toRe2Syntax('^[a-z]+$'), '^[a-z]+$');
  assert.is(toRe2Syntax('\\u00e9'), '\\x{e9}');
  assert.is(toRe2Syntax('\\u{1F600}'), '\\x{1f600}');
  assert.is(toRe2Syntax('a.b'), 'a[^\\n\\r\\x{2028}\\x{2029}]b');
  assert.is(toRe2Syntax('[.]'), '[.]');
});

test('toRe2Syntax() :: lookarounds and backreferences are refused, naming the construct and the fix', () => {
  for (const [pattern, construct] of [
    ['(?=a)b', 'a lookaround'],
    ['(?!a)b', 'a lookaround'],
    ['(?<=a)b', 'a lookaround'],
    ['(?<!a)b', 'a lookaround'],
    ['(a)\\1', 'a backreference'],
    ['(?<x>a)\\k<x>', 'a backreference'],
  ] as const) {
    assert.throws(
      () => toRe2Syntax(pattern),
      (error: unknown) =>
        error instanceof UnsupportedPattern &&
        error.message.includes(construct) &&
        error.message.includes('rewrite it without lookarounds and backreferences'),
      pattern,
    );
  }
});

test('schemas :: a pattern the linear engine cannot run fails at start-up, naming the route and the part', () => {
  const notes = resource(
    'notes',
    { create: () => undefined },
    {
      schemas: {
        create: { body: { type: 'object', properties: { slug: { type: 'string', pattern: '^(?!admin)' } } } },
      },
    },
  );
  assert.throws(
    () => createListener(notes),
    (error: unknown) =>
      error instanceof Error &&
      /route notes\.create: its body schema/.test(error.message) &&
      /uses a lookaround/.test(error.message),
  );
});

test('ajv :: with maxLength, a pattern searches only strings within twice that length', () => {
  const check = ajvCompiler.compile({ type: 'string', maxLength: 4, pattern: '^a+$' }, 'json');
  assert.equal(
    check('b'.repeat(9))?.map((error) => error.keyword),
    ['maxLength'],
    'too long: refused by its length alone',
  );
  assert.equal(
    check('bbbbb')?.map((error) => error.keyword),
    ['maxLength', 'pattern'],
    'within twice the limit: both said',
  );
  assert.is(check('aaaa'), undefined);
});

test.run();
