// Type tests for `sevenfold/client`: calls typed from the table, answers narrowed by status; compiled by
// `tsc -p .`, never run.
import {
  client,
  type ClientResponse,
  type Problem,
  type UntypedCall,
  type UntypedClient,
} from '../../core/client/index.js';
import { prefix, resource, type Resource } from '../../core/index.js';
import { clientApp, type ClientApp } from '../support/client-app.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

interface Post {
  body?: string | undefined;
  id: string;
  title: string;
}

const api = client(clientApp());
// A frontend gets the routes as JSON and the types from the server's table type, never its module.
const fromJson = client<ClientApp>(JSON.parse('[]'));
export type SameClient = Expect<Equal<typeof fromJson, typeof api>>;
// Without a table's type, any resource and action, untyped.
export type Untyped = Expect<Equal<ReturnType<typeof client<never>>, UntypedClient>>;
export type UntypedFromAny = Expect<Equal<ReturnType<typeof client<any>>, UntypedClient>>;

export async function calls(signal: AbortSignal, picture: File) {
  // Every kind of call: params (a number is written as text), a query, a body, headers and a signal.
  await api.posts.show({ params: { post_id: '1' }, headers: { 'x-call': '1' }, signal });
  await api.posts.show({ params: { post_id: 1 } });
  await api.posts.index();
  await api.posts.index({ query: { limit: 5 } });
  await api.posts.search({ query: { q: 'Hello' } });
  await api.posts.create({ body: { title: 'New' } });
  await api.posts.update({ params: { post_id: '1' }, body: { title: 'Changed', body: 'text' } });
  await api.posts.publish({ params: { post_id: '1' }, body: { anything: true } });
  await api.comments.index({ params: { post_id: '1' } });
  await api.comments.show({ params: { post_id: '1', comment_id: 'c1' } });
  // A file field takes a File or any Blob.
  await api.avatars.create({ params: { post_id: '1' }, body: { name: 'me', picture } });
  await api.avatars.create({
    params: { post_id: '1' },
    body: { name: 'me', picture: new Blob(['x']), size: 1 },
  });
}

export function mistakes() {
  // @ts-expect-error no such resource
  api.post;
  // @ts-expect-error no such action
  api.posts.shwo;
  // @ts-expect-error comments have no publish
  api.comments.publish;
  // @ts-expect-error show needs its param
  api.posts.show();
  // @ts-expect-error show needs its param
  api.posts.show({});
  // @ts-expect-error post_id is missing
  api.posts.show({ params: {} });
  // @ts-expect-error a nested route needs its parent's param
  api.comments.show({ params: { comment_id: 'c1' } });
  // @ts-expect-error misspelt
  api.posts.show({ params: { postid: '1' } });
  // @ts-expect-error comment_id is not a param of posts.show
  api.posts.show({ params: { post_id: '1', comment_id: '2' } });
  // @ts-expect-error index has no params
  api.posts.index({ params: { post_id: '1' } });
  // @ts-expect-error limit is an integer
  api.posts.index({ query: { limit: 'five' } });
  // @ts-expect-error the query schema names no lmit
  api.posts.index({ query: { lmit: 5 } });
  // @ts-expect-error create needs its body
  api.posts.create({});
  // @ts-expect-error title is a string
  api.posts.create({ body: { title: 1 } });
  // @ts-expect-error title is required
  api.posts.create({ body: { body: 'no title' } });
  // @ts-expect-error the body schema allows no other field
  api.posts.create({ body: { title: 'a', extra: 1 } });
  // @ts-expect-error GET sends no body
  api.posts.show({ params: { post_id: '1' }, body: {} });
  // @ts-expect-error an extra GET action sends no body either
  api.posts.search({ body: 'q' });
  // @ts-expect-error a file field takes a file, not text
  api.avatars.create({ params: { post_id: '1' }, body: { name: 'me', picture: 'x' } });
  // @ts-expect-error headers are text
  api.posts.index({ headers: { 'x-count': 1 } });
}

