import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pathFor, resource, routes, type Route } from '../../core/index.js';
import { compile } from '../../core/matcher/index.js';
import { wideHash } from '../../core/matcher/hash.js';
import { brief, ok, posts } from '../support/matcher.js';

// Wide nodes: many static children, found by a decision tree or by wideHash(), and the module-wide caches.
test('match() :: a node with many static children (a decision tree, or hashed past 48 keys) finds each and no other', () => {
  for (const count of [40, 400]) {
    const names = Array.from({ length: count }, (_, i) => `r${i}s`).concat(['ab', 'ba', 'abc', 'acb', 'bca']);
    const wide = routes(...names.map((name) => resource(name, { index: ok, show: ok }, { param: 'id' })));
    const m = compile(wide);
    assert.ok(m.generated);
    for (const route of wide) {
      const found = m.match('GET', pathFor(route.path, { id: 'x y' } as never));
      assert.is(found.kind === 'found' && found.route, route, route.name);
    }
    for (const miss of [`/r${count}s`, '/r1', '/R1s', '/ab2', '/cab', '/r1s2', '/'])
      assert.is(m.match('GET', miss).kind, 'not-found', miss);
    assert.is(brief(m.match('DELETE', '/abc/1')), '405 GET, HEAD, OPTIONS');
    // Segments that start with a key and go on: wherever their hash lands, no key may claim them.
    for (let i = 0; i < 4000; i++) assert.is(m.match('GET', `/r1s${i}`).kind, 'not-found', `/r1s${i}`);
  }
});

test('wideHash() :: a key is found only by a segment equal to it, packed or not, however crowded the table', () => {
  // Keys it packs (up to 16 ASCII characters) and keys it cannot (longer, or not ASCII), including
  // `a\u0080`, whose seven-bit packing would equal `b\u0000`'s, and short keys a NUL before them would pack
  // alike.
  const keys = [
    'ab',
    'r1s',
    'abcdefghijklmnop',
    'abcdefghijklmnoq',
    'abcdefghijklmnopq',
    'abcdefghijklmno',
    'résumés',
    'a\u0080',
    'x',
    '中文',
  ];
  keys.push('c', 'cd', 'cde', 'efgh', 'ijklm');
  // Keys of 17 to 64 characters are packed in more words, longer ones are not: lengths about each boundary,
  // and keys alike but late.
  const letters = (length: number, last = '') =>
    Array.from(
      { length: length - last.length },
      (_, i) => 'abcdefghijklmnopqrstuvwxyz0123456789_-'[i % 38],
    ).join('') + last;
  keys.push(
    ...[17, 20, 24, 31, 32, 33, 47, 48, 63, 64, 65, 80].map((length) => letters(length)),
    letters(40, 'x'),
    letters(40, 'y'),
    letters(64, 'é'),
    letters(20, 'q'),
  );
  // One entry per key, 31 keys in 32 entries: a probe passes most keys before the one empty entry, so every
  // comparison is exercised.
  const lookup = wideHash(keys, 1);
  const segments = new Set<string>();
  for (const key of keys) {
    segments
      .add(key)
      .add(`\u0000${key}`)
      .add(`\u0000\u0000${key}`)
      .add(`${key}\u0000`)
      .add(key.slice(1))
      .add(key.slice(0, -1))
      .add(`${key}z`);
    for (let j = 0; j < key.length; j++)
      for (const c of ['a', 'q', 'z', '\u0000', '\u00e9', 'Z'])
        segments.add(key.slice(0, j) + c + key.slice(j + 1));
  }
  segments.add('b\u0000').add('').add('abcdefghijklmnopqr');
  let seed = 1;
  for (let i = 0; i < 3000; i++) {
    let word = '';
    const length = i % 19;
    for (let j = 0; j < length; j++)
      word += 'abmnopqr\u0000\u0080é'[(seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff) % 12];
    segments.add(word);
  }
  for (const segment of segments) {
    for (const [prefix, suffix] of [
      ['/', ''],
      ['/', '/1'],
      ['/x/', '/new'],
    ] as const) {
      const path = prefix + segment + suffix;
      assert.is(lookup(path, prefix.length, path.length), keys.indexOf(segment), JSON.stringify(path));
    }
  }
});

test('match() :: answers as ever once the module-wide builder and Allow caches are full', () => {
  // More distinct param lists and method sets than the caches keep: the ones past the limit are made and not
  // kept.
  for (let i = 0; i < 4200; i++) {
    const custom = {
      ...posts.actions.index,
      name: `c${i}.x`,
      action: 'x',
      method: `M${i}`,
      path: `/c${i}`,
    } as unknown as Route;
    const m = compile(routes(resource(`c${i}s`, { show: ok }), custom), { generate: false });
    assert.is(brief(m.match('GET', `/c${i}s/7`)), `c${i}s.show {"c${i}_id":"7"}`);
    assert.is(brief(m.match('PUT', `/c${i}`)), `405 OPTIONS, M${i}`);
  }
});

test.run();
