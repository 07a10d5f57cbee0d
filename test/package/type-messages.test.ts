import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { APP_COMPILER_OPTIONS, ROOT, TSC } from '../support/paths.js';

/**
 * What `tsc` says about a handler's mistakes, as a person reads it: each mistake is one diagnostic of at
 * most 300 characters, all its lines as `tsc --pretty false` prints them, that names the field or the
 * status. docs/types.md shows these very messages.
 */

const LIMIT = 300;

const POST = `const Post = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'string' }, title: { type: 'string' } },
  additionalProperties: false,
} as const;
`;

/** A file of one resource whose one handler holds the mistake, its schemas declaring `response`. */
function source(handler: string, response: string, action = 'show'): string {
  return `import { json, resource } from 'sevenfold';

${POST}
export const posts = resource(
  'posts',
  {
    ${handler},
  },
  { schemas: { ${action}: { response: ${response} } } },
);
`;
}

// Each mistake, with what its message must name: a field, a status, or the field its position points at.
const MISTAKES = [
  {
    file: 'field.ts',
    mistake: 'a misspelt field in the answer',
    code: source("show: (req) => ({ id: req.params.post_id, titel: 'Hello' })", 'Post'),
    names: /'title'/,
  },
  {
    file: 'type.ts',
    mistake: 'a field of the wrong type',
    code: source('show: (req) => ({ id: req.params.post_id, title: 42 })', 'Post'),
    names: /'number' is not assignable to type 'string'/,
    at: 'title: 42',
  },
  {
    file: 'missing.ts',
    mistake: 'a required field left out',
    code: source('show: (req) => ({ id: req.params.post_id })', 'Post'),
    names: /'title'/,
  },
  {
    file: 'status.ts',
    mistake: 'a status the schemas do not declare',
    code: source("show: (req) => json({ id: req.params.post_id, title: 'Hello' }, 202)", '{ 200: Post }'),
    names: /'202'.*'200'/,
  },
  {
    file: 'created.ts',
    mistake: 'a plain value (a 200) where only 201 is declared',
    code: source("create: (req) => ({ id: '1', title: 'Hello' })", 'Post', 'create'),
    names: /201/,
  },
] as const;

interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  /** Every line of it, as printed. */
  readonly text: string;
}

/** The diagnostics `tsc --pretty false` printed: a located first line, then its indented lines. */
function diagnostics(output: string): Diagnostic[] {
  const found: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const head = /^(\S+?)\((\d+),(\d+)\): error TS\d+: /.exec(line);
    if (head !== null)
      found.push({ file: head[1]!, line: Number(head[2]), column: Number(head[3]), text: line });
    else if (line.startsWith(' ') && found.length > 0) {
      const last = found.pop()!;
      found.push({ ...last, text: `${last.text}\n${line}` });
    }
  }
  return found;
}

/** Compiles the files in a directory of build/, where `sevenfold` resolves to this package, and reads what tsc says. */
async function compile(
  files: readonly { readonly file: string; readonly code: string }[],
): Promise<Diagnostic[]> {
  const dir = mkdtempSync(join(ROOT, 'build', 'type-messages-'));
  try {
    const tsconfig = { compilerOptions: { ...APP_COMPILER_OPTIONS, noEmit: true, skipLibCheck: true } };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
    for (const { file, code } of files) writeFileSync(join(dir, file), code);
    const run = await promisify(execFile)(TSC, ['-p', dir, '--pretty', 'false'], { cwd: dir }).then(
      () => ({ stdout: '' }),
      (error: { stdout: string }) => error,
    );
    return diagnostics(run.stdout);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('type messages :: a handler’s mistake is one short message that names the field or the status', async () => {
  const found = await compile(MISTAKES);
  for (const { file, mistake, code, names, ...rest } of MISTAKES) {
    const mine = found.filter((d) => d.file === file);
    assert.is(
      mine.length,
      1,
      `${mistake} (${file}): one diagnostic, got:\n${mine.map((d) => d.text).join('\n')}`,
    );
    const { text, line, column } = mine[0]!;
    assert.ok(text.length <= LIMIT, `${mistake}: ${text.length} characters, over ${LIMIT}:\n${text}`);
    assert.match(text, names, `${mistake}: does not name what is wrong:\n${text}`);
    if ('at' in rest) {
      const at = code.split('\n')[line - 1]!.slice(column - 1);
      assert.ok(at.startsWith(rest.at), `${mistake}: reported at ${JSON.stringify(at)}, not at ${rest.at}`);
    }
  }
});

test('type messages :: the same handlers without the mistake compile', async () => {
  const right = [
    source("show: (req) => ({ id: req.params.post_id, title: 'Hello' })", 'Post'),
    source("show: (req) => json({ id: req.params.post_id, title: 'Hello' }, 200)", '{ 200: Post }'),
    source("create: (req, res) => res.created('/posts/1', { id: '1', title: 'Hello' })", 'Post', 'create'),
  ].map((code, i) => ({ file: `right${i}.ts`, code }));
  const found = await compile(right);
  assert.equal(
    found.map((d) => d.text),
    [],
  );
});

test.run();
