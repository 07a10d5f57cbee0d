import {
  actionsOf,
  entries,
  madeRecord,
  paramsAt,
  paramValues,
  Pascal,
  pathOf,
  readsOf,
  recordInterface,
  sampleBody,
  type FixtureResource,
} from './type-check-model.js';

/**
 * The fixture's app written with Hono: one sub-app per resource, its routes chained so that `hc`
 * types them, `hono/validator` typing the query and the body as the JSON Schemas do on the other
 * side, answers by `c.json(body, status)`; the calls through `hc`.
 */

export const COMMON_TYPES = `// What every resource shares, as the TypeScript types a Hono app writes for its validators and answers.
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

export function honoResource(r: FixtureResource): string {
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
export function honoCalls(r: FixtureResource): string {
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
