import { test } from 'uvu';
import * as assert from 'uvu/assert';
import {
  isFresh,
  noneMatchHas,
  opaqueTag,
  parseHttpDate,
  weakTag,
} from '../../core/features/caching/conditional.js';
import { fingerprint } from '../../core/features/caching/fingerprint.js';

// Conditional requests read strictly (RFC 9110 §13): weak comparison, lists and `*`, HTTP-dates in their three
// forms; whatever cannot be read is never a match, so garbage never earns a 304.

const TAG = 'W/"abc"';

test('noneMatchHas() :: weak comparison, lists, * and optional whitespace (hono #4170, #5083)', () => {
  const cases: [string | string[], boolean][] = [
    ['"abc"', true],
    ['W/"abc"', true],
    ['"abd"', false],
    ['"x", W/"abc"', true],
    ['"x",W/"abc"', true],
    [' \t"abc"\t ', true],
    [', "abc" ,', true],
    ['*', true],
    [' * ', true],
    [['"x"', 'W/"abc"'], true],
    ['', false],
    ['W/""', false],
  ];
  for (const [field, expected] of cases) {
    assert.is(noneMatchHas(field, TAG), expected, JSON.stringify(field));
    assert.is(noneMatchHas(field, '"abc"'), expected, `${JSON.stringify(field)} against a strong tag`);
  }
});

test('noneMatchHas() :: a field that is not a list of entity-tags matches nothing, even holding the tag', () => {
  const garbage = [
    'abc',
    '"abc',
    'W/abc',
    'w/"abc"',
    '"abc" "x"',
    '"abc", garbage',
    'garbage, "abc"',
    '*, "abc"',
    '"abc", *',
    '**',
    '"a b"',
    '"abc"\u0000',
    '"ab\u007fc"',
    '"abc\u0100"',
    'W/ "abc"',
    '"abc";q=1',
  ];
  for (const field of garbage) assert.is(noneMatchHas(field, TAG), false, JSON.stringify(field));
  assert.is(noneMatchHas('"x"', 'abc'), false, 'an entity-tag that is not one (a handler’s) matches nothing');
  assert.is(
    noneMatchHas('"caf\u00e9"', '"caf\u00e9"'),
    true,
    'obs-text, as a header string holds it, is an etagc',
  );
});

test('noneMatchHas() :: huge lists are read in one pass; one bad member spoils the whole field', () => {
  const many = Array.from({ length: 20_000 }, (_, i) => `W/"tag-${i}"`);
  assert.is(noneMatchHas([...many, TAG].join(', '), TAG), true);
  assert.is(noneMatchHas(many.join(', '), TAG), false);
  assert.is(noneMatchHas([TAG, ...many, 'oops'].join(', '), TAG), false);
  assert.is(noneMatchHas(`"${'x'.repeat(100_000)}`, TAG), false, 'unterminated after 100 000 characters');
});

test('opaqueTag() :: the quoted part of a weak or strong entity-tag, or undefined', () => {
  assert.is(opaqueTag('W/"x"'), '"x"');
  assert.is(opaqueTag('"x"'), '"x"');
  for (const bad of ['x', 'W/"x', '"x"y', 'W/', '', '"x"\r\n']) assert.is(opaqueTag(bad), undefined, bad);
});

test('parseHttpDate() :: IMF-fixdate, RFC 850 and asctime; anything else is not a date', () => {
  const expected = Date.UTC(1994, 10, 6, 8, 49, 37);
  assert.is(parseHttpDate('Sun, 06 Nov 1994 08:49:37 GMT'), expected);
  assert.is(parseHttpDate('Sunday, 06-Nov-94 08:49:37 GMT'), expected);
  assert.is(parseHttpDate('Sun Nov  6 08:49:37 1994'), expected);
  const now = new Date(Math.floor(Date.now() / 1000) * 1000);
  assert.is(parseHttpDate(now.toUTCString()), now.getTime(), 'what toUTCString() writes');
  for (const bad of [
    '',
    'Sun, 06 Nov 1994 08:49:37 UTC',
    'sun, 06 nov 1994 08:49:37 gmt',
    '1994-11-06T08:49:37Z',
    'Sun, 31 Feb 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 24:00:00 GMT',
    'Sun, 06 Nov 1994 08:60:00 GMT',
    'Sun, 06 Foo 1994 08:49:37 GMT',
    'Sun, 06 Nov 1994 08:49:37 GMT, Mon, 07 Nov 1994 08:49:37 GMT',
    ' Sun, 06 Nov 1994 08:49:37 GMT',
    'yesterday',
  ])
    assert.is(parseHttpDate(bad), undefined, bad);
});

