import type { ActionSchema } from 'sevenfold';
import { BODY_MAX, TITLE_MAX } from './post.js';

// The post as JSON Schemas: plain data the OpenAPI document in docs/openapi.json is generated from.
const id = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'Chosen by the client, or generated.',
} as const;
const title = {
  type: 'string',
  minLength: 1,
  maxLength: TITLE_MAX,
  description: 'Trimmed; 1 to 200 characters.',
} as const;
const body = { type: 'string', maxLength: BODY_MAX, default: '' } as const;

export const Post = {
  type: 'object',
  required: ['id', 'title', 'body', 'createdAt', 'updatedAt'],
  properties: {
    id,
    title,
    body,
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
} as const;

/** What create and update take; other fields are ignored, so additional properties are allowed. */
export const PostInput = {
  type: 'object',
  required: ['title'],
  properties: { id, title, body },
} as const;

export const PostTemplate = {
  type: 'object',
  required: ['id', 'title', 'body'],
  properties: { id, title: { const: '' }, body: { const: '' } },
  additionalProperties: false,
} as const;

const Page = {
  type: 'object',
  properties: {
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 100 },
    offset: { type: 'integer', minimum: 0, default: 0 },
  },
} as const;

// Browsers get pages (html) and, after a form submission, a 303 to the next page (seeOther): see controller.ts.
export const POST_SCHEMAS = {
  index: {
    response: { type: 'array', items: Post },
    query: Page,
    summary: 'List posts, oldest first',
    html: true,
  },
  show: { response: Post, html: true },
  new: {
    response: PostTemplate,
    summary: 'The form for a new post with this id (JSON: its template)',
    html: 'default',
  },
  edit: { response: Post, summary: 'The form to edit a post (JSON: the post)', html: 'default' },
  create: { body: PostInput, response: Post, errors: [409, 422], seeOther: 'the new post' },
  update: { body: PostInput, response: Post, errors: [422], seeOther: 'the post' },
  destroy: { seeOther: 'the list of posts' },
} as const satisfies Record<string, ActionSchema>;
