import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/paths.js';
import { RUNTIMES_DIR } from '../support/runtimes.js';
import { COMMON_TYPES, honoCalls, honoResource } from './type-check-hono.js';
import { actionsOf, fixtureResources, USE } from './type-check-model.js';
import { COMMON_SCHEMAS, pathsCalls, sevenfoldCalls, sevenfoldResource } from './type-check-sevenfold.js';

export { fixtureResources, type FixtureResource } from './type-check-model.js';

/**
 * The fixture the type-check benchmark compiles: one app of `count` resources (type-check-model.ts)
 * written twice, with sevenfold and with Hono, and beside each a module that calls every route through
 * its typed client. Both type the same things: path params, the query, the body and each status's JSON
 * answer. Written as source into a temporary directory; nothing here is committed output.
 */

const STORE = `// An in-memory store, the same on both sides.
export class Store<T extends { readonly id: string }> {
  private readonly rows = new Map<string, T>();
  private next = 0;
  newId(): string {
    return String(++this.next);
  }
  list(offset: number, limit: number, _scope?: string): T[] {
    return [...this.rows.values()].slice(offset, offset + limit);
  }
  search(q: string): T[] {
    return [...this.rows.values()].filter((row) => JSON.stringify(row).includes(q));
  }
  get(id: string): T | undefined {
    return this.rows.get(id);
  }
  insert(row: T): boolean {
    if (this.rows.has(row.id)) return false;
    this.rows.set(row.id, row);
    return true;
  }
  put(row: T): void {
    this.rows.set(row.id, row);
  }
  delete(id: string): boolean {
    return this.rows.delete(id);
  }
}
export const now = (): string => new Date().toISOString();
`;

/** The projects a fixture holds, by what they check: each is a tsconfig whose one entry imports the rest. */
export type FixtureProject =
  | 'sevenfold server'
  | 'sevenfold server + paths()'
  | 'sevenfold server + client'
  | 'hono server'
  | 'hono server + hc';

/** A written fixture: its directory and the tsconfig of each project to check. */
export interface Fixture {
  readonly dir: string;
  readonly projects: Readonly<Record<FixtureProject, string>>;
  readonly resources: number;
  readonly routes: number;
}

// What an app compiles with: strict, ES modules, the DOM's fetch types (Hono's need them), libraries unchecked.
const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    lib: ['es2022', 'dom', 'dom.iterable'],
    types: [],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
};

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

/**
 * Writes the fixture of `count` resources into a new temporary directory (the caller removes it):
 * sevenfold resolves to this checkout's built declarations (`build/core`, as a user's install
 * would), Hono to test/runtimes/node_modules/hono.
 */
export function writeTypesFixture(count: number): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'sevenfold-types-'));
  const resources = fixtureResources(count);
  write(join(dir, 'package.json'), '{ "type": "module", "private": true }\n');
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ROOT, join(dir, 'node_modules', 'sevenfold'), 'dir');
  symlinkSync(join(RUNTIMES_DIR, 'hono'), join(dir, 'node_modules', 'hono'), 'dir');
  const config = (side: string, name: string, entry: string): string => {
    const path = join(dir, side, `tsconfig.${name}.json`);
    write(path, JSON.stringify({ ...TSCONFIG, files: [entry] }, null, 2));
    return path;
  };

  const seven = join(dir, 'sevenfold');
  write(join(seven, 'common.ts'), COMMON_SCHEMAS);
  write(join(seven, 'store.ts'), STORE);
  for (const r of resources) write(join(seven, 'resources', `r${r.index}.ts`), sevenfoldResource(r));
  const imports = resources.map((r) => `import { ${r.name} } from './resources/r${r.index}.js';`);
  write(
    join(seven, 'table.ts'),
    `import { routes } from 'sevenfold';
\n${imports.join('\n')}\n\nexport const table = routes(\n  ${resources.map((r) => r.name).join(',\n  ')},\n);\n`,
  );
  write(
    join(seven, 'paths.ts'),
    `import { paths } from 'sevenfold';
\nimport { table } from './table.js';\n\nconst p = paths(table);\n\n${resources.map(pathsCalls).join('\n\n')}\n`,
  );
  write(
    join(seven, 'client.ts'),
    `import { client } from 'sevenfold/client';\nimport { table } from './table.js';\n\n${USE}\nconst api = client(table, { baseUrl: 'http://localhost' });\n\n${resources.map(sevenfoldCalls).join('\n\n')}\n`,
  );

  const hono = join(dir, 'hono');
  write(join(hono, 'common.ts'), COMMON_TYPES);
  write(join(hono, 'store.ts'), STORE);
  for (const r of resources) write(join(hono, 'resources', `r${r.index}.ts`), honoResource(r));
  const subApps = resources.map((r) => `import { ${r.name} } from './resources/r${r.index}.js';`);
  write(
    join(hono, 'app.ts'),
    `import { Hono } from 'hono';\n${subApps.join('\n')}\n\n// Each resource is a sub-app, mounted as Hono's guide to larger applications does.\nexport const app = new Hono()\n  ${resources.map((r) => `.route('/', ${r.name})`).join('\n  ')};\n\nexport type App = typeof app;\n`,
  );
  write(
    join(hono, 'client.ts'),
    `import { hc } from 'hono/client';\nimport type { App } from './app.js';\n\n${USE}\nconst client = hc<App>('http://localhost');\n\n${resources.map(honoCalls).join('\n\n')}\n`,
  );

  return {
    dir,
    projects: {
      'sevenfold server': config('sevenfold', 'server', 'table.ts'),
      'sevenfold server + paths()': config('sevenfold', 'paths', 'paths.ts'),
      'sevenfold server + client': config('sevenfold', 'client', 'client.ts'),
      'hono server': config('hono', 'server', 'app.ts'),
      'hono server + hc': config('hono', 'client', 'client.ts'),
    },
    resources: count,
    routes: resources.reduce((sum, r) => sum + actionsOf(r).length, 0),
  };
}
