// `sevenfold routes|validators <module>`: a module's tables printed as a listing, JSON, OpenAPI or the matcher's walk,
// or their JSON Schemas compiled ahead of time.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { filterRoutes, formatRoutes, LISTING_FORMATS, type ListingFormat } from '../core/table/listing.js';
import { compile } from '../core/matcher/index.js';
import { openapi } from '../core/openapi/index.js';
import { tableHooks } from '../core/table/scope.js';
import { routes } from '../core/table/table.js';
import { responseChecks, routeChecks, validates } from '../core/schema/checks.js';
import { compileSerializer } from '../core/schema/serialize.js';
import { ajvVersion, standaloneGenerator } from './http/ajv.js';
import type { Route, RouteTable } from '../core/types.js';

/** Where the CLI writes and which folder it resolves modules from; tests pass their own. */
export interface Io {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly cwd: string;
}

const USAGE = `Usage: sevenfold routes <module> [options]
       sevenfold validators <module> [--export NAME] [--out FILE] [--check-responses]

routes prints the routes a module exports (resources, tables from routes(), or routes).
validators compiles their JSON Schemas ahead of time into a module that imports nothing, for the
\`validators\` option (runtimes that refuse code generation, such as Cloudflare Workers).
A .ts module needs node to run with a TypeScript loader, or compile it and pass the .js.

Options:
  --export NAME                   only this export of the module (default: every export with routes)
  --out FILE                      validators: write FILE (.ts, or .js with a .d.ts beside) instead of printing
  --check-responses               validators: also the response schemas, for a server with checkResponses
  --format text|md|json|openapi   output format (default: text)
  --format walk                   the code the matcher generates for these routes, with a legend
  --format serializers            the code that writes each route's JSON answers, per declared status
  --grep TEXT                     only routes whose name, method, path or action contains TEXT
  --resource NAME                 only the routes of this resource
  --method METHOD                 only routes with this method
  --title TEXT, --api-version V   the OpenAPI info (default: from ./package.json)
  --server URL                    where the API is served, for OpenAPI's servers (repeat for several; default /)
  --no-method-override            OpenAPI for a server started with methodOverride: false
  --no-cross-site-protection      OpenAPI for a server started with crossSiteProtection: false
  -h, --help                      this help
`;

class UsageError extends Error {}

function isRoute(value: unknown): value is Route {
  const v = value as Route;
  return (
    v !== null &&
    typeof v === 'object' &&
    typeof v.path === 'string' &&
    typeof v.method === 'string' &&
    typeof v.handler === 'function'
  );
}

/** The routes one export holds: a resource or table's, a single route, or none. */
function routesIn(value: unknown): Route[] {
  if (isRoute(value)) return [value];
  if (Array.isArray(value) && value.length > 0 && value.every(isRoute)) return value;
  if (value !== null && typeof value === 'object' && Array.isArray((value as { routes?: unknown }).routes))
    return (value as { routes: unknown[] }).routes.filter(isRoute);
  return [];
}

/**
 * The routes among a module's exports: resources, tables and single routes, each once, with the hooks a
 * scoped table runs before matching (which the listing names). The same route reached through two exports
 * (a resource, and the scope that wraps it) is one route, listed as the scope has it; two routes that
 * share a method and path but not a handler are a real conflict, which routes() names.
 */
export function routesOf(exports: Record<string, unknown>): RouteTable {
  const holding = Object.entries(exports).filter(([, value]) => routesIn(value).length > 0);
  const chosen = new Map<string, { route: Route; from: string }>();
  for (const [from, value] of holding)
    for (const route of routesIn(value)) {
      const key = `${route.method} ${route.path}`;
      const seen = chosen.get(key);
      if (seen !== undefined && seen.route.handler !== route.handler)
        throw new Error(
          `${key} is defined twice: by ${seen.route.name} (export ${seen.from}) and by ${route.name} (export ${from}), with different handlers; remove one, give one another path, or pass --export`,
        );
      if (seen === undefined || around(route) > around(seen.route)) chosen.set(key, { route, from });
    }
  const listed = [...chosen.values()].map(({ route }) => route);
  // A scope's table that holds every route listed is the table mounted: the hooks it runs before matching
  // stay with it.
  const mounted = holding
    .map(([, value]) => value)
    .find(
      (value): value is RouteTable =>
        Array.isArray(value) &&
        tableHooks(value).length > 0 &&
        listed.every((route) => value.includes(route)),
    );
  return mounted ?? routes(listed);
}

