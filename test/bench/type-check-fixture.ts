import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/paths.js';
import { RUNTIMES_DIR } from '../support/runtimes.js';

/**
 * The fixture the type-check benchmark compiles: one app of `count` resources written twice, with
 * sevenfold (`resource()` and JSON Schemas `as const`) and with Hono (routes chained on sub-apps,
 * `hono/validator` typing what a JSON Schema types on the other side, `c.json(body, status)`
 * answers), and beside each a module that calls every route through its typed client. Both type the
 * same things: path params, the query, the body and each status's JSON answer. Written as source
 * into a temporary directory; nothing here is committed output.
 */

/** One field of a record, as JSON Schema and as the TypeScript type a Hono user writes for it. */
interface Field {
  readonly schema: string;
  readonly ts: string;
  /** Whether every record has it (else the record's type makes it optional). */
  readonly always: boolean;
  /** In create's body: required, optional, or absent unless sent (the JSON text of its default); else not sent. */
  readonly input?: 'required' | 'optional' | { readonly default: string };
  /** How create fills it in beyond the body, an expression over `b` (the body), `id`, `at` and `path`. */
  readonly made?: string;
}

interface Shape {
  readonly fields: Readonly<Record<string, Field>>;
  /** A field the client reads from an answer. */
  readonly shown: string;
}

const stamp: Field = { schema: 'time', ts: 'string', always: true, made: 'at' };
const identity: Field = { schema: 'id', ts: 'string', always: true, made: 'id' };

// The shapes of examples/blog and examples/posts, and two more with numbers, enums, arrays and nested objects.
const SHAPES: readonly Shape[] = [
  {
    shown: 'title',
    fields: {
      id: { ...identity, input: 'optional' },
      title: {
        schema: "{ type: 'string', minLength: 1, maxLength: 200 }",
        ts: 'string',
        always: true,
        input: 'required',
      },
      body: {
        schema: "{ type: 'string', maxLength: 100000 }",
        ts: 'string',
        always: true,
        input: { default: "''" },
      },
      publishedAt: {
        schema: "{ type: ['string', 'null'], format: 'date-time' }",
        ts: 'string | null',
        always: true,
        made: 'null',
      },
      createdAt: stamp,
      updatedAt: stamp,
      links: {
        schema:
          "{ type: 'object', required: ['self', 'list'], properties: { self: link, list: link }, additionalProperties: false }",
        ts: '{ readonly self: string; readonly list: string }',
        always: true,
        made: '{ self: `${path}/${id}`, list: path }',
      },
    },
  },
  {
    shown: 'body',
    fields: {
      id: identity,
      author: {
        schema: "{ type: 'string', minLength: 1, maxLength: 80 }",
        ts: 'string',
        always: true,
        input: { default: "'anonymous'" },
      },
      body: {
        schema: "{ type: 'string', minLength: 1, maxLength: 10000 }",
        ts: 'string',
        always: true,
        input: 'required',
      },
      rating: {
        schema: "{ type: ['integer', 'null'], minimum: 1, maximum: 5 }",
        ts: 'number | null',
        always: true,
        input: 'optional',
        made: 'b.rating ?? null',
      },
      createdAt: stamp,
      updatedAt: stamp,
    },
  },
  {
    shown: 'name',
    fields: {
      id: identity,
      name: {
        schema: "{ type: 'string', minLength: 1, maxLength: 120 }",
        ts: 'string',
        always: true,
        input: 'required',
      },
      price: { schema: "{ type: 'number', minimum: 0 }", ts: 'number', always: true, input: 'required' },
      inStock: { schema: "{ type: 'boolean' }", ts: 'boolean', always: true, input: { default: 'true' } },
      tags: {
        schema: "{ type: 'array', items: { type: 'string', maxLength: 40 }, maxItems: 20 }",
        ts: 'string[]',
        always: true,
        input: { default: '[]' },
      },
      status: {
        schema: "{ enum: ['draft', 'live', 'archived'] }",
        ts: "'draft' | 'live' | 'archived'",
        always: true,
        input: { default: "'draft'" },
      },
      size: {
        schema:
          "{ type: 'object', required: ['width', 'height'], properties: { width: { type: 'number' }, height: { type: 'number' } }, additionalProperties: false }",
        ts: '{ readonly width: number; readonly height: number }',
        always: false,
        input: 'optional',
      },
      createdAt: stamp,
      updatedAt: stamp,
    },
  },
  {
    shown: 'email',
    fields: {
      id: identity,
      email: {
        schema: "{ type: 'string', format: 'email', maxLength: 254 }",
        ts: 'string',
        always: true,
        input: 'required',
      },
      name: {
        schema: "{ type: 'string', minLength: 1, maxLength: 80 }",
        ts: 'string',
        always: true,
        input: 'required',
      },
      role: {
        schema: "{ enum: ['admin', 'editor', 'viewer'] }",
        ts: "'admin' | 'editor' | 'viewer'",
        always: true,
        input: { default: "'viewer'" },
      },
      age: {
        schema: "{ type: 'integer', minimum: 0, maximum: 150 }",
        ts: 'number',
        always: false,
        input: 'optional',
      },
      settings: {
        schema:
          "{ type: 'object', required: ['theme', 'notifications'], properties: { theme: { enum: ['light', 'dark'] }, notifications: { type: 'boolean' } }, additionalProperties: false }",
        ts: "{ readonly theme: 'light' | 'dark'; readonly notifications: boolean }",
        always: true,
        input: 'optional',
        made: "b.settings ?? { theme: 'light', notifications: true }",
      },
      createdAt: stamp,
      updatedAt: stamp,
    },
  },
];

