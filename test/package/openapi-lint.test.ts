// The OpenAPI documents sevenfold writes pass Redocly's recommended rules with no error: examples/posts'
// (docs/openapi.json, as `npm run docs` writes it) and one whose schemas carry ajv's own keywords.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openapi, resource } from '../../core/index.js';
import { hidden, need, needs } from '../support/needs.js';
import { ROOT } from '../support/paths.js';

const CLI = join(ROOT, 'test/runtimes/node_modules/@redocly/cli/bin/cli.js');
const lint = needs(
  need('the OpenAPI lint (test/package/openapi-lint.test.ts)', [
    hidden('redocly') ??
      (existsSync(CLI)
        ? undefined
        : '@redocly/cli: missing; `npm run runtimes` installs it into test/runtimes/'),
  ]),
  test,
);

/** Redocly's verdict on a document: its error count, read from its summary (warnings are advice). */
async function errorsIn(file: string): Promise<{ errors: number; output: string }> {
  const run = await promisify(execFile)(process.execPath, [CLI, 'lint', file, '--format=summary'], {
    cwd: ROOT,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  }).catch((error: { stdout: string; stderr: string }) => error);
  const output = `${run.stdout}${run.stderr}`;
  const failed = /Validation failed with (\d+) error/.exec(output);
  return { errors: failed === null ? 0 : Number(failed[1]), output };
}

lint('redocly lint :: docs/openapi.json, examples/posts as documented, has no error', async () => {
  const { errors, output } = await errorsIn('docs/openapi.json');
  assert.ok(/valid/.test(output), output);
  assert.is(errors, 0, output);
});

lint(
  'redocly lint :: a document whose schemas use errorMessage has no error, and the rule would see one',
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sevenfold-lint-'));
    try {
      const Note = {
        type: 'object',
        required: ['title'],
        properties: { title: { type: 'string', minLength: 1, errorMessage: 'is required' } },
      } as const;
      const notes = resource(
        'notes',
        { show: () => ({ title: 't' }) },
        { schemas: { show: { response: Note } } },
      );
      const good = join(dir, 'good.json');
      writeFileSync(good, JSON.stringify(openapi(notes, { title: 'notes', version: '1' })));
      const clean = await errorsIn(good);
      assert.is(clean.errors, 0, clean.output);
      // The same document with the keyword put back where OpenAPI does not know it: the lint must refuse it.
      const bad = join(dir, 'bad.json');
      writeFileSync(
        bad,
        JSON.stringify(openapi(notes, { title: 'notes', version: '1' })).replace(
          /"x-errorMessage"/g,
          '"errorMessage"',
        ),
      );
      assert.ok((await errorsIn(bad)).errors > 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

test.run();
