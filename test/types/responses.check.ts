// Type tests for response schemas: handlers' answers checked against them; compiled by `tsc -p .`, never run.
import * as z from 'zod';
import { created, html, json, redirect, resource, type Result } from '../../core/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const Post = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } },
} as const;
const Missing = {
  type: 'object',
  required: ['missing'],
  properties: { missing: { type: 'string' } },
} as const;
const post = { id: '1', title: 'Hello' };

// The helpers keep status, body and kind in their types.
type _json = Expect<Equal<ReturnType<typeof json<{ a: 1 }, 202>>, Result<202, { a: 1 }, 'json'>>>;
const made = created('/posts/1', post);
type _created = Expect<Equal<typeof made, Result<201, { id: string; title: string }, 'json'>>>;
const moved = redirect('/posts', 303);
type _redirect = Expect<Equal<typeof moved, Result<303, undefined, 'empty'>>>;

// One response schema: a plain value is its 200 body; create's is its 201, through created().
resource(
  'posts',
  {
    index: () => [post],
    show: () => post,
    edit: async () => post,
    new: () => html(html`<p>a page is not JSON, so any page may answer</p>`),
    create: (req, res) => res.created('/posts/1', post),
    update: (req, res) => res.redirect('/posts/1', 303),
  },
  {
    schemas: {
      index: { response: { type: 'array', items: Post } },
      show: { response: Post },
      edit: { response: Post },
      new: { response: Post },
      create: { response: Post },
      update: { response: Post },
    },
  },
);

resource(
  'posts',
  {
    // @ts-expect-error: a field the schema requires is missing
    show: () => ({ id: '1' }),
    // @ts-expect-error: a mistyped field
    edit: () => ({ id: 1, title: 'x' }),
    // @ts-expect-error: a status the schemas do not declare
    update: () => json(post, 202),
    // @ts-expect-error: create answers 201, with its declared body
    create: (req, res) => res.created('/posts/1', { title: 'no id' }),
    // @ts-expect-error: a promise of a wrong body is as wrong
    index: async () => [{ nope: 1 }],
  },
  {
    schemas: {
      index: { response: { type: 'array', items: Post } },
      show: { response: Post },
      edit: { response: Post },
      create: { response: Post },
      update: { response: Post },
    },
  },
);

// Schemas by status: each status's body typed by its own, any of them; a Standard Schema the same way.
resource(
  'posts',
  {
    show: (req) => (req.params.post_id === '1' ? post : json({ missing: req.params.post_id }, 404)),
    edit: () => json({ queued: true }, 202),
    // @ts-expect-error: 404's body is not a post
    update: () => json(post, 404),
    destroy: () => undefined,
  },
  {
    schemas: {
      show: { response: { 200: Post, 404: Missing } },
      edit: { response: { 202: z.object({ queued: z.boolean() }) } },
      update: { response: { 200: Post, 404: Missing } },
    },
  },
);

// A handler that reads its request is typed with the action's statuses: json() refuses another one at its
// argument, res.json() too; a handler may be given as undefined, and then has no route.
resource(
  'posts',
  {
    // @ts-expect-error: 202 is not a status the schemas declare
    show: (req) => json({ id: req.params.post_id, title: 'x' }, 202),
    // @ts-expect-error: nor is 201
    update: (req, res) => res.json({ missing: req.params.post_id }, 201),
    edit: (req, res) => (req.params.post_id === '1' ? res.json(post) : json({ missing: '1' }, 404)),
    destroy: undefined,
  },
  {
    schemas: {
      show: { response: { 200: Post, 404: Missing } },
      update: { response: { 200: Post, 404: Missing } },
      edit: { response: { 200: Post, 404: Missing } },
    },
  },
);

// @ts-expect-error: no 200 declared, so a plain value (a 200) is not an answer
resource('jobs', { show: () => ({ queued: true }) }, { schemas: { show: { response: { 202: Missing } } } });

// Without response schemas, a handler answers anything, as before.
resource('notes', { show: () => ({ anything: [1, 'two'] }), index: () => json(1, 418) });

// negotiate() on an action with response schemas: its JSON representation is checked against them, its page
// goes through, on a resource and on one nested in it.
import { negotiate } from '../../core/index.js';
const shelves = resource(
  'shelves',
  { show: (req) => ({ id: req.params.shelf_id, title: 'Shelf' }) },
  {
    schemas: { show: { response: Post } },
  },
);
resource(
  'books',
  {
    show: (req) =>
      negotiate(req, {
        'application/json': () => ({ id: req.params.book_id, title: 'A book' }),
        'text/html': () => html`<h1>A book</h1>`,
      }),
    edit: (req) =>
      // @ts-expect-error: the JSON representation is checked against the action's schema (title is a string)
      negotiate(req, {
        'application/json': () => ({ id: req.params.book_id, title: 42 }),
        'text/html': () => html`<form></form>`,
      }),
  },
  { parent: shelves, schemas: { show: { response: Post }, edit: { response: Post } } },
);
const negotiated = negotiate(
  { headers: {} },
  { 'application/json': () => post, 'text/html': () => html`<p></p>` },
);
type _negotiated = Expect<
  Equal<typeof negotiated, Result<200, { id: string; title: string }, 'json'> | Result<200, string, 'html'>>
>;
