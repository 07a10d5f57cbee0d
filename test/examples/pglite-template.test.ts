import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonLogger } from '../../examples/posts/deploy/log.js';
import {
  installedPGliteVersion,
  seedFromTemplate,
  templateFile,
} from '../../examples/posts/deploy/pglite-template.js';
import { openStore } from '../../examples/posts/deploy/store.js';
import { freshDataDir } from '../support/spawn.js';

// A new PGlite folder is unpacked from the database made once and checked in (deploy/pglite-<version>.tar.br),
// not made by initdb at run time.
const test = suite('examples/posts: a new PGlite folder starts from its template');

test('the checked-in template is the installed PGlite version’s, and the only one', () => {
  const file = templateFile();
  assert.ok(
    existsSync(file),
    `no template for PGlite ${installedPGliteVersion()} (${file}): after updating PGlite, write it with ` +
      '`npx tsc -p . && node build/examples/posts/deploy/pglite-template.js --write`',
  );
  const folder = join(file, '..');
  assert.equal(
    readdirSync(folder).filter((name) => name.endsWith('.tar.br')),
    [`pglite-${installedPGliteVersion()}.tar.br`],
  );
});

test('a missing or empty folder is made from it in one step; one that holds anything is left alone', () => {
  const dir = freshDataDir();
  const missing = join(dir, 'missing');
  assert.is(seedFromTemplate(missing), true);
  assert.ok(existsSync(join(missing, 'PG_VERSION')));
  assert.is(seedFromTemplate(missing), false, 'a database is never replaced');

  const empty = join(dir, 'empty');
  mkdirSync(empty);
  assert.is(seedFromTemplate(empty), true);
  assert.equal(
    readdirSync(dir).sort(),
    ['empty', 'missing'],
    'nothing is left beside them (the unpacking happens in a folder renamed into place)',
  );

  const other = join(dir, 'other');
  mkdirSync(other);
  writeFileSync(join(other, 'notes.txt'), 'mine');
  assert.is(seedFromTemplate(other), false);
  assert.equal(readdirSync(other), ['notes.txt']);

  assert.is(seedFromTemplate(join(dir, 'none'), join(dir, 'pglite-0.0.0.tar.br')), false, 'no template');
  assert.not.ok(existsSync(join(dir, 'none')), 'without a template PGlite makes the folder itself');
});

test('a store opened on a new folder is the template’s database, migrated, and keeps what it is given', async () => {
  const log = jsonLogger(() => {});
  const identities: string[] = [];
  for (const dataDir of [freshDataDir(), freshDataDir()]) {
    const store = await openStore({ dataDir }, log);
    try {
      assert.is(store.kind, 'pglite');
      const post = { id: 'p1', title: 'T', body: 'B', createdAt: 'a', updatedAt: 'a' };
      assert.is(await store.repository.insert(post), true);
      assert.equal(await store.repository.get('p1'), post);
    } finally {
      await store.close();
    }
    const again = await openStore({ dataDir }, log);
    try {
      assert.equal((await again.repository.list(10, 0)).total, 1, 'the post outlives a restart');
      // initdb gives every cluster an identifier of its own; a copy of the template keeps the template's.
      identities.push(systemIdentifier(join(dataDir, 'posts')));
    } finally {
      await again.close();
    }
  }
  assert.is(identities[0], identities[1], 'both folders come from the one template');
});

/** The cluster's system identifier: the first field of global/pg_control, fixed by initdb. */
function systemIdentifier(folder: string): string {
  return readFileSync(join(folder, 'global', 'pg_control'))
    .subarray(0, 8)
    .toString('hex');
}

test.run();
