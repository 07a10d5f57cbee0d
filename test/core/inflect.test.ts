import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { idParam, IRREGULAR, singular, UNCOUNTABLE } from '../../core/define/inflect.js';
import { ROOT, TSC } from '../support/paths.js';

const CASES: ReadonlyArray<[name: string, param: string | undefined]> = [
  ['posts', 'post_id'],
  ['categories', 'category_id'],
  ['replies', 'reply_id'],
  ['companies', 'company_id'],
  ['keys', 'key_id'],
  ['toys', 'toy_id'],
  ['addresses', 'address_id'],
  ['boxes', 'box_id'],
  ['matches', 'match_id'],
  ['wishes', 'wish_id'],
  ['buzzes', 'buzz_id'],
  ['houses', 'house_id'],
  ['courses', 'course_id'],
  ['databases', 'database_id'],
  ['shoes', 'shoe_id'],
  ['people', 'person_id'],
  ['children', 'child_id'],
  ['movies', 'movie_id'],
  ['statuses', 'status_id'],
  ['quizzes', 'quiz_id'],
  ['indices', 'index_id'],
  ['news', 'news_id'],
  ['data', 'data_id'],
  ['sheep', 'sheep_id'],
  ['blog_posts', 'blog_post_id'],
  ['user_addresses', 'user_address_id'],
  ['big_people', 'big_person_id'],
  ['a_b_c_items', 'a_b_c_item_id'],
  ['Posts', 'Post_id'],
  ['v2_posts', 'v2_post_id'],
  ['ies', 'ie_id'],
  ['sses', 'ss_id'],
  // No rule applies: resource() then requires options.param.
  ['status', undefined],
  ['address', undefined],
  ['analysis', undefined],
  ['people2', undefined],
  ['inbox', undefined],
  ['staff', undefined],
  ['s', undefined],
  ['posts_', undefined],
  ['POSTS', undefined],
  ['post', undefined],
];

test('idParam() :: follows the documented rule', () => {
  for (const [name, param] of CASES) assert.is(idParam(name), param, name);
});

test('singular() :: every irregular and uncountable word, alone and as the last word', () => {
  for (const [plural, one] of Object.entries(IRREGULAR)) {
    assert.is(singular(plural), one);
    assert.is(singular(`old_${plural}`), `old_${one}`);
  }
  for (const word of UNCOUNTABLE) assert.is(singular(word), word);
});

test('idParam() :: the type IdParam<N> agrees with the run-time rule for every name', async () => {
  const names = [
    ...CASES.map(([name]) => name),
    ...Object.keys(IRREGULAR),
    ...UNCOUNTABLE,
    ...Object.keys(IRREGULAR).map((word) => `my_${word}`),
    ...[
      'users',
      'comments',
      'tags',
      'photos',
      'invoices',
      'line_items',
      'taxes',
      'branches',
      'flashes',
      'glasses',
      'bonus',
      'campus',
      'cities',
      'days',
      'monkeys',
      'aies',
      'x',
      'xes',
      'ches',
      'us_states',
      'a__posts',
    ],
  ];
  const lines = names.map((name, i) => {
    const expected = idParam(name);
    return `export type T${i} = Expect<Equal<IdParam<${JSON.stringify(name)}>, ${expected === undefined ? 'never' : JSON.stringify(expected)}>>;`;
  });
  const dir = mkdtempSync(join(ROOT, 'build', 'inflect-'));
  const file = join(dir, 'check.ts');
  writeFileSync(
    file,
    [
      `import type { IdParam } from ${JSON.stringify(join(ROOT, 'core', 'define', 'inflect.js'))};`,
      'type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;',
      'type Expect<T extends true> = T;',
      ...lines,
    ].join('\n'),
  );
  try {
    const flags = [
      '--ignoreConfig',
      '--pretty',
      'false',
      '--noEmit',
      '--strict',
      '--module',
      'nodenext',
      '--moduleResolution',
      'nodenext',
      '--skipLibCheck',
      '--types',
      'node',
    ];
    await promisify(execFile)(TSC, [...flags, file], { cwd: ROOT }).catch((error: { stdout: string }) => {
      const failures = error.stdout
        .split('\n')
        .map((line) => /check\.ts\((\d+),/.exec(line)?.[1])
        .filter((line): line is string => line !== undefined)
        .map((line) => names[Number(line) - 4]);
      assert.unreachable(`IdParam<N> disagrees with idParam() for: ${failures.join(', ')}\n${error.stdout}`);
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