const NOUNS = [
  'posts',
  'comments',
  'orders',
  'products',
  'reviews',
  'users',
  'projects',
  'tasks',
  'events',
  'photos',
];

/** One resource of the fixture: where it sits, what it holds, which extra action it has. */
export interface FixtureResource {
  readonly index: number;
  readonly name: string;
  /** Its id param, `r3_order_id`. */
  readonly param: string;
  readonly parent: FixtureResource | undefined;
  /** Nested members un-nested (`/comments/:comment_id`). */
  readonly shallow: boolean;
  /** `publish` on a member (in place of `new`), `search` on the collection (in place of `edit`), or none. */
  readonly extra: 'publish' | 'search' | undefined;
  readonly shape: Shape;
  /** Where its collection lives, `/r2_posts/:r2_post_id/r3_comments`. */
  readonly collection: string;
  /** Where its members live. */
  readonly member: string;
}

/**
 * The resources, each with seven routes, in runs of four: a top-level one, one nested under it, one
 * nested under that (two deep, shallow in every other run) with a member action instead of `new`, and a
 * top-level one with a collection action instead of `edit`; four shapes of record in turn.
 */
export function fixtureResources(count: number): FixtureResource[] {
  const made: FixtureResource[] = [];
  for (let index = 0; index < count; index++) {
    const noun = NOUNS[index % NOUNS.length]!;
    const name = `r${index}_${noun}`;
    const param = `r${index}_${noun.slice(0, -1)}_id`;
    const parent = index % 4 === 1 || index % 4 === 2 ? made[index - 1] : undefined;
    const shallow = index % 8 === 6;
    const extra = index % 4 === 2 ? 'publish' : index % 4 === 3 ? 'search' : undefined;
    const collection = `${parent === undefined ? '' : parent.member}/${name}`;
    const member = shallow ? `/${name}/:${param}` : `${collection}/:${param}`;
    const shape = SHAPES[Math.floor(index / 2) % SHAPES.length]!;
    made.push({ index, name, param, parent, shallow, extra, shape, collection, member });
  }
  return made;
}

/** The actions a resource routes, in the order its routes are declared. */
function actionsOf(r: FixtureResource): string[] {
  const seven = ['index', 'show', 'new', 'edit', 'create', 'update', 'destroy'];
  if (r.extra === 'publish') return [...seven.filter((a) => a !== 'new'), 'publish'];
  if (r.extra === 'search') return [...seven.filter((a) => a !== 'edit'), 'search'];
  return seven;
}

const entries = (shape: Shape) => Object.entries(shape.fields);
const Pascal = (r: FixtureResource) => `R${r.index}`;

