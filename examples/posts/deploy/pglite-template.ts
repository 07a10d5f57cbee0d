// A new PGlite folder starts as a copy of a database made once, checked in beside this file: PGlite's own
// initdb, run at first start, took seconds and about 850 MB of memory.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import pg from 'pg';
import { create as pack, UnpackSync } from 'tar';
import { migrate } from './migrations.js';

/** examples/posts/deploy/, where the templates are, found from this module's place in build/. */
const TEMPLATES = fileURLToPath(new URL('../../../../examples/posts/deploy/', import.meta.url));

/** The version of PGlite installed beside the example: a template is used only by the PGlite that made it. */
export function installedPGliteVersion(): string {
  // Its package exports no package.json; its CommonJS entry sits in dist/, one folder below it.
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite');
  return (JSON.parse(readFileSync(join(entry, '..', '..', 'package.json'), 'utf8')) as { version: string })
    .version;
}

/** The template of a PGlite version: a tar of its data directory just after initdb, compressed with Brotli. */
export function templateFile(version = installedPGliteVersion(), folder = TEMPLATES): string {
  return join(folder, `pglite-${version}.tar.br`);
}

/**
 * Makes `folder` a PostgreSQL data directory from `template`, when the template exists and the folder is
 * missing or empty; says whether it did (otherwise PGlite opens the folder, or runs initdb in it, as
 * before). Unpacked beside the folder and renamed into place, so a start stopped half-way leaves no
 * half-made database behind.
 */
export function seedFromTemplate(folder: string, template = templateFile()): boolean {
  if (!existsSync(template) || (existsSync(folder) && readdirSync(folder).length > 0)) return false;
  const partial = `${folder}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  new UnpackSync({ cwd: partial, strict: true }).end(brotliDecompressSync(readFileSync(template)));
  if (!existsSync(join(partial, 'PG_VERSION'))) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`${template} holds no PostgreSQL data directory: write it again (see its module)`);
  }
  rmSync(folder, { recursive: true, force: true });
  renameSync(partial, folder);
  return true;
}

/**
 * Makes the template of the installed PGlite and writes it to examples/posts/deploy/, removing the templates
 * of other versions: a database made in a temporary folder, migrated, shut down cleanly and opened once
 * more (so that a first start has no recovery or DDL to do), packed as a tar. Run after updating
 * PGlite: `npx tsc -p . && node build/examples/posts/deploy/pglite-template.js --write` (a test says when).
 */
export async function writeTemplate(folder = TEMPLATES): Promise<string> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
  const made = mkdtempSync(join(tmpdir(), 'pglite-template-'));
  try {
    for (let start = 0; start < 2; start++) {
      const lite = await PGlite.create(made);
      const pool = new pg.Pool(createPgConfig(lite) as pg.PoolConfig);
      await migrate(pool);
      await pool.end();
      await lite.exec('CHECKPOINT');
      await lite.close();
    }
    const tar = pack({ sync: true, cwd: made, portable: true }, readdirSync(made).sort()).read() as Buffer;
    return writeBrotli(folder, tar);
  } finally {
    rmSync(made, { recursive: true, force: true });
  }
}

/** Writes `tar` as the installed version's template in `folder`, compressed, and removes any other version's. */
function writeBrotli(folder: string, tar: Buffer): string {
  const file = templateFile(installedPGliteVersion(), folder);
  for (const name of readdirSync(folder))
    if (/^pglite-.*\.tar\.br$/.test(name) && name !== basename(file)) unlinkSync(join(folder, name));
  // Made once and read at every new folder's start: the slowest, smallest setting.
  const packed = brotliCompressSync(tar, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: tar.length,
    },
  });
  writeFileSync(file, packed);
  return file;
}

if (process.argv[1]?.endsWith('pglite-template.js') && process.argv.includes('--write'))
  console.log(`wrote ${await writeTemplate()}`);
