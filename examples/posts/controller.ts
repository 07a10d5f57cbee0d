import { inject, injectable, Resource, type ControllerFor, type RequestFor } from 'sevenfold/controllers';
import {
  HttpError,
  isFormSubmission,
  negotiate,
  pathFor,
  type Action,
  type Html,
  type Reply,
  type Request,
  type Result,
} from 'sevenfold';
import { checkPost, isPostId, type FieldErrors, type Post } from './post.js';
import type { PostRepository } from './repository.js';
import { POST_SCHEMAS } from './schema.js';
import { CLOCK, NEW_ID, POST_REPOSITORY } from './tokens.js';
import { page } from './views/layout.js';
import { editView, indexView, newView, showView, type FormState } from './views/posts.js';

/** What an action method of this resource receives: `PostsRequest<'show'>` has `params.post_id`. */
type PostsRequest<A extends Action> = RequestFor<'posts', A>;

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

/** What a refused form showed: the submitted values as text (a repeated field is not text, so it shows empty). */
function submitted(body: unknown): FormState {
  const fields = (body ?? {}) as Record<string, unknown>;
  const text = (name: string): string => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  return { id: text('id'), title: text('title'), body: text('body') };
}

/**
 * A refused write: a browser's form submission gets its form again with the messages and the
 * error's status, everyone else the problem.
 */
function refuse(req: Request, error: HttpError, form: (errors: FieldErrors) => Html): Result {
  if (!isFormSubmission(req)) throw error;
  return page(form(error.errors as FieldErrors), error.status);
}

/** The posts resource of the reference API (shared/specs/posts-api.md), as a decorated controller. */
@Resource('posts', { schemas: POST_SCHEMAS })
@injectable()
export class PostsController implements ControllerFor<'posts'> {
  constructor(
    @inject(POST_REPOSITORY) private readonly posts: PostRepository,
    @inject(CLOCK) private readonly now: () => Date,
    @inject(NEW_ID) private readonly newId: () => string,
  ) {}

  async index(req: PostsRequest<'index'>, res: Reply): Promise<Result> {
    const limit = integer(req, 'limit', 100, 1, 100);
    const offset = integer(req, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const { posts, total } = await this.posts.list(limit, offset);
    if (offset + limit < total)
      res.header('Link', `</posts?limit=${limit}&offset=${offset + limit}>; rel="next"`);
    return negotiate(req, {
      'application/json': () => posts,
      'text/html': () => page(indexView({ posts, limit, offset, total, newId: this.newId() })),
    });
  }

  async show(req: PostsRequest<'show'>): Promise<Result> {
    const post = found(await this.posts.get(req.params.post_id), req.params.post_id);
    return negotiate(req, { 'application/json': () => post, 'text/html': () => page(showView(post)) });
  }

  // new and edit exist to serve forms: HTML is their default, JSON for a client that asks for it.
  new(req: PostsRequest<'new'>): Result {
    const id = req.params.post_id;
    if (!isPostId(id)) {
      throw new HttpError(400, 'a post id is 1 to 64 characters of A-Z a-z 0-9 - _', {
        errors: { id: ['is malformed'] },
      });
    }
    const template = { id, title: '', body: '' };
    return negotiate(req, {
      'text/html': () => page(newView(template)),
      'application/json': () => template,
    });
  }

  async edit(req: PostsRequest<'edit'>): Promise<Result> {
    const post = found(await this.posts.get(req.params.post_id), req.params.post_id);
    return negotiate(req, {
      'text/html': () => page(editView(post)),
      'application/json': () => post,
    });
  }

  async create(req: PostsRequest<'create'>, res: Reply): Promise<Result> {
    const again = (errors: FieldErrors) => newView({ ...submitted(req.body), errors });
    const checked = checkPost(req.body);
    if (!checked.ok) return refuse(req, invalid(checked.errors), again);
    const stamp = this.now().toISOString();
    const { title, body } = checked.input;
    const post: Post = {
      id: checked.input.id ?? this.newId(),
      title,
      body,
      createdAt: stamp,
      updatedAt: stamp,
    };
    if (!(await this.posts.insert(post))) {
      const taken = new HttpError(409, `a post with id ${JSON.stringify(post.id)} exists already`, {
        errors: { id: ['is taken by another post'] },
      });
      return refuse(req, taken, again);
    }
    const location = pathFor('/posts/:post_id', { post_id: post.id });
    return isFormSubmission(req) ? res.redirect(location, 303) : res.created(location, post);
  }

  async update(req: PostsRequest<'update'>, res: Reply): Promise<Result | Post> {
    const id = req.params.post_id;
    const existing = found(await this.posts.get(id), id);
    const checked = checkPost(req.body, id);
    if (!checked.ok)
      return refuse(req, invalid(checked.errors), (errors) =>
        editView({ ...submitted(req.body), id, errors }),
      );
    const post: Post = {
      ...existing,
      title: checked.input.title,
      body: checked.input.body,
      updatedAt: this.now().toISOString(),
    };
    if (!(await this.posts.replace(post))) throw absent(id);
    return isFormSubmission(req) ? res.redirect(pathFor('/posts/:post_id', { post_id: id }), 303) : post;
  }

  async destroy(req: PostsRequest<'destroy'>, res: Reply): Promise<Result | undefined> {
    if (!(await this.posts.remove(req.params.post_id))) throw absent(req.params.post_id);
    return isFormSubmission(req) ? res.redirect('/posts', 303) : undefined;
  }
}
