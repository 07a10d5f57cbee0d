// The table the client is tested against: nested resources, extra actions, a query, JSON and multipart bodies,
// declared responses by status, problems, a 204, a 304 and routes without schemas.
import { HttpError, json, resource, scope, text } from '../../core/index.js';
import { etag } from '../../core/features/caching/index.js';

export const Post = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } },
  additionalProperties: false,
} as const;
const NewPost = {
  type: 'object',
  required: ['title'],
  properties: { title: { type: 'string', minLength: 1 }, body: { type: 'string' } },
  additionalProperties: false,
} as const;
const Missing = {
  type: 'object',
  required: ['missing'],
  properties: { missing: { type: 'string' } },
  additionalProperties: false,
} as const;
// `limit` has a default: the handler always sees it, a caller may leave it out.
const Page = {
  type: 'object',
  properties: { limit: { type: 'integer', minimum: 1, default: 10 }, tag: { type: 'string' } },
} as const;
const Comment = {
  type: 'object',
  required: ['post', 'id', 'text'],
  properties: { post: { type: 'string' }, id: { type: 'string' }, text: { type: 'string' } },
} as const;
const Avatar = {
  type: 'object',
  required: ['name', 'picture'],
  properties: {
    name: { type: 'string', minLength: 1 },
    size: { type: 'integer' },
    picture: { type: 'string', format: 'binary' },
  },
  additionalProperties: false,
} as const;
const Stored = {
  type: 'object',
  required: ['post', 'name', 'file', 'type', 'bytes', 'size'],
  properties: {
    post: { type: 'string' },
    name: { type: 'string' },
    file: { type: 'string' },
    type: { type: 'string' },
    bytes: { type: 'string' },
    size: { type: 'integer' },
  },
} as const;

/** A fresh table with its own store of posts: `1` (Hello) and `2` (World, tagged). */
export function clientApp() {
  const store = new Map<string, { id: string; title: string; body?: string }>([
    ['1', { id: '1', title: 'Hello' }],
    ['2', { id: '2', title: 'World', body: 'tagged' }],
  ]);
  let next = 3;
  const find = (id: string) => {
    const post = store.get(id);
    if (post === undefined) throw new HttpError(404, `no post "${id}"`);
    return post;
  };
  const posts = resource(
    'posts',
    {
      index: (req) =>
        [...store.values()]
          .filter((post) => req.query.tag === undefined || post.body === req.query.tag)
          .slice(0, req.query.limit),
      show: (req) => store.get(req.params.post_id) ?? json({ missing: req.params.post_id }, 404),
      create: (req, res) => {
        const post = { id: String(next++), ...req.body };
        store.set(post.id, post);
        return res.created(`/posts/${post.id}`, post);
      },
      update: (req) => {
        const post = { ...find(req.params.post_id), ...req.body };
        store.set(post.id, post);
        return post;
      },
      destroy: (req) => {
        find(req.params.post_id);
        store.delete(req.params.post_id);
      },
      // No schemas at all: the client types its body `unknown`.
      publish: (req) => ({ published: req.params.post_id, body: req.body ?? null }),
      search: (req) => [...store.values()].filter((post) => post.title.includes(req.query.q)),
      // What reached the server, for the tests of headers and encoding.
      echo: (req) => ({
        path: req.path,
        query: { ...req.query },
        accept: req.headers.accept,
        app: req.headers['x-app'],
        call: req.headers['x-call'],
      }),
      // Not JSON: the client reads it as text.
      readme: () => text('plain words'),
    },
    {
      member: { publish: 'POST' },
      collection: { search: 'GET', echo: 'GET', readme: 'GET' },
      schemas: {
        index: { query: Page, response: { type: 'array', items: Post } },
        show: { response: { 200: Post, 404: Missing } },
        create: { body: NewPost, response: Post },
        update: { body: NewPost, response: Post, errors: [404] },
        destroy: { errors: [404] },
        search: {
          query: { type: 'object', required: ['q'], properties: { q: { type: 'string' } } },
          response: { type: 'array', items: Post },
        },
      },
    },
  );
  const comments = resource(
    'comments',
    {
      index: (req) => [{ post: req.params.post_id, id: 'c1', text: 'first' }],
      show: (req) => ({ post: req.params.post_id, id: req.params.comment_id, text: 'one' }),
    },
    {
      parent: posts,
      schemas: {
        index: { response: { type: 'array', items: Comment } },
        show: { response: Comment },
      },
    },
  );
  const avatars = resource(
    'avatars',
    {
      create: async (req, res) => {
        const { name, picture } = req.body;
        const bytes = new TextDecoder().decode(await picture.arrayBuffer());
        return res.created(`/posts/${req.params.post_id}/avatars/1`, {
          post: req.params.post_id,
          name,
          file: picture.name,
          type: picture.type,
          bytes,
          size: req.body.size ?? -1,
        });
      },
    },
    { parent: posts, schemas: { create: { body: Avatar, response: Stored } } },
  );
  // Every GET gets an ETag, so a conditional call can be answered 304.
  return scope({ hooks: [etag()] }, posts, comments, avatars);
}

/** The type of the table the client is tested against, all a frontend imports of it. */
export type ClientApp = ReturnType<typeof clientApp>;
