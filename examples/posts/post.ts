/** A post as stored and sent. */
export interface Post {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** The fields a client may set; everything else in a request body is ignored. */
export interface PostInput {
  readonly id: string | undefined;
  readonly title: string;
  readonly body: string;
}

/** Messages per field, sent as the `errors` member of a 422 problem. */
export type FieldErrors = Record<string, string[]>;

export type Checked =
  { readonly ok: true; readonly input: PostInput } | { readonly ok: false; readonly errors: FieldErrors };

const ID = /^[A-Za-z0-9_-]{1,64}$/;
export const TITLE_MAX = 200;
export const BODY_MAX = 100_000;

/** Whether a string is a well-formed post id: 1–64 of `A-Z a-z 0-9 - _`. */
export function isPostId(id: string): boolean {
  return ID.test(id);
}

// PostgreSQL text holds neither U+0000 nor a lone surrogate (UTF-8 has no bytes for one), so neither is accepted.
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_MESSAGE = 'must be Unicode text without U+0000 or lone surrogates';

// "Characters" are code points, so an emoji counts once, as a person would count it.
function length(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/**
 * Checks a parsed JSON or form body against the post rules. `title` is trimmed; `body`
 * defaults to ""; an absent or null `id` is left for the server to choose, and must equal
 * `pathId` when one is given (an update names its post in the path).
 */
export function checkPost(data: unknown, pathId?: string): Checked {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    return { ok: false, errors: { '': ['the body must be an object with title and body'] } };
  }
  const fields = data as Record<string, unknown>;
  const errors: FieldErrors = {};
  const add = (field: string, message: string): void => void (errors[field] ??= []).push(message);

  let id: string | undefined;
  if (fields.id !== undefined && fields.id !== null) {
    if (typeof fields.id !== 'string' || !isPostId(fields.id))
      add('id', 'must be 1 to 64 characters of A-Z a-z 0-9 - _');
    else if (pathId !== undefined && fields.id !== pathId) add('id', 'must match the id in the path');
    else id = fields.id;
  }

  let title = '';
  if (fields.title === undefined || fields.title === null) add('title', 'is required');
  else if (typeof fields.title !== 'string') add('title', 'must be a string');
  else {
    title = fields.title.trim();
    if (title === '') add('title', 'is required');
    else if (UNSTORABLE.test(title)) add('title', UNSTORABLE_MESSAGE);
    else if (length(title) > TITLE_MAX) add('title', `must be at most ${TITLE_MAX} characters`);
  }

  let body = '';
  if (fields.body !== undefined && fields.body !== null) {
    if (typeof fields.body !== 'string') add('body', 'must be a string');
    else if (UNSTORABLE.test(fields.body)) add('body', UNSTORABLE_MESSAGE);
    else if (length(fields.body) > BODY_MAX) add('body', `must be at most ${BODY_MAX} characters`);
    else body = fields.body;
  }

  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, input: { id, title, body } };
}

/** Orders posts oldest first, then by id, as the index lists them. */
export function byAge(a: Post, b: Post): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
