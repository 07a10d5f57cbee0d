// The blog's JSON Schemas: request checks, types and OpenAPI from one source.
import type { ActionSchema } from 'sevenfold';

/**
 * The blog's JSON Schemas, the one source of its rules: sevenfold checks requests against them
 * before a handler runs (422 for a body, 400 for a query or path), types `req.body` and
 * `req.query` from them, and checks answers against `response` when `checkResponses` is on.
 */

/**
 * Where the blog is mounted: every path of its table, and so every link the schemas below allow, starts here.
 */
export const BLOG_PREFIX = '/blog';

export const TITLE_MAX = 200;
export const TEXT_MAX = 100_000;
export const NAME_MAX = 80;

const id = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  errorMessage: 'must be 1 to 64 characters of A-Z a-z 0-9 - _',
} as const;

// "Not blank" as a pattern: a title of spaces says nothing.
const title = {
  type: 'string',
  maxLength: TITLE_MAX,
  pattern: '\\S',
  errorMessage: { pattern: 'is required', maxLength: `must be at most ${TITLE_MAX} characters` },
} as const;

const text = { type: 'string', maxLength: TEXT_MAX } as const;
const filled = { ...text, pattern: '\\S', errorMessage: { pattern: 'is required' } } as const;
const name = {
  type: 'string',
  maxLength: NAME_MAX,
  pattern: '\\S',
  errorMessage: { pattern: 'is required', maxLength: `must be at most ${NAME_MAX} characters` },
} as const;
const time = { type: 'string', format: 'date-time' } as const;
// Every link the app sends is a path helper's answer, so it is a path under the prefix.
const link = { type: 'string', pattern: `^${BLOG_PREFIX}/` } as const;

const links = <const K extends readonly string[]>(...keys: K) =>
  ({
    type: 'object',
    required: keys,
    properties: Object.fromEntries(keys.map((key) => [key, link])) as { [P in K[number]]: typeof link },
    additionalProperties: false,
  }) as const;

// What paths().x.form() gives: where to send, how, and the hidden _method field.
const form = {
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
} as const;

export const Post = {
  type: 'object',
  required: ['id', 'title', 'body', 'publishedAt', 'createdAt', 'updatedAt', 'links'],
  properties: {
    id,
    title,
    body: text,
    publishedAt: { type: ['string', 'null'], format: 'date-time' },
    createdAt: time,
    updatedAt: time,
    links: links('self', 'comments', 'publish'),
  },
  additionalProperties: false,
} as const;

/** A new post: `id` chosen by the client or generated, `body` empty unless sent. */
export const PostInput = {
  type: 'object',
  required: ['title'],
  properties: { id, title, body: { ...text, default: '' } },
  additionalProperties: false,
} as const;

// PUT and PATCH share update's schema (patch: true routes both to one action), so every field is optional.
export const PostChanges = {
  type: 'object',
  properties: { title, body: text },
  additionalProperties: false,
} as const;

/** What new and edit answer: the fields to fill in, and the form that sends them. */
const PostForm = {
  type: 'object',
  required: ['id', 'title', 'body', 'form'],
  properties: { id, title: { type: 'string' }, body: { type: 'string' }, form },
  additionalProperties: false,
} as const;

export const Comment = {
  type: 'object',
  required: ['id', 'postId', 'author', 'body', 'createdAt', 'updatedAt', 'links'],
  properties: {
    id,
    postId: id,
    author: name,
    body: filled,
    createdAt: time,
    updatedAt: time,
    links: links('self', 'post'),
  },
  additionalProperties: false,
} as const;

export const CommentInput = {
  type: 'object',
  required: ['body'],
  properties: { author: { ...name, default: 'anonymous' }, body: filled },
  additionalProperties: false,
} as const;

// The author of a comment stays who wrote it: only the text can change.
export const CommentChanges = {
  type: 'object',
  required: ['body'],
  properties: { body: filled },
  additionalProperties: false,
} as const;

const CommentForm = {
  type: 'object',
  required: ['id', 'body', 'form'],
  properties: { id, body: { type: 'string' }, form },
  additionalProperties: false,
} as const;

export const Profile = {
  type: 'object',
  required: ['name', 'bio', 'createdAt', 'updatedAt', 'links'],
  properties: {
    name,
    bio: text,
    createdAt: time,
    updatedAt: time,
    links: links('self', 'posts'),
  },
  additionalProperties: false,
} as const;

export const ProfileInput = {
  type: 'object',
  required: ['name'],
  properties: { name, bio: { ...text, default: '' } },
  additionalProperties: false,
} as const;

const Search = {
  type: 'object',
  required: ['q'],
  properties: { q: { type: 'string', minLength: 1, maxLength: TITLE_MAX } },
} as const;

// A POST must carry a body (JSON `{}` or an empty form); publish takes nothing in it.
const Nothing = { type: 'object', additionalProperties: false } as const;

const PostId = { type: 'object', properties: { post_id: id } } as const;

export const POST_SCHEMAS = {
  index: { response: { type: 'array', items: Post }, summary: 'List posts, oldest first' },
  show: { response: Post },
  new: { params: PostId, response: PostForm, summary: 'The fields and form for a new post with this id' },
  edit: { response: PostForm, summary: 'The fields of a post and the form that changes them' },
  create: { body: PostInput, response: Post, errors: [409] },
  update: { body: PostChanges, response: Post, summary: 'Change the fields sent (PUT or PATCH)' },
  destroy: { summary: 'Delete a post and its comments' },
  publish: {
    body: Nothing,
    response: Post,
    summary: 'Publish a post (once: publishing again keeps the date)',
  },
  search: {
    query: Search,
    response: { type: 'array', items: Post },
    summary: 'Posts whose title or body contains q, ignoring case',
  },
} as const satisfies Record<string, ActionSchema>;

export const COMMENT_SCHEMAS = {
  index: { response: { type: 'array', items: Comment }, summary: "A post's comments, oldest first" },
  show: { response: Comment },
  edit: { response: CommentForm, summary: 'The text of a comment and the form that changes it' },
  create: { body: CommentInput, response: Comment },
  update: { body: CommentChanges, response: Comment },
  destroy: {},
} as const satisfies Record<string, ActionSchema>;

export const PROFILE_SCHEMAS = {
  show: { response: Profile },
  create: { body: ProfileInput, response: Profile, errors: [409] },
  update: { body: ProfileInput, response: Profile },
} as const satisfies Record<string, ActionSchema>;
