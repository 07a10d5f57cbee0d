/**
 * The app the type-check benchmark compiles, described once: its resources (where each nests, which
 * extra action it has, the shape of its records) and, for each action, its path, the body a client
 * sends and the fields it reads from each status's answer. type-check-sevenfold.ts and
 * type-check-hono.ts write it out for each framework, so both type the same things.
 */

/** One field of a record, as JSON Schema and as the TypeScript type a Hono user writes for it. */
export interface Field {
  readonly schema: string;
  readonly ts: string;
  /** Whether every record has it (else the record's type makes it optional). */
  readonly always: boolean;
  /** In create's body: required, optional, or absent unless sent (the JSON text of its default); else not sent. */
  readonly input?: 'required' | 'optional' | { readonly default: string };
  /** How create fills it in beyond the body, an expression over `b` (the body), `id`, `at` and `path`. */
  readonly made?: string;
}

export interface Shape {
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
export function actionsOf(r: FixtureResource): string[] {
  const seven = ['index', 'show', 'new', 'edit', 'create', 'update', 'destroy'];
  if (r.extra === 'publish') return [...seven.filter((a) => a !== 'new'), 'publish'];
  if (r.extra === 'search') return [...seven.filter((a) => a !== 'edit'), 'search'];
  return seven;
}

export const entries = (shape: Shape) => Object.entries(shape.fields);
export const Pascal = (r: FixtureResource) => `R${r.index}`;

/** The params a path names, in order. */
export function paramsAt(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

export function recordInterface(r: FixtureResource): string {
  const lines = entries(r.shape).map(
    ([name, field]) => `  readonly ${name}${field.always ? '' : '?'}: ${field.ts};`,
  );
  return `export interface ${Pascal(r)}Record {\n${lines.join('\n')}\n}`;
}

// The record made by create: the body, what create fills in, then the id and the times.
export function madeRecord(r: FixtureResource): string {
  const made = entries(r.shape)
    .filter(([name, field]) => field.made !== undefined && !['id', 'createdAt', 'updatedAt'].includes(name))
    .map(([name, field]) => `${name}: ${field.made}, `)
    .join('');
  return `{ ...b, ${made}id, createdAt: at, updatedAt: at }`;
}

/** The body fields a client sends to create one (the required and the defaulted), as an object literal. */
export function sampleBody(r: FixtureResource, only?: 'first'): string {
  const sent = entries(r.shape).filter(
    ([n, f]) => n !== 'id' && f.input !== undefined && f.input !== 'optional',
  );
  const value = ([, f]: [string, Field]) =>
    typeof f.input === 'object' ? f.input.default : f.ts === 'number' ? '1' : "'x'";
  return `{ ${(only === 'first' ? sent.slice(0, 1) : sent).map((e) => `${e[0]}: ${value(e)}`).join(', ')} }`;
}

/** Where each action of a resource lives, and whether its route reads params of a parent. */
export function pathOf(r: FixtureResource, action: string): string {
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

export const paramValues = (path: string) =>
  `{ ${paramsAt(path)
    .map((p) => `${p}: '1'`)
    .join(', ')} }`;

/** What a client reads from each action's answers, by status: a field of the body, or nothing. */
export function readsOf(r: FixtureResource, action: string): Record<number, string | undefined> {
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

export const USE = `// Reading a value is what the client's types are for.
const use = (value: unknown): void => void value;
`;