/** How much a copy of a route has around it: the scope that wraps a resource adds its guards and hooks. */
function around(route: Route): number {
  return (route.guards?.length ?? 0) + (route.hooks?.length ?? 0);
}

/** The exports picked by `--export NAME`: that one, or an error naming the exports that hold routes. */
function pick(exports: Record<string, unknown>, name: string, specifier: string): Record<string, unknown> {
  if (Object.hasOwn(exports, name) && routesIn(exports[name]).length > 0) return { [name]: exports[name] };
  const tables = Object.keys(exports).filter((key) => routesIn(exports[key]).length > 0);
  const problem = Object.hasOwn(exports, name)
    ? `export "${name}" of ${specifier} holds no routes`
    : `${specifier} has no export "${name}"`;
  throw new Error(
    tables.length > 0
      ? `${problem}: pass --export with one of ${tables.join(', ')}`
      : `${problem}, and no export holds routes: export a resource, a table from routes(), or a route`,
  );
}

const TYPESCRIPT = ['.ts', '.mts', '.cts', '.tsx'];

async function load(specifier: string, cwd: string): Promise<Record<string, unknown>> {
  const file = resolve(cwd, specifier);
  if (!existsSync(file)) throw new Error(`cannot find module ${specifier} (looked for ${file})`);
  // What the module prints as it loads goes to stderr: stdout carries the listing, which a tool parses.
  const printed = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = console.error;
  try {
    return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    if (
      (error as { code?: unknown }).code === 'ERR_UNKNOWN_FILE_EXTENSION' &&
      TYPESCRIPT.includes(extname(file))
    ) {
      throw new Error(
        `cannot load ${specifier}: node runs here without a TypeScript loader. Either\n` +
          `  - compile it with tsc and pass the .js file tsc emits, or\n` +
          `  - run node with a TypeScript loader: NODE_OPTIONS="--import tsx" npx sevenfold routes ${specifier}\n` +
          `    (with tsx installed), or NODE_OPTIONS=--experimental-strip-types on Node >= 22.6.\n` +
          `tsx and type stripping emit no decorator metadata: a module with controllers needs tsc.`,
      );
    }
    throw new Error(`loading ${specifier} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    Object.assign(console, printed);
  }
}

function packageInfo(cwd: string): { title: string; version: string } {
  try {
    const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8')) as {
      name?: string;
      version?: string;
    };
    return { title: pkg.name ?? 'API', version: pkg.version ?? '0.0.0' };
  } catch {
    return { title: 'API', version: '0.0.0' };
  }
}

/** The code that writes each route's JSON answers, per declared status, as the adapters compile it. */
function serializerSources(table: RouteTable): string {
  const parts: string[] = [];
  for (const route of table)
    for (const [status, schema] of Object.entries(route.schema?.response ?? {})) {
      const label = `${route.name} response ${status}`;
      parts.push(
        `// ${label}\n${compileSerializer(schema, { label }).source ?? '// (walked: no code generation here)'}\n`,
      );
    }
  return parts.length === 0
    ? "// No route here declares a response schema: JSON answers are JSON.stringify's.\n"
    : parts.join('\n');
}

/**
 * The table's JSON Schemas as ajv's standalone code, each under the key the adapters look it up by (response
 * schemas only with `checkResponses`, as a server compiles them): printed, or written to `out` as TypeScript
 * (`.ts`, `.mts`, type-checking off) or JavaScript (`.js`, `.mjs`) with its declaration beside.
 */
function writeValidators(
  table: RouteTable,
  command: string,
  out: string | undefined,
  responses: boolean,
  io: Io,
) {
  const generator = standaloneGenerator();
  let count = 0;
  for (const route of table) {
    const before = generator.size();
    if (validates(route)) routeChecks(route, generator);
    if (responses) responseChecks(route, generator);
    // Routes whose schemas are all Standard Schema compile nothing here.
    if (generator.size() > before) count++;
  }
  const kind = out === undefined ? 'js' : /\.([cm]?[jt]s)$/.exec(out)?.[1];
  if (kind === undefined || kind.startsWith('c'))
    throw new UsageError(`--out ${out}: the validators are an ES module; name it .ts, .mts, .js or .mjs`);
  const typescript = kind.endsWith('ts');
  const text = generator.print(
    `Generated by \`${command}\` (ajv ${ajvVersion()}): the JSON Schemas of ${count} routes,\n` +
      'compiled ahead of time for the `validators` option. Do not edit; generate it again when a schema changes\n' +
      '(a schema missing here is refused at start-up).',
    typescript,
  );
  if (out === undefined) return io.out(text);
  const file = resolve(io.cwd, out);
  writeFileSync(file, text);
  if (!typescript)
    writeFileSync(
      file.replace(/\.(m?)js$/, '.d.$1ts'),
      "import type { PrecompiledValidators } from 'sevenfold/fetch';\n" +
        'declare const validators: PrecompiledValidators;\nexport default validators;\n',
    );
  io.err(`sevenfold: wrote the validators of ${count} routes to ${out}\n`);
}

