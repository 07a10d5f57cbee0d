// Type tests for schemas and guards: compiled by `tsc -p .` in `npm test`, never run. A line
// marked @ts-expect-error that compiles, or an Expect<Equal<…>> that does not hold, fails the build.
import { z } from 'zod';
import { controller, Resource, type ControllerFor, type RequestFor } from '../../core/controllers/index.js';
import {
  bearer,
  guard,
  HttpError,
  resource,
  type AddedBy,
  type ContextOf,
  type FromSchema,
  type Infer,
  type Query,
  type HandlerRequest,
} from '../../core/index.js';

import { toFetch, type PrecompiledValidators } from '../../adapters/fetch.js';
import { blog } from '../../examples/blog/table.js';
import blogValidators from '../../examples/blog/validators.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const Item = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string' },
    count: { type: 'integer', default: 1 },
    kind: { enum: ['a', 'b'] },
    note: { type: ['string', 'null'] },
    tags: { type: 'array', items: { type: 'string' } },
    size: { allOf: [{ type: 'number' }, { minimum: 0 }] },
    either: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
  },
  additionalProperties: false,
} as const;

export type Checks = [
  // required and defaulted properties are present; the others optional; each typed by its keywords
  Expect<
    Equal<
      FromSchema<typeof Item>,
      {
        name: string;
        count: number;
        kind?: 'a' | 'b';
        note?: string | null;
        tags?: string[];
        size?: number;
        either?: string | boolean;
      }
    >
  >,
  Expect<Equal<FromSchema<{ type: 'string' }>, string>>,
  Expect<Equal<FromSchema<{ const: 3 }>, 3>>,
  Expect<Equal<FromSchema<true>, unknown>>,
  // a schema it cannot read is unknown, never a wrong type
  Expect<Equal<FromSchema<{ minimum: 1 }>, unknown>>,
  // additional properties are in the type only when the schema says what they are
  Expect<
    Equal<
      FromSchema<{ type: 'object'; additionalProperties: { type: 'number' } }>,
      { [field: string]: number }
    >
  >,
  // a Standard Schema value gives its own output type
  Expect<Equal<Infer<typeof Note>, { title: string; stars: number }>>,
  Expect<Equal<ContextOf<readonly []>, {}>>,
];

const Note = z.object({ title: z.string(), stars: z.number().default(0) });
const Page = {
  type: 'object',
  properties: { limit: { type: 'integer', default: 10 }, q: { type: 'string' } },
} as const;

const auth = bearer({ verify: (token) => (token === 'x' ? { user: { id: 1, name: 'ada' } } : false) });
async function tenant(_req: HandlerRequest): Promise<{ tenant: string }> {
  return { tenant: 't1' };
}
const audit = guard('audit', () => undefined);
const maybeAuth = bearer({
  verify: (token) => (token === 'x' ? { user: { id: 1, name: 'ada' } } : false),
  optional: true,
});
const flag: boolean = Math.random() > 0.5;
const perhapsAuth = bearer({ verify: () => ({ user: 'ada' }), optional: flag });
const requiredAuth = bearer({ verify: () => ({ user: 'ada' }), optional: false });

export type BearerChecks = [
  // optional: true makes what it adds optional, since an anonymous request adds nothing
  Expect<Equal<AddedBy<typeof maybeAuth>, { user?: { id: number; name: string } }>>,
  // optional as a boolean not known to be false: optional too
  Expect<Equal<AddedBy<typeof perhapsAuth>, { user?: string }>>,
  Expect<Equal<AddedBy<typeof requiredAuth>, { user: string }>>,
  Expect<Equal<AddedBy<typeof auth>, { user: { id: number; name: string } }>>,
];

// An optional bearer's context needs no cast: its user is there or undefined.
export const notes = resource(
  'notes',
  {
    index(req) {
      // @ts-expect-error: with optional: true the user may be absent
      const user: { id: number; name: string } = req.context.user;
      const maybe: { id: number; name: string } | undefined = req.context.user;
      return [user, maybe?.name];
    },
  },
  { before: [maybeAuth] },
);

// Each handler sees its body, query, params and context typed from the table, with no cast.
export const items = resource(
  'items',
  {
    index(req) {
      const limit: number = req.query.limit;
      const q: string | undefined = req.query.q;
      // @ts-expect-error: the query schema has no such field
      void req.query.lmit;
      // @ts-expect-error: index has no guards, so nothing was added
      void req.context.user;
      return [limit, q];
    },
    show(req) {
      const id: number = req.params.item_id;
      // @ts-expect-error: the params schema made item_id a number
      const text: string = req.params.item_id;
      return [id, text];
    },
    create(req) {
      const name: string = req.body.name;
      const count: number = req.body.count;
      // @ts-expect-error: kind is optional, so it may be undefined
      const kind: 'a' | 'b' = req.body.kind;
      // @ts-expect-error: a misspelt field is a compile error, not unknown
      void req.body.nmae;
      // @ts-expect-error: name is a string
      req.body.name.toFixed();
      const user: { id: number; name: string } = req.context.user;
      const place: string = req.context.tenant;
      return { name, count, kind, user, place };
    },
    update(req) {
      const { title, stars } = req.body;
      const sum: number = stars + 1;
      // @ts-expect-error: zod's output type: title is a string
      const n: number = title;
      // @ts-expect-error: update's guards are [audit], which adds nothing
      void req.context.user;
      return { sum, n };
    },
    destroy(req) {
      // @ts-expect-error: destroy has no body schema (and reads no body)
      req.body.name;
      // Without a query schema the query is the parsed one.
      const raw: Query = req.query;
      return raw;
    },
  },
  {
    schemas: {
      index: { query: Page },
      show: { params: { type: 'object', properties: { item_id: { type: 'integer' } } } },
      create: { body: Item },
      update: { body: Note },
    },
    before: { create: [auth, tenant], update: [audit] },
  },
);

// One list of guards for every action.
export const all = resource(
  'docs',
  {
    show(req) {
      const id: number = req.context.user.id;
      return id;
    },
  },
  { before: [auth] },
);

// Controllers: RequestFor with the resource's options gives the same types.
const OPTIONS = { schemas: { create: { body: Item } }, before: [auth] } as const;
@Resource('things', OPTIONS)
export class ThingsController implements ControllerFor<'things', typeof OPTIONS> {
  create(req: RequestFor<'things', 'create', typeof OPTIONS>) {
    const name: string = req.body.name;
    const user: string = req.context.user.name;
    // @ts-expect-error: count is a number
    const wrong: string = req.body.count;
    return { name, user, wrong };
  }
  show(req: RequestFor<'things', 'show', typeof OPTIONS>) {
    if (req.params.thing_id === '') throw new HttpError(404);
    return req.params.thing_id;
  }
}
export const things = () => controller(ThingsController);

// A handler that reads its body wrongly does not compile.
resource(
  'posts',
  {
    // @ts-expect-error: body.title is a string, not a number
    create: (req: HandlerRequest<{}, Query, { title: number }>) => req.body.title,
  },
  {
    schemas: {
      create: { body: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } } },
    },
  },
);

// Precompiled validators: the generated module's default export is the option's type, nothing else is.
type _generated = Expect<Equal<typeof blogValidators, PrecompiledValidators>>;
toFetch(blog, { validators: blogValidators });
// @ts-expect-error validators is the generated module's default export, not a record of functions
toFetch(blog, { validators: { 'json:1': () => true } });
