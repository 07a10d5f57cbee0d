// The posts' JSON Schemas: what a post may be, checked before the handler and typed into it.
import type { ActionSchema, Infer } from 'sevenfold';

/**
 * The post as JSON Schemas: the one source of its rules. sevenfold checks requests against
 * them before a handler runs (422 with the messages below, or 400 for the query and the path),
 * types `req.body` and `req.query` from them, and generates docs/openapi.json from them.
 */

export const TITLE_MAX = 200;
export const BODY_MAX = 100_000;

const ID = '^[A-Za-z0-9_-]{1,64}$';

// PostgreSQL text holds neither U+0000 nor a lone surrogate (UTF-8 has no bytes for one); patterns are
// Unicode-aware, so a pair is one code point.
const storable = {
  pattern: '^[^\\u0000\\ud800-\\udfff]*$',
  errorMessage: 'must be Unicode text without U+0000 or lone surrogates',
} as const;

const id = {
  type: 'string',
  pattern: ID,
  description: 'Chosen by the client, or generated.',
  errorMessage: 'must be 1 to 64 characters of A-Z a-z 0-9 - _',
} as const;

// "1 to 200 characters after trimming", said in patterns: spaces around the title do not count.
const titleInput = {
  type: 'string',
  description: `Trimmed; 1 to ${TITLE_MAX} characters.`,
  allOf: [
    { pattern: '\\S', errorMessage: 'is required' },
    {
      // Linear even for a backtracking engine: the spaces after the text are read once, inside the group.
      pattern: `^\\s*(?:\\S(?:[\\s\\S]{0,${TITLE_MAX - 2}}\\S)?\\s*)?$`,
      errorMessage: `must be at most ${TITLE_MAX} characters`,
    },
    storable,
  ],
} as const;

const body = {
  type: 'string',
  maxLength: BODY_MAX,
  default: '',
  allOf: [storable],
} as const;

export const Post = {
  type: 'object',
  required: ['id', 'title', 'body', 'createdAt', 'updatedAt'],
  properties: {
    id: { type: 'string', pattern: ID },
    title: { type: 'string', minLength: 1, maxLength: TITLE_MAX, description: 'Trimmed.' },
    body: { type: 'string', maxLength: BODY_MAX },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
} as const;

/** What create and update take; other fields are ignored, so additional properties are allowed. */
export const PostInput = {
  type: 'object',
  required: ['title'],
  properties: { id, title: titleInput, body },
  errorMessage: { type: 'the body must be an object with title and body' },
} as const;

export const PostTemplate = {
  type: 'object',
  required: ['id', 'title', 'body'],
  properties: { id: { type: 'string', pattern: ID }, title: { const: '' }, body: { const: '' } },
  additionalProperties: false,
} as const;

const Page = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 100 },
    offset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, default: 0 },
  },
} as const;

const PostId = { type: 'object', properties: { post_id: id } } as const;

// Browsers get pages (html) and, after a form submission, a 303 to the next page (seeOther): see
// controller.ts.
export const POST_SCHEMAS = {
  index: {
    response: { type: 'array', items: Post },
    query: Page,
    summary: 'List posts, oldest first',
    html: true,
  },
  show: { response: Post, html: true },
  new: {
    params: PostId,
    response: PostTemplate,
    summary: 'The form for a new post with this id (JSON: its template)',
    html: 'default',
  },
  edit: { response: Post, summary: 'The form to edit a post (JSON: the post)', html: 'default' },
  create: { body: PostInput, response: Post, errors: [409], seeOther: 'the new post' },
  update: { body: PostInput, response: Post, seeOther: 'the post' },
  destroy: { seeOther: 'the list of posts' },
} as const satisfies Record<string, ActionSchema>;

/**
 * The fields of a create or update once checked: `title` (still untrimmed), `body` (default ""), `id` if
 * sent.
 */
export type PostFields = Infer<typeof PostInput>;
