import { resource, type Reply } from '../../core/index.js';

// The posts workload and the tiny app that answers it, with no node: module, so that the servers
// test/runtimes/bench-apps.js builds on Bun and Deno answer from the same code as the node ones.

// The same tiny posts app in every variant, so only the routing and plumbing differ.
export const POSTS = [
  { id: '1', title: 'Hello', body: 'First post' },
  { id: '2', title: 'Again', body: 'Second post' },
];
export const post = (id: string) => ({ id, title: 'Hello', body: '' });
export const created = (input: { id?: unknown; title?: unknown }) => ({
  id: String(input.id ?? 'new'),
  title: String(input.title ?? ''),
  body: '',
});

/** The workload: what is asked, and the exact status and body every variant must answer. */
export const WORKLOAD = [
  { method: 'GET', path: '/posts/42', status: 200, body: JSON.stringify(post('42')) },
  { method: 'GET', path: '/posts', status: 200, body: JSON.stringify(POSTS) },
  {
    method: 'POST',
    path: '/posts',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ id: 'p9', title: 'Bench' }),
    status: 201,
    body: JSON.stringify(created({ id: 'p9', title: 'Bench' })),
  },
  { method: 'GET', path: '/posts/42/edit', status: 200, body: JSON.stringify(post('42')) },
  { method: 'DELETE', path: '/posts/42', status: 204, body: '' },
] as const;

/** The post body both validated variants check: the example's rules that JSON Schema states directly. */
export const POST_BODY = {
  type: 'object',
  required: ['title'],
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$' },
    title: { type: 'string', minLength: 1, maxLength: 200 },
    body: { type: 'string', maxLength: 100_000, default: '' },
  },
} as const;

const sevenfoldHandlers = {
  index: () => POSTS,
  show: (req: { params: { post_id: string } }) => post(req.params.post_id),
  new: (req: { params: { post_id: string } }) => post(req.params.post_id),
  edit: (req: { params: { post_id: string } }) => post(req.params.post_id),
  create: (req: { body: unknown }, res: Reply) => {
    const made = created(req.body as { id?: unknown });
    return res.created(`/posts/${made.id}`, made);
  },
  update: (req: { params: { post_id: string } }) => post(req.params.post_id),
  destroy: () => undefined,
};
export const sevenfoldPosts = resource('posts', sevenfoldHandlers);
// The same app with create's body checked by its schema, for the validated-create comparison with fastify.
export const sevenfoldValidated = resource('posts', sevenfoldHandlers, {
  schemas: { create: { body: POST_BODY } },
});

/** A post as the response schemas declare it: what the serializer compiled from them writes. */
const POST = {
  type: 'object',
  required: ['id', 'title', 'body'],
  properties: { id: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } },
} as const;

// The same app with its answers declared: each JSON body written by the serializer compiled from its schema.
export const sevenfoldDeclared = resource('posts', sevenfoldHandlers, {
  schemas: {
    index: { response: { type: 'array', items: POST } },
    show: { response: POST },
    new: { response: POST },
    edit: { response: POST },
    create: { response: POST },
    update: { response: POST },
  },
});