const lastModified = Date.UTC(2024, 0, 2, 3, 4, 5);
const at = (ms: number) => new Date(ms).toUTCString();
const get = (headers: Record<string, string | string[]>, method = 'GET') => ({ method, headers });

test('isFresh() :: If-None-Match first; If-Modified-Since only without it (RFC 9110 §13.2.2)', () => {
  const current = { etag: TAG, lastModified };
  assert.ok(isFresh(get({ 'if-none-match': '"abc"' }), current));
  assert.ok(isFresh(get({ 'if-none-match': '"abc"' }, 'HEAD'), current));
  assert.not.ok(isFresh(get({ 'if-none-match': '"abc"' }, 'POST'), current), 'only GET and HEAD');
  assert.not.ok(
    isFresh(get({ 'if-none-match': '"other"', 'if-modified-since': at(lastModified) }), current),
    'a present If-None-Match that does not match decides: If-Modified-Since is ignored',
  );
  assert.not.ok(
    isFresh(get({ 'if-none-match': 'garbage', 'if-modified-since': at(lastModified) }), current),
    'nor does an unreadable one let If-Modified-Since decide',
  );
  assert.ok(isFresh(get({ 'if-modified-since': at(lastModified) }), current));
  assert.ok(isFresh(get({ 'if-modified-since': at(lastModified + 60_000) }), current));
  assert.not.ok(isFresh(get({ 'if-modified-since': at(lastModified - 1000) }), current));
  assert.not.ok(isFresh(get({ 'if-modified-since': 'not a date' }), current));
  assert.not.ok(isFresh(get({ 'if-modified-since': [at(lastModified), at(lastModified)] }), current));
  assert.not.ok(isFresh(get({ 'if-modified-since': at(lastModified) }), { etag: TAG }));
  assert.not.ok(isFresh(get({}), current), 'an unconditional request');
});

test('isFresh() :: * asks whether any representation exists: with no tag to compare, it does', () => {
  assert.ok(isFresh(get({ 'if-none-match': '*' }), { lastModified }));
  assert.not.ok(isFresh(get({ 'if-none-match': '"abc"' }), { lastModified }));
});

test('weakTag() :: the same bytes as text or bytes (even at an odd offset) get one tag; another type another', () => {
  const text = '{"title":"caf\u00e9 \u{1F600}"}';
  const bytes = new TextEncoder().encode(text);
  const odd = Buffer.concat([Buffer.from('x'), Buffer.from(bytes)]).subarray(1);
  assert.is(weakTag(bytes, 'application/json'), weakTag(text, 'application/json'));
  assert.is(weakTag(odd, 'application/json'), weakTag(text, 'application/json'));
  assert.is.not(weakTag(text, 'text/plain'), weakTag(text, 'application/json'));
  assert.match(weakTag(''), /^W\/"0-[0-9a-z]+"$/);
  const big = 'é'.repeat(200_000);
  assert.is(weakTag(big), weakTag(new TextEncoder().encode(big)), 'past the reused buffer too');
  assert.ok(noneMatchHas(weakTag(text), weakTag(text)), 'a tag it makes is one it reads');
});

test('fingerprint() :: different bodies differ, changes in the high bits of neighbouring words included', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 20_000; i++) seen.add(fingerprint(`{"id":${i},"title":"post"}`));
  assert.is(seen.size, 20_000);
  // A multiply alone carries a word's top bit nowhere but the top: two such flips would cancel out.
  const a = new Uint8Array(16);
  const b = new Uint8Array(16);
  b[3] = 0x80;
  b[7] = 0x80;
  assert.is.not(fingerprint(a), fingerprint(b));
  assert.is.not(fingerprint('ab'), fingerprint('ba'));
});

test.run();
