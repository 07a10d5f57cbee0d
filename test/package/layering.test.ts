import { readdirSync, readFileSync } from 'node:fs';
import { join, normalize } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { ROOT } from '../support/paths.js';

const imports = (file: string) =>
  [
    ...readFileSync(join(ROOT, file), 'utf8').matchAll(
      /^(?:import|export)\b[^;]*?\bfrom '([^']+)'|^import '([^']+)'/gm,
    ),
  ].map((m) => (m[1] ?? m[2])!);
/**
 * The modules a file loads at run time: type-only imports and exports are erased, so they may cross layers.
 */
const valueImports = (file: string) =>
  [
    ...readFileSync(join(ROOT, file), 'utf8').matchAll(
      /^(import|export)(\s+type)?\b[^;]*?\bfrom '([^']+)'|^import '([^']+)'/gm,
    ),
  ]
    .filter((m) => m[2] === undefined)
    .map((m) => (m[3] ?? m[4])!);
const resolve = (file: string, name: string) => normalize(join(file, '..', name)).replace(/\.js$/, '.ts');
/** The stage a core or adapters file belongs to: its folder, or the file itself when it sits at the top. */
const stageOf = (file: string) => {
  const parts = file.split('/');
  if (parts[1] === 'features') return `core/features/${parts[2]}/`;
  return parts.length > 2 ? `${parts[0]}/${parts[1]}/` : file;
};
/** Every `.ts` file under `dir`, subfolders included, as a path from the root. */
const sources = (dir: string) =>
  readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `${dir}/${f}`);

/** Every module a source file loads, following relative imports, as `.ts` paths and package names. */
function reach(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const name of imports(file)) {
    if (name.startsWith('.')) reach(normalize(join(file, '..', name)).replace(/\.js$/, '.ts'), seen);
    else seen.add(name);
  }
  return seen;
}

// What each stage may load at run time (type-only imports may cross): the folder says when code runs,
// and each stage builds only on those below it.
const STAGES: Readonly<Record<string, readonly string[]>> = {
  'core/util/': [],
  'core/errors.ts': ['core/util/'],
  'core/request/': ['core/util/', 'core/errors.ts'],
  'core/response/': ['core/util/', 'core/errors.ts', 'core/request/'],
  'core/schema/': ['core/util/', 'core/errors.ts'],
  'core/define/': ['core/util/', 'core/errors.ts', 'core/schema/'],
  'core/table/': ['core/util/', 'core/errors.ts', 'core/define/', 'core/request/'],
  'core/matcher/': ['core/util/', 'core/errors.ts', 'core/table/'],
  'core/openapi/': ['core/util/', 'core/errors.ts', 'core/define/', 'core/table/', 'core/request/'],
  'core/controllers/': ['core/util/', 'core/errors.ts', 'core/define/', 'core/table/'],
  'core/index.ts': [
    'core/util/',
    'core/errors.ts',
    'core/request/',
    'core/response/',
    'core/schema/',
    'core/define/',
    'core/table/',
    'core/matcher/',
    'core/openapi/',
  ],
  'core/http.ts': ['core/util/', 'core/request/'],
  'core/types.ts': [],
  'adapters/pipeline/': [
    'core/util/',
    'core/errors.ts',
    'core/request/',
    'core/response/',
    'core/schema/',
    'core/table/',
    'core/matcher/',
    'core/openapi/',
  ],
  'adapters/http/': [
    'core/util/',
    'core/errors.ts',
    'core/request/',
    'core/response/',
    'core/schema/',
    'adapters/pipeline/',
  ],
  'adapters/web/': ['core/util/', 'core/errors.ts', 'core/request/', 'core/response/', 'adapters/pipeline/'],
  'adapters/fetch.ts': ['adapters/pipeline/', 'adapters/web/'],
  'adapters/node.ts': [
    'core/util/',
    'core/errors.ts',
    'core/response/',
    'adapters/http/',
    'adapters/signals.ts',
  ],
  'adapters/polka.ts': ['adapters/http/'],
  'adapters/cli.ts': ['core/table/', 'core/matcher/', 'core/openapi/', 'core/schema/', 'adapters/http/'],
  'adapters/bin.ts': ['adapters/cli.ts'],
  // The client runs in browsers: it shares only pure helpers with the server (see the test of its entry).
  'core/client/': ['core/util/', 'core/request/'],
};

