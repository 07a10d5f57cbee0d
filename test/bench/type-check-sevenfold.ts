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
 * The fixture's app written with sevenfold: `resource()` with JSON Schemas `as const` for params,
 * query, body and each status's answer, handlers typed by them; the calls through `sevenfold/client`
 * and through `paths()`.
 */

export const COMMON_SCHEMAS = `// What every resource shares: ids, times, links, pages, search, problems and forms.
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

function objectSchema(fields: [string, string][], required: string[]): string {
  const properties = fields.map(([name, schema]) => `    ${name}: ${schema},`).join('\n');
  return `{\n  type: 'object',\n  required: [${required.map((n) => `'${n}'`).join(', ')}],\n  properties: {\n${properties}\n  },\n  additionalProperties: false,\n} as const`;
}

const withDefault = (schema: string, value: string) =>
  schema.startsWith('{') ? `{ default: ${value}, ${schema.slice(2)}` : `{ ...${schema}, default: ${value} }`;

export function sevenfoldResource(r: FixtureResource): string {
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

/** The sevenfold client's calls for one resource: every action, each answer narrowed by status. */
export function sevenfoldCalls(r: FixtureResource): string {
  const calls = actionsOf(r).map((action, k) => {
    const path = pathOf(r, action);
    const args = [
      ...(paramsAt(path).length > 0 ? [`params: ${paramValues(path)}`] : []),
      ...(action === 'index' ? ['query: { limit: 5, offset: 0 }'] : []),
      ...(action === 'search' ? ["query: { q: 'x' }"] : []),
      ...(action === 'create' ? [`body: ${sampleBody(r)}`] : []),
      ...(action === 'update' ? [`body: ${sampleBody(r, 'first')}`] : []),
    ];
    // The client's union holds the statuses the action declares a schema for, and a 204 can declare none.
    const reads = Object.entries(readsOf(r, action)).flatMap(([status, read]) =>
      read === undefined ? [] : [`  if (a${k}.status === ${status}) use(a${k}.body${read});`],
    );
    return `  const a${k} = await api.${r.name}.${action}(${args.length > 0 ? `{ ${args.join(', ')} }` : ''});\n${reads.join('\n')}`;
  });
  return `export async function call${Pascal(r)}(): Promise<void> {\n${calls.join('\n')}\n}`;
}

/** The same calls through paths(): every route's helper, with its params and query. */
export function pathsCalls(r: FixtureResource): string {
  const calls = actionsOf(r).map((action) => {
    const path = pathOf(r, action);
    const params = paramsAt(path).length > 0 ? paramValues(path) : 'undefined';
    const query =
      action === 'index' ? ', { limit: 5, offset: 0 }' : action === 'search' ? ", { q: 'x' }" : '';
    return `  p.${r.name}.${action}(${params}${query}),`;
  });
  return `export const paths${Pascal(r)} = (): string[] => [\n${calls.join('\n')}\n];`;
}
