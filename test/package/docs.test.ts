import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_COMPILER_OPTIONS, ROOT, TSC } from '../support/paths.js';

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
    'docs/client.md',
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

// ---- Claims checked mechanically: what the pages say against the files and the code.

/** Files under a folder of the repository, recursively, as paths from the root. */
function filesUnder(folder: string, ending: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .map((name) => `${folder}/${name.split(sep).join('/')}`)
    .filter((path) => path.endsWith(ending) && statSync(join(ROOT, path)).isFile());
}

/** Every Markdown page a reader of the repository meets: the README, docs/ and the examples' pages. */
const MARKDOWN = ['README.md', ...filesUnder('docs', '.md'), ...filesUnder('examples', '.md')];
const SOURCES = [...filesUnder('core', '.ts'), ...filesUnder('adapters', '.ts')];
const read = (path: string): string => readFileSync(join(ROOT, path), 'utf8');

/** A page's prose: fenced blocks blanked (line numbers kept), so code is never read as a link. */
function prose(page: string): string {
  let fenced = false;
  return read(page)
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchors(page: string): Set<string> {
  return new Set([...prose(page).matchAll(/^#{1,6}\s+(.+)$/gm)].map((m) => anchor(m[1]!)));
}

test('docs :: every relative link resolves to a file (and heading) inside the repository', () => {
  const broken: string[] = [];
  for (const page of MARKDOWN) {
    const text = prose(page).replace(/`[^`\n]*`/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target!)) continue; // https:, mailto:
      const [file, hash] = target!.split('#') as [string, string | undefined];
      const path = file === '' ? join(ROOT, page) : resolve(ROOT, dirname(page), decodeURI(file));
      const inside = relative(ROOT, path);
      if (inside.startsWith('..') || inside === '')
        broken.push(`${page}: ${target} points outside the repository`);
      else if (!existsSync(path)) broken.push(`${page}: ${target} does not exist`);
      else if (hash !== undefined && path.endsWith('.md') && !anchors(inside.split(sep).join('/')).has(hash))
        broken.push(`${page}: ${target} names no heading of ${inside}`);
    }
  }
  assert.equal(broken, []);
});

test('docs :: nothing points at shared/, which no clone of the repository has', () => {
  const found = MARKDOWN.flatMap((page) =>
    read(page)
      .split('\n')
      .flatMap((line, i) => (/(^|[^\w-])shared\//.test(line) ? [`${page}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.equal(found, [], 'the example contract is examples/posts/README.md');
});

test('docs :: every core/ and adapters/ source file the pages name exists', () => {
  const missing = [...MARKDOWN, 'docs/performance.md'].flatMap((page) =>
    [...read(page).matchAll(/(?<![\w/.-])((?:core|adapters)\/[\w./-]*?\.ts)\b/g)]
      .map((m) => m[1]!)
      .filter((path) => !existsSync(join(ROOT, path)))
      .map((path) => `${page}: ${path}`),
  );
  assert.equal(missing, []);
});

test('docs :: every test/ file the pages and sources name exists', () => {
  const named = [...MARKDOWN, ...SOURCES].flatMap((page) =>
    [...read(page).matchAll(/(?<![\w/.-])(test\/[\w./-]*?\.ts)\b/g)].map((m) => `${page}: ${m[1]!}`),
  );
  assert.ok(named.length >= 10, `only ${named.length} test files named`);
  assert.equal(
    named.filter((entry) => !existsSync(join(ROOT, entry.slice(entry.indexOf(': ') + 2)))),
    [],
  );
});

/** The members of an exported interface in the sources (its own, not those it extends). */
function members(name: string, files: readonly string[]): string[] {
  for (const file of files) {
    const text = read(file);
    const start = text.search(new RegExp(`export interface ${name}\\b[^{]*\\{`));
    if (start === -1) continue;
    const found: string[] = [];
    let depth = 0;
    for (const line of text.slice(text.indexOf('{', start)).split('\n')) {
      // Members sit at depth 1; nested object types and comments are skipped by their depth or shape.
      const member = depth === 1 ? /^\s*(?:readonly\s+)?(\w+)\??\s*[:(<]/.exec(line) : null;
      if (member) found.push(member[1]!);
      for (const c of line) depth += c === '{' ? 1 : c === '}' ? -1 : 0;
      if (depth === 0) return found;
    }
  }
  throw new Error(`no exported interface ${name} in ${files.join(', ')}`);
}

/** The names in the first column of a page's tables, in backticks (`onError(error, req)` is onError). */
function tableNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, cell] of text.matchAll(/^\|([^|\n]*)\|/gm))
    for (const [, name] of cell!.matchAll(/`(\w+)/g)) names.add(name!);
  return names;
}

test('docs :: adapters.md lists every option of DispatchOptions, ListenOptions, ServeOptions and MountOptions', () => {
  const documented = tableNames(read('docs/adapters.md'));
  const adapters = filesUnder('adapters', '.ts');
  const options = ['DispatchOptions', 'ListenOptions', 'ServeOptions', 'MountOptions'].flatMap((name) =>
    members(name, adapters),
  );
  assert.ok(options.length >= 18, `only ${options.length} options found: ${options.join(', ')}`);
  assert.equal(
    options.filter((option) => !documented.has(option)),
    [],
    'options missing from the tables of docs/adapters.md',
  );
});

test("docs :: api.md's request table has every member of HandlerRequest", () => {
  const api = read('docs/api.md');
  const table = api.slice(api.indexOf('`req`:'), api.indexOf('What the handler returns'));
  const documented = tableNames(table);
  const fields = members('HandlerRequest', ['core/types.ts']);
  assert.ok(fields.includes('context') && fields.includes('params'), fields.join(', '));
  assert.equal(
    fields.filter((field) => !documented.has(field)),
    [],
  );
});

/** Every string and template literal in the sources, as a pattern: `${…}` matches anything. */
function messagePatterns(): RegExp[] {
  const patterns: RegExp[] = [];
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  for (const file of SOURCES) {
    const text = read(file);
    // Reads one literal from its opening quote; returns its pattern's source and where it ends.
    const literal = (at: number): [string, number] => {
      const quote = text[at]!;
      let source = '';
      let i = at + 1;
      while (i < text.length && text[i] !== quote) {
        if (text[i] === '\\') {
          source += escape(text[i + 1] === 'n' ? '\n' : text[i + 1]!);
          i += 2;
        } else if (quote === '`' && text.startsWith('${', i)) {
          let depth = 1;
          i += 2;
          while (i < text.length && depth > 0) {
            const c = text[i]!;
            if (c === '`' || c === "'" || c === '"') i = literal(i)[1];
            else {
              depth += c === '{' ? 1 : c === '}' ? -1 : 0;
              i++;
            }
          }
          source += '[\\s\\S]*?';
        } else source += escape(text[i++]!);
      }
      return [source, i + 1];
    };
    for (let i = 0; i < text.length;) {
      const c = text[i]!;
      if (c === '/' && text[i + 1] === '/')
        i = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
      else if (c === '/' && text[i + 1] === '*') i = text.indexOf('*/', i) + 2;
      else if (c === '`' || c === "'" || c === '"') {
        const [source, end] = literal(i);
        if (source.length > 20) patterns.push(new RegExp(`^${source}$`));
        i = end;
      } else i++;
    }
  }
  return patterns;
}

test('docs :: every error message the pages quote is one the code throws', () => {
  const ours = /^(?:@?[A-Za-z]+\([^()\n]*\)[\w.]*: |[A-Z]+ \/\S* is defined twice: )/;
  const quoted = new Set<string>();
  for (const page of MARKDOWN) {
    const lines = read(page).split('\n');
    let text = false;
    for (const line of lines) {
      if (/^\s*```/.test(line)) text = line.trim() === '```text' || line.trim() === '```';
      else if (text && ours.test(line)) quoted.add(line.trim());
    }
    for (const [, span] of prose(page).matchAll(/`([^`\n]+)`/g)) if (ours.test(span!)) quoted.add(span!);
  }
  assert.ok(quoted.size >= 15, `only ${quoted.size} quoted messages found`);
  const patterns = messagePatterns();
  assert.equal(
    [...quoted].filter((message) => !patterns.some((pattern) => pattern.test(message))),
    [],
    'messages the docs quote that no source file produces',
  );
});

test('docs :: performance.md names every BENCH_ variable', () => {
  const page = read('docs/performance.md');
  const variables = new Set(read('test/bench/run.ts').match(/BENCH_[A-Z]+/g));
  assert.ok(variables.size >= 10, [...variables].join(', '));
  assert.equal(
    [...variables].filter((name) => !page.includes(name)),
    [],
  );
});

test('docs :: the tsconfig getting-started.md gives has the options the examples compile with', () => {
  const page = read('docs/getting-started.md');
  const block = /```json\n([\s\S]*?)\n```/.exec(page);
  assert.ok(block, 'docs/getting-started.md shows a tsconfig.json');
  const given = JSON.parse(block[1]!).compilerOptions as Record<string, unknown>;
  for (const [key, value] of Object.entries(APP_COMPILER_OPTIONS))
    assert.equal(given[key], value, `compilerOptions.${key}`);
});

test.run();