export async function narrowing() {
  const shown = await api.posts.show({ params: { post_id: '1' } });
  if (shown.status === 200) {
    type _ = Expect<Equal<typeof shown.body, Post>>;
    type _ok = Expect<Equal<typeof shown.ok, true>>;
    const title: string = shown.body.title;
    void title;
  } else if (shown.status === 404) {
    // A declared 404 is its schema's body.
    type _ = Expect<Equal<typeof shown.body, { missing: string }>>;
  } else {
    // Any other error is a problem.
    type _ = Expect<Equal<typeof shown.body, Problem>>;
    type _ok = Expect<Equal<typeof shown.ok, false>>;
    // @ts-expect-error a problem has no title... of a post: it has its own
    shown.body.id;
  }
  if (shown.ok) {
    type _ = Expect<Equal<typeof shown.body, Post>>;
  }
  // @ts-expect-error the body is not known until the status is
  shown.body.title;

  const updated = await api.posts.update({ params: { post_id: 'x' }, body: { title: 't' } });
  if (updated.status === 404) {
    // 404 is not declared by update: the problem the server threw.
    type _ = Expect<Equal<typeof updated.body, Problem>>;
    const detail: string | undefined = updated.body.detail;
    void detail;
  }
  if (updated.status === 422) {
    const errors: unknown = updated.body.errors;
    void errors;
  }
  // @ts-expect-error update declares no 201
  if (updated.status === 201) void 0;
  // @ts-expect-error update declares its success (200): no 204
  if (updated.status === 204) void 0;

  const created = await api.posts.create({ body: { title: 'x' } });
  if (created.status === 201) {
    type _ = Expect<Equal<typeof created.body, Post>>;
  }
  const listed = await api.posts.index();
  if (listed.ok) {
    type _ = Expect<Equal<typeof listed.body, Post[]>>;
  }
  const comment = await api.comments.show({ params: { post_id: '1', comment_id: '2' } });
  if (comment.status === 200) {
    type _ = Expect<Equal<typeof comment.body, { id: string; post: string; text: string }>>;
  }

  // A route without response schemas: any status, an unknown body.
  const published = await api.posts.publish({ params: { post_id: '1' } });
  type _published = Expect<Equal<typeof published, ClientResponse>>;
  type _body = Expect<Equal<typeof published.body, unknown>>;
  type _status = Expect<Equal<typeof published.status, number>>;
  // @ts-expect-error unknown until checked
  published.body.published;
  const destroyed = await api.posts.destroy({ params: { post_id: '1' } });
  type _destroyed = Expect<Equal<typeof destroyed.body, unknown>>;
  type _headers = Expect<Equal<typeof destroyed.headers, Headers>>;
}

// A prefixed table keeps what its resources declare; a single resource is a client of its own.
const Note = { type: 'object', required: ['id'], properties: { id: { type: 'string' } } } as const;
const notes = resource(
  'notes',
  { show: (req) => ({ id: req.params.note_id }) },
  { schemas: { show: { response: Note } } },
);
const prefixed = client(prefix('/api/v1', notes));
const alone = client(notes);
export async function prefixedAndAlone() {
  for (const api of [prefixed, alone]) {
    const shown = await api.notes.show({ params: { note_id: 'n' } });
    if (shown.status === 200) {
      type _ = Expect<Equal<typeof shown.body, { id: string }>>;
    }
    // @ts-expect-error the param is note_id
    api.notes.show({ params: { id: 'n' } });
  }
}

// A resource whose type declares no actions (a decorated controller's) gets untyped calls.
declare const undeclared: Resource<'things'>;
export type Undeclared = Expect<
  Equal<ReturnType<typeof client<typeof undeclared>>['things'], { readonly [action: string]: UntypedCall }>
>;

// An action that declares no success (only its 404) answers 204 with no body; one with defaults may omit them.
const Missing = { type: 'object', properties: { missing: { type: 'string' } } } as const;
const Page = {
  type: 'object',
  properties: { limit: { type: 'integer', default: 20 }, sort: { enum: ['new', 'old'], default: 'new' } },
} as const;
const removable = resource(
  'drafts',
  { destroy: () => undefined, create: (req) => ({ limit: req.body.limit }) },
  {
    schemas: {
      destroy: { response: { 404: Missing } },
      create: {
        body: Page,
        response: { 200: { type: 'object', properties: { limit: { type: 'integer' } } } },
      },
    },
  },
);
export async function noContent() {
  const drafts = client(removable);
  const gone = await drafts.drafts.destroy({ params: { draft_id: 'd' } });
  if (gone.status === 204) {
    type _ = Expect<Equal<typeof gone.body, undefined>>;
    type _ok = Expect<Equal<typeof gone.ok, true>>;
  }
  // A field with a default may be left out by the caller: the server fills it in.
  await drafts.drafts.create({ body: {} });
  // @ts-expect-error but not given a wrong type
  await drafts.drafts.create({ body: { sort: 'sideways' } });
}
