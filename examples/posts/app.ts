import { randomUUID } from 'node:crypto';
import { HttpError, pathFor, resource, type Request } from '../../core/index.js';
import { checkPost, isPostId, type FieldErrors, type Post } from './post.js';
import type { PostRepository } from './repository.js';
import { POST_SCHEMAS } from './schema.js';

export interface PostsOptions {
  /** The clock behind createdAt and updatedAt; tests pass a fixed one. */
  readonly now?: () => Date;
  /** Ids for posts created without one. */
  readonly newId?: () => string;
}

const SHOW = '/posts/:post_id';

function invalid(errors: FieldErrors): HttpError {
  return new HttpError(422, 'the post is not valid', { errors });
}

function absent(id: string): HttpError {
  return new HttpError(404, `there is no post with id ${JSON.stringify(id)}`);
}

function found(post: Post | undefined, id: string): Post {
  if (post === undefined) throw absent(id);
  return post;
}

// Query values are strings; a repeated key (an array) or anything but plain digits is refused.
function integer(req: Request, name: string, fallback: number, min: number, max: number): number {
  const raw = req.query[name];
  if (raw === undefined) return fallback;
  const value = typeof raw === 'string' && /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!(value >= min && value <= max)) {
    const range = max === Number.MAX_SAFE_INTEGER ? `at least ${min}` : `from ${min} to ${max}`;
    throw new HttpError(400, `query parameter ${name} must be a whole number ${range}`, {
      errors: { [name]: [`must be a whole number ${range}`] },
    });
  }
  return value;
}

/** The posts resource of the reference API (see shared/specs/posts-api.md), over a repository. */
export function postsResource(repository: PostRepository, options: PostsOptions = {}) {
  const now = options.now ?? (() => new Date());
  const newId = options.newId ?? randomUUID;

  return resource('posts', {
    async index(req, res) {
      const limit = integer(req, 'limit', 100, 1, 100);
      const offset = integer(req, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
      const page = await repository.list(limit, offset);
      if (offset + limit < page.total) {
        res.header('Link', `</posts?limit=${limit}&offset=${offset + limit}>; rel="next"`);
      }
      return page.posts;
    },

    async show(req) {
      return found(await repository.get(req.params.post_id), req.params.post_id);
    },

    new(req) {
      const id = req.params.post_id;
      if (!isPostId(id)) {
        throw new HttpError(400, 'a post id is 1 to 64 characters of A-Z a-z 0-9 - _', { errors: { id: ['is malformed'] } });
      }
      return { id, title: '', body: '' };
    },

    async edit(req) {
      return found(await repository.get(req.params.post_id), req.params.post_id);
    },

    async create(req, res) {
      const checked = checkPost(req.body);
      if (!checked.ok) throw invalid(checked.errors);
      const stamp = now().toISOString();
      const { title, body } = checked.input;
      const post: Post = { id: checked.input.id ?? newId(), title, body, createdAt: stamp, updatedAt: stamp };
      if (!(await repository.insert(post))) throw new HttpError(409, `a post with id ${JSON.stringify(post.id)} exists already`);
      return res.created(pathFor(SHOW, { post_id: post.id }), post);
    },

    async update(req) {
      const id = req.params.post_id;
      const existing = found(await repository.get(id), id);
      const checked = checkPost(req.body, id);
      if (!checked.ok) throw invalid(checked.errors);
      const post: Post = { ...existing, title: checked.input.title, body: checked.input.body, updatedAt: now().toISOString() };
      if (!(await repository.replace(post))) throw absent(id);
      return post;
    },

    async destroy(req) {
      if (!(await repository.remove(req.params.post_id))) throw absent(req.params.post_id);
    },
  }, { schemas: POST_SCHEMAS });
}