/** Runs `sevenfold <args>` and resolves with the exit code: 0 done, 1 failed, 2 misused. */
export async function main(args: readonly string[], io: Io): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...args],
      allowPositionals: true,
      options: {
        export: { type: 'string' },
        out: { type: 'string' },
        'check-responses': { type: 'boolean' },
        format: { type: 'string', default: 'text' },
        grep: { type: 'string' },
        resource: { type: 'string' },
        method: { type: 'string' },
        title: { type: 'string' },
        'api-version': { type: 'string' },
        server: { type: 'string', multiple: true },
        'no-method-override': { type: 'boolean' },
        'no-cross-site-protection': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) {
      io.out(USAGE);
      return 0;
    }
    const [command, specifier, ...rest] = positionals;
    if (command !== 'routes' && command !== 'validators')
      throw new UsageError(command === undefined ? 'missing command' : `unknown command "${command}"`);
    if (specifier === undefined)
      throw new UsageError('missing <module>: the file that exports your resources');
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const format = values.format;
    if (
      format !== 'openapi' &&
      format !== 'walk' &&
      format !== 'serializers' &&
      !(LISTING_FORMATS as readonly string[]).includes(format)
    ) {
      throw new UsageError(`unknown format "${format}": use text, md, json, openapi, walk or serializers`);
    }
    const exports = await load(specifier, io.cwd);
    const table = routesOf(values.export === undefined ? exports : pick(exports, values.export, specifier));
    if (table.length === 0) {
      throw new Error(`${specifier} exports no routes: export a resource, a table from routes(), or a route`);
    }
    if (command === 'validators') {
      const listing = ['format', 'grep', 'resource', 'method', 'title', 'api-version', 'server'] as const;
      const misplaced = listing.find(
        (name) => values[name] !== undefined && !(name === 'format' && values.format === 'text'),
      );
      if (misplaced !== undefined) throw new UsageError(`--${misplaced} is for the routes command`);
      const responses = values['check-responses'] === true;
      const named = values.export === undefined ? '' : ` --export ${values.export}`;
      const line = `sevenfold validators ${specifier}${named}${responses ? ' --check-responses' : ''}`;
      writeValidators(table, line.replace(/[\r\n\u2028\u2029]/g, ' '), values.out, responses, io);
      return 0;
    }
    if (values.out !== undefined) throw new UsageError('--out is for the validators command');
    if (values['check-responses'] !== undefined)
      throw new UsageError('--check-responses is for the validators command');
    const shown = filterRoutes(table, {
      grep: values.grep,
      resource: values.resource,
      method: values.method,
    });
    if (format === 'openapi') {
      const info = packageInfo(io.cwd);
      const document = openapi(
        shown,
        {
          title: values.title ?? info.title,
          version: values['api-version'] ?? info.version,
          ...(values.server === undefined ? {} : { servers: values.server.map((url) => ({ url })) }),
        },
        {
          methodOverride: values['no-method-override'] !== true,
          crossSiteProtection: values['no-cross-site-protection'] !== true,
        },
      );
      io.out(`${JSON.stringify(document, null, 2)}\n`);
    } else if (format === 'walk') {
      io.out(
        compile(shown).source ??
          '// No walk is generated for these routes: the general walk (core/matcher/interpret.ts) serves them.\n',
      );
    } else if (format === 'serializers') io.out(serializerSources(shown));
    else io.out(formatRoutes(shown, format as ListingFormat));
    return 0;
  } catch (error) {
    const usage =
      error instanceof UsageError || (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    io.err(
      `sevenfold: ${error instanceof Error ? error.message : String(error)}\n${usage ? `\n${USAGE}` : ''}`,
    );
    return usage ? 2 : 1;
  }
}
