// The public API as a report: each package entry's exported names, values and types, read from its source.
// docs/api-report.md is this report checked in; test/package/api-report.test.ts keeps the two equal.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths.js';

/** One entry's exports: what a user imports from `sevenfold` or `sevenfold/<name>`. */
export interface EntryExports {
  readonly entry: string;
  readonly source: string;
  readonly values: readonly string[];
  readonly types: readonly string[];
}

/** The names `file` exports, told apart as values and types; `export *` is refused, so every name is seen. */
export function exportsOf(file: string): { values: string[]; types: string[] } {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const values = new Set<string>();
  const types = new Set<string>();
  if (/^export \*/m.test(text)) throw new Error(`${file}: export * hides names from the report; list them`);
  for (const m of text.matchAll(/^export (type )?\{([^}]*)\}/gm)) {
    for (const raw of m[2]!.split(',')) {
      const item = raw.replace(/\/\/.*$/gm, '').trim();
      if (item === '') continue;
      const isType = m[1] !== undefined || item.startsWith('type ');
      const name = item
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      (isType ? types : values).add(name);
    }
  }
  for (const m of text.matchAll(
    /^export (?:declare )?(?:async )?(?:abstract )?(function|const|let|class|interface|type|enum) (\w+)/gm,
  ))
    (m[1] === 'interface' || m[1] === 'type' ? types : values).add(m[2]!);
  return { values: [...values].sort(), types: [...types].sort() };
}

/** Every entry of the package's `exports`, with the source its `sevenfold:source` condition names. */
export function entries(): EntryExports[] {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    exports: Record<string, string | Record<string, string>>;
  };
  return Object.entries(manifest.exports).flatMap(([key, target]) => {
    if (typeof target === 'string') return [];
    const source = target['sevenfold:source']!.replace(/^\.\//, '');
    const entry = key === '.' ? 'sevenfold' : `sevenfold/${key.slice(2)}`;
    return [{ entry, source, ...exportsOf(source) }];
  });
}

/** The report as markdown: an entry a section, its values and types listed one a line. */
export function apiReport(): string {
  const lines = [
    '# The public API',
    '',
    'Every name each entry of the package exports, generated from the sources by `npm run docs`',
    '(test/support/api-report.ts) and compared by test/package/api-report.test.ts: a change to the public',
    'API shows here, in review. What each name does is in [api.md](api.md) and the feature pages.',
    '',
  ];
  for (const { entry, source, values, types } of entries()) {
    lines.push(
      `## \`${entry}\``,
      '',
      `From \`${source}\`: ${values.length} values, ${types.length} types.`,
      '',
    );
    lines.push(
      '```text',
      ...values.map((name) => `value ${name}`),
      ...types.map((name) => `type  ${name}`),
      '```',
      '',
    );
  }
  return lines.join('\n');
}

// `node build/test/support/api-report.js --write` writes docs/api-report.md (npm run docs does).
if (process.argv[1]?.endsWith('api-report.js') && process.argv.includes('--write'))
  writeFileSync(join(ROOT, 'docs', 'api-report.md'), apiReport());