test('core/ and adapters/ :: each stage loads only the stages below it', () => {
  const files = [...sources('core'), ...sources('adapters')].filter((file) => !isFeature(file));
  let checked = 0;
  for (const file of files) {
    checked++;
    const stage = stageOf(file);
    const allowed = STAGES[stage];
    if (allowed === undefined) {
      if (file.startsWith('adapters/') && !file.slice('adapters/'.length).includes('/')) continue;
      assert.unreachable(`${file} is in ${stage}, which test/package/layering.test.ts gives no rule`);
      continue;
    }
    for (const name of valueImports(file)) {
      if (!name.startsWith('.')) continue;
      const target = stageOf(resolve(file, name));
      assert.ok(
        target === stage || allowed.includes(target),
        `${file} loads ${name} (${target}); ${stage} may load ${allowed.join(', ') || 'nothing else'}`,
      );
    }
  }
  assert.ok(checked > 100, `only ${checked} files were checked`);
});

/** Whether a file is part of a feature: a folder of core/features/ written against the public API. */
const isFeature = (file: string) => file.startsWith('core/features/');

const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
};
/** The package's public entries by name (`sevenfold`, `sevenfold/http`, …), from its `exports`. */
const ENTRIES: ReadonlySet<string> = new Set(
  Object.keys(manifest.exports)
    .filter((key) => key !== './package.json')
    .map((key) => (key === '.' ? 'sevenfold' : `sevenfold/${key.slice(2)}`)),
);
const DEPENDENCIES: ReadonlySet<string> = new Set(Object.keys(manifest.dependencies));

/** What a feature may import: files of its own folder, the package's public entries, its dependencies. */
function featureImportProblem(file: string, name: string): string | undefined {
  if (name.startsWith('.')) {
    const target = resolve(file, name);
    return stageOf(target) === stageOf(file) ? undefined : `${file} imports ${name}, outside its folder`;
  }
  // Node's own modules are the platform, as for any package: the folder serving files needs node:fs.
  if (ENTRIES.has(name) || DEPENDENCIES.has(name) || name.startsWith('node:')) return undefined;
  return `${file} imports ${name}: neither a public entry of sevenfold nor one of its dependencies`;
}

test('core/features/ :: each feature is a folder that imports only its own files, public entries and dependencies', () => {
  const features = sources('core/features').filter((file) => file.endsWith('/index.ts'));
  assert.equal(features.map((file) => file.split('/')[2]).sort(), [
    'assets',
    'caching',
    'cors',
    'health',
    'live',
    'logging',
    'sessions',
  ]);
  for (const file of sources('core/features'))
    for (const name of imports(file)) {
      const problem = featureImportProblem(file, name);
      assert.is(problem, undefined, problem);
    }
});

test('core/features/ :: the rule would see a feature reaching into the core or another feature', () => {
  const file = 'core/features/cors/index.ts';
  assert.ok(featureImportProblem(file, '../../util/headers.js')?.includes('outside its folder'));
  assert.ok(featureImportProblem(file, '../sessions/index.js')?.includes('outside its folder'));
  assert.ok(featureImportProblem(file, 'pg')?.includes('neither'), 'a package sevenfold does not depend on');
  assert.ok(featureImportProblem(file, 'sevenfold/internal')?.includes('neither'));
  assert.is(featureImportProblem(file, './index.js'), undefined);
  assert.is(featureImportProblem(file, 'sevenfold/http'), undefined);
});

test('core/ and adapters/ :: nothing outside core/features/ loads a feature: the core stands without them', () => {
  for (const file of [...sources('core'), ...sources('adapters')].filter((file) => !isFeature(file)))
    for (const name of imports(file)) {
      const target = name.startsWith('.') ? resolve(file, name) : name;
      assert.not.ok(
        isFeature(target) || /^sevenfold\/(assets|cors|caching|sessions|logging|health)$/.test(target),
        `${file} loads ${name}`,
      );
    }
});

test('core/ and adapters/ :: no module loads itself back through its imports (type-only imports aside)', () => {
  const files = [...sources('core'), ...sources('adapters')];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (file: string, trail: string[]): void => {
    if (state.get(file) === 'done') return;
    if (state.get(file) === 'open') {
      assert.unreachable(`import cycle: ${[...trail.slice(trail.indexOf(file)), file].join(' -> ')}`);
      return;
    }
    state.set(file, 'open');
    for (const name of valueImports(file))
      if (name.startsWith('.')) visit(resolve(file, name), [...trail, file]);
    state.set(file, 'done');
  };
  for (const file of files) visit(file, []);
});

test('adapters/pipeline/ :: loads no node: module, so a second I/O shell can reuse it', () => {
  for (const file of sources('adapters/pipeline'))
    for (const name of imports(file)) assert.not.ok(name.startsWith('node:'), `${file} imports ${name}`);
});

