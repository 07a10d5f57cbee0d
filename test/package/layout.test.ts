import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../support/paths.js';

// README's Layout is the map a newcomer reads first: every folder in it, every source file named in its
// folder's lines, and nothing that is gone.

/** The Layout's code block: its folders (as paths) and, for each, the text of its lines. */
export function layoutOf(readme: string): Map<string, string> {
  const section = readme.slice(readme.indexOf('## Layout'));
  const block = /```text\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README.md has no ```text block under ## Layout');
  const folders = new Map<string, string>();
  const open: Array<{ indent: number; path: string }> = [];
  for (const line of block.split('\n')) {
    if (line.trim() === '') continue;
    const indent = line.length - line.trimStart().length;
    const folder = /^\s*([\w.-]+)\/(\s|$)/.exec(line);
    while (open.length > 0 && open.at(-1)!.indent >= indent) open.pop();
    if (folder !== null) {
      const path = [...open.map((entry) => entry.path.split('/').at(-1)), folder[1]].join('/');
      open.push({ indent, path });
      folders.set(
        path,
        line
          .trimStart()
          .slice(folder[1]!.length + 1)
          .trim(),
      );
    } else {
      const owner = open.at(-1);
      if (owner === undefined) throw new Error(`a Layout line outside any folder: ${line}`);
      folders.set(owner.path, `${folders.get(owner.path)} ${line.trim()}`);
    }
  }
  return folders;
}

/** The folders of the repository's tree that the Layout maps (what npm installed and builds aside). */
function treeFolders(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    found.push(dir);
    for (const name of readdirSync(join(ROOT, dir)))
      if (name !== 'node_modules' && statSync(join(ROOT, dir, name)).isDirectory()) walk(`${dir}/${name}`);
  };
  for (const top of ['core', 'adapters', 'examples', 'test', 'docs']) walk(top);
  return found;
}

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const layout = layoutOf(readme);

test('README Layout :: names every folder of core/, adapters/, examples/, test/ and docs/, and no other', () => {
  const tree = treeFolders();
  assert.ok(tree.includes('core/features/sessions'), 'the walk reaches nested folders');
  assert.equal(
    tree.filter((dir) => !layout.has(dir)),
    [],
    'folders the Layout does not name',
  );
  assert.equal(
    [...layout.keys()].filter((dir) => !tree.includes(dir)),
    [],
    'folders the Layout names that do not exist',
  );
});

test('README Layout :: every source file of core/ and adapters/ is named in its folder’s lines', () => {
  const missing: string[] = [];
  for (const dir of treeFolders().filter((dir) => dir.startsWith('core') || dir.startsWith('adapters')))
    for (const name of readdirSync(join(ROOT, dir)).filter((name) => name.endsWith('.ts'))) {
      const stem = name.slice(0, -'.ts'.length);
      const words = layout.get(dir) ?? '';
      if (!new RegExp(`(^|[^\\w-])${stem.replace(/[.-]/g, '\\$&')}(\\.ts)?([^\\w-]|$)`).test(words))
        missing.push(`${dir}/${name}`);
    }
  assert.equal(missing, []);
});

test('layoutOf() :: folders nest by indentation, and continuation lines belong to the folder above', () => {
  const map = layoutOf('## Layout\n\n```text\na/     one\n  b/   two\n       three\n  c.ts d.ts\n```\n');
  assert.equal([...map.keys()], ['a', 'a/b']);
  assert.is(map.get('a/b'), 'two three');
  assert.match(map.get('a')!, 'c.ts d.ts');
});

test.run();
