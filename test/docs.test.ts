import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_COMPILER_OPTIONS, ROOT, TSC } from './support/paths.js';

// Every ```ts block in the README and docs/ is a whole program, compiled against the
// package's entry points, so the examples cannot drift from the API.
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

interface Block {
  readonly page: string;
  readonly line: number;
  readonly code: string;
}

function blocks(page: string): Block[] {
  const found: Block[] = [];
  const lines = readFileSync(join(ROOT, page), 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```ts') continue;
    const start = i + 1;
    while (++i < lines.length && lines[i]!.trim() !== '```');
    found.push({ page, line: start + 1, code: lines.slice(start, i).join('\n') });
  }
  return found;
}

// The examples sit in build/, inside this package, so `sevenfold` resolves through its own
// exports; the source condition picks the .ts files, as it does for examples/posts.
const TSCONFIG = {
  compilerOptions: {
    ...APP_COMPILER_OPTIONS,
    noEmit: true,
    skipLibCheck: true,
    customConditions: ['sevenfold:source'],
  },
  include: ['*.ts'],
};

test('docs :: every page has TypeScript examples', () => {
  for (const page of [
    'README.md',
    'docs/getting-started.md',
    'docs/api.md',
    'docs/adapters.md',
    'docs/listing.md',
    'docs/controllers.md',
    'docs/nesting.md',
    'docs/singular.md',
    'docs/extra-actions.md',
    'docs/prefix.md',
    'docs/paths.md',
  ]) {
    assert.ok(blocks(page).length > 0, `${page} has no \`\`\`ts example`);
  }
});

test('docs :: every ```ts example compiles against the package', async () => {
  const all = PAGES.flatMap(blocks);
  const dir = mkdtempSync(join(ROOT, 'build', 'docs-'));
  try {
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    const names = all.map((block, i) => {
      const name = `${block.page.replace(/\W+/g, '_')}_line${block.line}_${i}.ts`;
      // `export {}` keeps each example a module of its own, so their names never collide.
      writeFileSync(join(dir, name), `${block.code}\nexport {};\n`);
      return name;
    });
    await promisify(execFile)(TSC, ['-p', dir, '--pretty', 'false'], { cwd: dir }).catch(
      (error: { stdout: string }) => {
        const report = error.stdout.replace(
          /(\S+?)_line(\d+)_\d+\.ts\((\d+),\d+\)/g,
          (_, page: string, line: string, at: string) => {
            const source = PAGES.find((p) => p.replace(/\W+/g, '_') === page) ?? page;
            return `${source}:${Number(line) + Number(at) - 1}`;
          },
        );
        assert.unreachable(`examples that do not compile:\n${report}`);
      },
    );
    assert.ok(names.length >= 10, `only ${names.length} examples found`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