/** The params a path names, in order. */
function paramsAt(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

function recordInterface(r: FixtureResource): string {
  const lines = entries(r.shape).map(
    ([name, field]) => `  readonly ${name}${field.always ? '' : '?'}: ${field.ts};`,
  );
  return `export interface ${Pascal(r)}Record {\n${lines.join('\n')}\n}`;
}

// The record made by create: the body, what create fills in, then the id and the times.
function madeRecord(r: FixtureResource): string {
  const made = entries(r.shape)
    .filter(([name, field]) => field.made !== undefined && !['id', 'createdAt', 'updatedAt'].includes(name))
    .map(([name, field]) => `${name}: ${field.made}, `)
    .join('');
  return `{ ...b, ${made}id, createdAt: at, updatedAt: at }`;
}

const COMMON_SCHEMAS = `// What every resource shares: ids, times, links, pages, search, problems and forms.
export const id = { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' } as const;
export const time = { type: 'string', format: 'date-time' } as const;
export const link = { type: 'string', pattern: '^/' } as const;
export const Page = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
    offset: { type: 'integer', minimum: 0, default: 0 },
  },
} as const;
export const Search = {
  type: 'object',
  required: ['q'],
  properties: { q: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;
export const Missing = {
  type: 'object',
  required: ['missing'],
  properties: { missing: { type: 'string' } },
  additionalProperties: false,
} as const;
export const Conflict = {
  type: 'object',
  required: ['conflict'],
  properties: { conflict: { type: 'string' } },
  additionalProperties: false,
} as const;
export const FormAnswer = {
  type: 'object',
  required: ['id', 'form'],
  properties: {
    id,
    form: {
      type: 'object',
      required: ['action', 'method', 'fields'],
      properties: {
        action: link,
        method: { enum: ['GET', 'POST'] },
        fields: {
          type: 'object',
          properties: { _method: { enum: ['PUT', 'PATCH', 'DELETE'] } },
          additionalProperties: false,
        },
      },
      additionalProperties: false,
    },
  },
  additionalProperties: false,
} as const;
`;

const COMMON_TYPES = `// What every resource shares, as the TypeScript types a Hono app writes for its validators and answers.
export interface Page {
  readonly limit: number;
  readonly offset: number;
}
export interface Search {
  readonly q: string;
}
export interface FormAnswer {
  readonly id: string;
  readonly form: {
    readonly action: string;
    readonly method: 'GET' | 'POST';
    readonly fields: { readonly _method?: 'PUT' | 'PATCH' | 'DELETE' };
  };
}
/** A validator that types what it lets through, as a schema library would. */
export const typed =
  <T>() =>
  (value: unknown): T =>
    value as T;
`;

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

function objectSchema(fields: [string, string][], required: string[]): string {
  const properties = fields.map(([name, schema]) => `    ${name}: ${schema},`).join('\n');
  return `{\n  type: 'object',\n  required: [${required.map((n) => `'${n}'`).join(', ')}],\n  properties: {\n${properties}\n  },\n  additionalProperties: false,\n} as const`;
}

const withDefault = (schema: string, value: string) =>
  schema.startsWith('{') ? `{ default: ${value}, ${schema.slice(2)}` : `{ ...${schema}, default: ${value} }`;

function sevenfoldResource(r: FixtureResource): string {
  const P = Pascal(r);
  const fields = entries(r.shape);
  const inputs = fields.filter(([, f]) => f.input !== undefined);
  const record = objectSchema(
    fields.map(([n, f]) => [n, f.schema]),
    fields.filter(([, f]) => f.always).map(([n]) => n),
  );
  const input = objectSchema(
    inputs.map(([n, f]) => [
      n,
      typeof f.input === 'object' ? withDefault(f.schema, f.input.default) : f.schema,
    ]),
    inputs.filter(([, f]) => f.input === 'required').map(([n]) => n),
  );
  const changes = objectSchema(
    inputs.filter(([n]) => n !== 'id').map(([n, f]) => [n, f.schema]),
    [],
  );
  const own = r.param;
  const scope = r.parent === undefined ? '' : `, req.params.${r.parent.param}`;
  const missing = `json({ missing: req.params.${own} }, 404)`;
  const handlers: Record<string, string> = {
    index: `(req) => store.list(req.query.offset, req.query.limit${scope})`,
    show: `(req) => store.get(req.params.${own}) ?? ${missing}`,
    new: `(req) => ({ id: req.params.${own}, form: { action: req.path, method: 'POST', fields: {} } })`,
    edit: `(req) => store.get(req.params.${own}) ?? ${missing}`,
    create: `(req, res) => {
      const b = req.body;
      const [id, at, path] = [store.newId(), now(), req.path];
      const record: ${P}Record = ${madeRecord(r)};
      return store.insert(record) ? res.created(\`\${path}/\${id}\`, record) : json({ conflict: id }, 409);
    }`,
    update: `(req) => {
      const old = store.get(req.params.${own});
      if (old === undefined) return ${missing};
      const record: ${P}Record = { ...old, ...req.body, updatedAt: now() };
      store.put(record);
      return record;
    }`,
    destroy: `(req) => (store.delete(req.params.${own}) ? noContent() : ${missing})`,
    publish: `(req) => {
      const old = store.get(req.params.${own});
      if (old === undefined) return ${missing};
      const record: ${P}Record = { ...old, updatedAt: now() };
      store.put(record);
      return record;
    }`,
    search: '(req) => store.search(req.query.q)',
  };
  const schemas: Record<string, string> = {
    index: `{ query: Page, response: { 200: { type: 'array', items: ${P} } } }`,
    show: `{ response: { 200: ${P}, 404: Missing } }`,
    new: `{ params: { type: 'object', properties: { ${own}: id } }, response: { 200: FormAnswer } }`,
    edit: `{ response: { 200: ${P}, 404: Missing } }`,
    create: `{ body: ${P}Input, response: { 201: ${P}, 409: Conflict } }`,
    update: `{ body: ${P}Changes, response: { 200: ${P}, 404: Missing } }`,
    destroy: '{ response: { 404: Missing } }',
    publish: `{ response: { 200: ${P}, 404: Missing } }`,
    search: `{ query: Search, response: { 200: { type: 'array', items: ${P} } } }`,
  };
  const actions = actionsOf(r);
  const options = [
    ...(r.parent === undefined ? [] : [`parent: ${r.parent.name}`]),
    ...(r.shallow ? ['shallow: true'] : []),
    ...(r.extra === 'publish' ? ["member: { publish: 'POST' }"] : []),
    ...(r.extra === 'search' ? ["collection: { search: 'GET' }"] : []),
    `schemas: {\n${actions.map((a) => `      ${a}: ${schemas[a]},`).join('\n')}\n    }`,
  ];
  return `import { json, noContent, resource } from 'sevenfold';
import { Conflict, FormAnswer, Missing, Page, Search, id, link, time } from '../common.js';
import { Store, now } from '../store.js';
${r.parent === undefined ? '' : `import { ${r.parent.name} } from './r${r.parent.index}.js';\n`}
export const ${P} = ${record};

export const ${P}Input = ${input};

export const ${P}Changes = ${changes};

${recordInterface(r)}

const store = new Store<${P}Record>();

export const ${r.name} = resource(
  '${r.name}',
  {
${actions.map((a) => `    ${a}: ${handlers[a]},`).join('\n')}
  },
  {
    ${options.join(',\n    ')},
  },
);
`;
}

function honoResource(r: FixtureResource): string {
  const P = Pascal(r);
  const fields = entries(r.shape);
  const inputs = fields.filter(([, f]) => f.input !== undefined);
  const input = inputs.map(([n, f]) => `  readonly ${n}${f.input === 'optional' ? '?' : ''}: ${f.ts};`);
  const changes = inputs.filter(([n]) => n !== 'id').map(([n, f]) => `  readonly ${n}?: ${f.ts};`);
  const own = r.param;
  const missing = `c.json({ missing: id }, 404)`;
  const routes: Record<string, string> = {
    index: `.get('${r.collection}', validator('query', typed<Page>()), (c) => {
    const query = c.req.valid('query');
    return c.json(store.list(query.offset, query.limit${r.parent === undefined ? '' : `, c.req.param('${r.parent.param}')`}), 200);
  })`,
    show: `.get('${r.member}', (c) => {
    const id = c.req.param('${own}');
    const record = store.get(id);
    return record === undefined ? ${missing} : c.json(record, 200);
  })`,
    new: `.get('${r.collection}/:${own}/new', (c) => {
    const answer: FormAnswer = { id: c.req.param('${own}'), form: { action: c.req.path, method: 'POST', fields: {} } };
    return c.json(answer, 200);
  })`,
    edit: `.get('${r.member}/edit', (c) => {
    const id = c.req.param('${own}');
    const record = store.get(id);
    return record === undefined ? ${missing} : c.json(record, 200);
  })`,
    create: `.post('${r.collection}', validator('json', typed<${P}Input>()), (c) => {
    const b = c.req.valid('json');
    const [id, at, path] = [store.newId(), now(), c.req.path];
    const record: ${P}Record = ${madeRecord(r)};
    return store.insert(record) ? c.json(record, 201) : c.json({ conflict: id }, 409);
  })`,
    update: `.put('${r.member}', validator('json', typed<${P}Changes>()), (c) => {
    const id = c.req.param('${own}');
    const old = store.get(id);
    if (old === undefined) return ${missing};
    const record: ${P}Record = { ...old, ...c.req.valid('json'), updatedAt: now() };
    store.put(record);
    return c.json(record, 200);
  })`,
    destroy: `.delete('${r.member}', (c) => {
    const id = c.req.param('${own}');
    return store.delete(id) ? c.body(null, 204) : ${missing};
  })`,
    publish: `.post('${r.member}/publish', (c) => {
    const id = c.req.param('${own}');
    const old = store.get(id);
    if (old === undefined) return ${missing};
    const record: ${P}Record = { ...old, updatedAt: now() };
    store.put(record);
    return c.json(record, 200);
  })`,
    search: `.get('${r.collection}/search', validator('query', typed<Search>()), (c) => c.json(store.search(c.req.valid('query').q), 200))`,
  };
  // Hono's router takes the first match, so the collection's own path comes before the member's.
  const order = actionsOf(r).sort((a, b) => (a === 'search' ? -1 : b === 'search' ? 1 : 0));
  return `import { Hono } from 'hono';
import { validator } from 'hono/validator';
import { typed, type FormAnswer, type Page, type Search } from '../common.js';
import { Store, now } from '../store.js';

${recordInterface(r)}

export interface ${P}Input {
${input.join('\n')}
}

export interface ${P}Changes {
${changes.join('\n')}
}

const store = new Store<${P}Record>();

export const ${r.name} = new Hono()
  ${order.map((a) => routes[a]).join('\n  ')};
`;
}

/** The body fields a client sends to create one (the required and the defaulted), as an object literal. */
function sampleBody(r: FixtureResource, only?: 'first'): string {
  const sent = entries(r.shape).filter(
    ([n, f]) => n !== 'id' && f.input !== undefined && f.input !== 'optional',
  );
  const value = ([, f]: [string, Field]) =>
    typeof f.input === 'object' ? f.input.default : f.ts === 'number' ? '1' : "'x'";
  return `{ ${(only === 'first' ? sent.slice(0, 1) : sent).map((e) => `${e[0]}: ${value(e)}`).join(', ')} }`;
}

/** Where each action of a resource lives, and whether its route reads params of a parent. */
function pathOf(r: FixtureResource, action: string): string {
  switch (action) {
    case 'index':
    case 'create':
      return r.collection;
    case 'new':
      return `${r.collection}/:${r.param}/new`;
    case 'search':
      return `${r.collection}/search`;
    case 'edit':
    case 'publish':
      return `${r.member}/${action}`;
    default:
      return r.member;
  }
}

const paramValues = (path: string) =>
  `{ ${paramsAt(path)
    .map((p) => `${p}: '1'`)
    .join(', ')} }`;

/** What a client reads from each action's answers, by status: a field of the body, or nothing. */
function readsOf(r: FixtureResource, action: string): Record<number, string | undefined> {
  const shown = r.shape.shown;
  switch (action) {
    case 'index':
    case 'search':
      return { 200: `[0]?.${shown}` };
    case 'new':
      return { 200: '.form.action' };
    case 'create':
      return { 201: `.${shown}`, 409: '.conflict' };
    case 'destroy':
      return { 204: undefined, 404: '.missing' };
    default:
      return { 200: `.${shown}`, 404: '.missing' };
  }
}

/** The sevenfold client's calls for one resource: every action, each answer narrowed by status. */
function sevenfoldCalls(r: FixtureResource): string {
  const calls = actionsOf(r).map((action, k) => {
    const path = pathOf(r, action);
    const args = [
      ...(paramsAt(path).length > 0 ? [`params: ${paramValues(path)}`] : []),
      ...(action === 'index' ? ['query: { limit: 5, offset: 0 }'] : []),
      ...(action === 'search' ? ["query: { q: 'x' }"] : []),
      ...(action === 'create' ? [`body: ${sampleBody(r)}`] : []),
      ...(action === 'update' ? [`body: ${sampleBody(r, 'first')}`] : []),
    ];
    const reads = Object.entries(readsOf(r, action)).map(([status, read]) =>
      read === undefined
        ? `  if (a${k}.status === ${status}) use(a${k}.status);`
        : `  if (a${k}.status === ${status}) use(a${k}.body${read});`,
    );
    return `  const a${k} = await api.${r.name}.${action}(${args.length > 0 ? `{ ${args.join(', ')} }` : ''});\n${reads.join('\n')}`;
  });
  return `export async function call${Pascal(r)}(): Promise<void> {\n${calls.join('\n')}\n}`;
}

/** The same calls through paths(): every route's helper, with its params and query. */
function pathsCalls(r: FixtureResource): string {
  const calls = actionsOf(r).map((action) => {
    const path = pathOf(r, action);
    const params = paramsAt(path).length > 0 ? paramValues(path) : 'undefined';
    const query =
      action === 'index' ? ', { limit: 5, offset: 0 }' : action === 'search' ? ", { q: 'x' }" : '';
    return `  p.${r.name}.${action}(${params}${query}),`;
  });
  return `export const paths${Pascal(r)} = (): string[] => [\n${calls.join('\n')}\n];`;
}

const METHODS: Record<string, string> = {
  index: 'get',
  show: 'get',
  new: 'get',
  edit: 'get',
  search: 'get',
  create: 'post',
  publish: 'post',
  update: 'put',
  destroy: 'delete',
};

/** Hono's client for one resource: every route through `hc`, each answer narrowed by status. */
function honoCalls(r: FixtureResource): string {
  const calls = actionsOf(r).map((action, k) => {
    const path = pathOf(r, action);
    const chain = path
      .split('/')
      .slice(1)
      .map((segment) => (segment.startsWith(':') ? `['${segment}']` : `.${segment}`))
      .join('');
    const args = [
      ...(paramsAt(path).length > 0 ? [`param: ${paramValues(path)}`] : []),
      ...(action === 'index' ? ["query: { limit: '5', offset: '0' }"] : []),
      ...(action === 'search' ? ["query: { q: 'x' }"] : []),
      ...(action === 'create' ? [`json: ${sampleBody(r)}`] : []),
      ...(action === 'update' ? [`json: ${sampleBody(r, 'first')}`] : []),
    ];
    const reads = Object.entries(readsOf(r, action)).map(([status, read]) =>
      read === undefined
        ? `  if (a${k}.status === ${status}) use(a${k}.status);`
        : `  if (a${k}.status === ${status}) use((await a${k}.json())${read});`,
    );
    return `  const a${k} = await client${chain}.$${METHODS[action]}(${args.length > 0 ? `{ ${args.join(', ')} }` : ''});\n${reads.join('\n')}`;
  });
  return `export async function call${Pascal(r)}(): Promise<void> {\n${calls.join('\n')}\n}`;
}

const USE = `// Reading a value is what the client's types are for.
const use = (value: unknown): void => void value;
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
  /** `sevenfold server + client` only where this checkout has `sevenfold/client`. */
  readonly projects: Partial<Record<FixtureProject, string>>;
  readonly resources: number;
  readonly routes: number;
}

/** Whether this checkout exports `sevenfold/client`, whose calls the client project makes. */
export function hasClient(): boolean {
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: object };
  return './client' in manifest.exports;
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
export function writeTypesFixture(count: number, client = hasClient()): Fixture {
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
    `import { routes } from 'sevenfold';\n${imports.join('\n')}\n\nexport const table = routes(\n  ${resources.map((r) => r.name).join(',\n  ')},\n);\n`,
  );
  write(
    join(seven, 'paths.ts'),
    `import { paths } from 'sevenfold';\nimport { table } from './table.js';\n\nconst p = paths(table);\n\n${resources.map(pathsCalls).join('\n\n')}\n`,
  );
  if (client)
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
      ...(client ? { 'sevenfold server + client': config('sevenfold', 'client', 'client.ts') } : {}),
      'hono server': config('hono', 'server', 'app.ts'),
      'hono server + hc': config('hono', 'client', 'client.ts'),
    },
    resources: count,
    routes: resources.reduce((sum, r) => sum + actionsOf(r).length, 0),
  };
}