test('sevenfold/fetch :: nothing it loads is a node: module, so it runs on workerd without nodejs_compat', () => {
  const loaded = [...reach('adapters/fetch.ts')];
  assert.ok(loaded.includes('adapters/pipeline/handle-request.ts'), 'reach() follows imports');
  for (const name of loaded) assert.not.ok(name.startsWith('node:'), `adapters/fetch.ts loads ${name}`);
  for (const name of ['polka', 'tsyringe', 'reflect-metadata'])
    assert.not.ok(loaded.includes(name), `adapters/fetch.ts loads ${name}`);
});

test('core/ and adapters/ :: every file opens with a comment that says what it is', () => {
  for (const file of [...sources('core'), ...sources('adapters')]) {
    const text = readFileSync(join(ROOT, file), 'utf8').replace(/^#!.*\n/, '');
    assert.ok(/^(\/\/|\/\*)/.test(text), `${file} does not open with a comment`);
  }
});

test('core/ :: imports no node: module and no package but its small dependencies', () => {
  // @standard-schema/spec is types only: nothing of it is loaded at run time.
  const allowed = new Set([
    'negotiator',
    'content-type',
    'secure-json-parse',
    'leven',
    '@standard-schema/spec',
  ]);
  const controllers = new Set(['reflect-metadata', 'tsyringe']);
  for (const file of sources('core').filter((file) => !isFeature(file))) {
    // The folder is the rule: only what sits in core/controllers/ may use the decorator packages.
    const inControllers = file.startsWith('core/controllers/');
    for (const name of imports(file)) {
      if (name.startsWith('.')) {
        const target = normalize(join(file, '..', name));
        assert.ok(target.startsWith('core/'), `${file} imports ${name}, outside core/`);
        assert.ok(
          inControllers || !target.startsWith('core/controllers/'),
          `${file} imports ${name}, from core/controllers/`,
        );
      } else {
        assert.ok(allowed.has(name) || (inControllers && controllers.has(name)), `${file} imports ${name}`);
      }
    }
  }
});

test('sevenfold, sevenfold/node, sevenfold/polka :: load neither polka, tsyringe, reflect-metadata nor core/controllers/', () => {
  assert.ok(reach('core/index.ts').has('leven'), 'reach() follows imports');
  assert.ok(reach('adapters/node.ts').has('secure-json-parse'), 'reach() follows imports');
  assert.ok(reach('core/controllers/index.ts').has('tsyringe'), 'reach() follows imports');
  assert.ok(
    reach('core/controllers/index.ts').has('core/controllers/decorators.ts'),
    'reach() follows imports',
  );
  for (const entry of ['core/index.ts', 'adapters/node.ts', 'adapters/polka.ts']) {
    const loaded = [...reach(entry)];
    for (const name of ['polka', 'tsyringe', 'reflect-metadata']) {
      assert.not.ok(loaded.includes(name), `${entry} loads ${name}`);
    }
    const layer = loaded.find((file) => file.startsWith('core/controllers/'));
    assert.is(layer, undefined, `${entry} loads ${layer}`);
  }
});

/** Every module a source file loads at run time (type-only imports erased), as `.ts` paths and package names. */
function reachAtRunTime(file: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const name of valueImports(file)) {
    if (name.startsWith('.')) reachAtRunTime(resolve(file, name), seen);
    else seen.add(name);
  }
  return seen;
}

test('sevenfold/client :: loads no server code, no node: module and no package: only these pure files', () => {
  assert.ok(
    reachAtRunTime('adapters/fetch.ts').has('adapters/pipeline/handle-request.ts'),
    'it follows imports',
  );
  // A file added here is shipped to every browser that uses the client: keep it pure and small.
  assert.equal([...reachAtRunTime('core/client/index.ts')].sort(), [
    'core/client/index.ts',
    'core/client/request.ts',
    'core/request/file-fields.ts',
    'core/util/encode-url.ts',
  ]);
  // watch() is an entry of its own, so that a client that does not watch does not ship its parser.
  assert.equal([...reachAtRunTime('core/client/watch.ts')].sort(), [
    'core/client/event-stream.ts',
    'core/client/request.ts',
    'core/client/watch.ts',
  ]);
});

test('sevenfold/controllers :: imports reflect-metadata first, before tsyringe', () => {
  const list = imports('core/controllers/index.ts');
  assert.is(list[0], 'reflect-metadata');
  assert.ok(list.indexOf('tsyringe') > 0);
});

test.run();
