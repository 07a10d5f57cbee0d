// PostsController: the seven actions of posts as a decorated class, JSON and HTML negotiated.
import { inject, injectable, Resource, type ControllerFor, type RequestFor } from 'sevenfold/controllers';
import {
  HttpError,
  isFormSubmission,
  negotiate,
  type Action,
  type Reply,
  type HandlerRequest,
  type Result,
} from 'sevenfold';
import { changed } from 'sevenfold/live';
import { flash } from 'sevenfold/sessions';
import { POST_GUARDS, sessionSignedIn } from './auth.js';
import { visitorOf } from './sign-in.js';
import type { Post } from './post.js';
import type { PostRepository } from './repository.js';
import { POST_SCHEMAS } from './schema.js';
import type { PostsRoutes } from './routes.js';
import { CLOCK, NEW_ID, POST_REPOSITORY, POSTS_ROUTES } from './tokens.js';
import { page } from './views/layout.js';
import { editView, indexView, newView, showView } from './views/posts.js';

/** The resource's options: its schemas (validation, types, OpenAPI) and the guard on writes. */
export const POSTS_RESOURCE = { schemas: POST_SCHEMAS, before: POST_GUARDS } as const;

/** What an action method receives: `PostsRequest<'create'>` has `body.title` typed by the schema. */
type PostsRequest<A extends Action> = RequestFor<'posts', A, typeof POSTS_RESOURCE>;

function absent(id: string): HttpError {
  return new HttpError(404, `there is no post with id ${JSON.stringify(id)}`);
}

function found(post: Post | undefined, id: string): Post {
  if (post === undefined) throw absent(id);
  return post;
}

/** `res` after leaving a notice for the next page, where a session keeps one (with `POSTS_TOKEN` set). */
function flashed(req: HandlerRequest<any, any, any, any>, res: Reply, message: string): Reply {
  if (sessionSignedIn(req) !== undefined) flash(req, 'notice', message);
  return res;
}

// A refused form submission is shown the form again by the app's error page (views/posts.ts), so every
// refusal is thrown.

/** The posts resource of the reference API (shared/specs/posts-api.md), as a decorated controller. */
@Resource('posts', POSTS_RESOURCE)
@injectable()
export class PostsController implements ControllerFor<'posts', typeof POSTS_RESOURCE> {
  #cached: PostsRoutes | undefined;

  constructor(
    @inject(POST_REPOSITORY) private readonly posts: PostRepository,
    @inject(CLOCK) private readonly now: () => Date,
    @inject(NEW_ID) private readonly newId: () => string,
    @inject(POSTS_ROUTES) private readonly routesOfTable: () => PostsRoutes,
  ) {}

  // Asked for at the first request, by when the resource this controller serves has been built.
  get #routes(): PostsRoutes {
    return (this.#cached ??= this.routesOfTable());
  }

  async index(req: PostsRequest<'index'>, res: Reply): Promise<Result> {
    // Checked and defaulted by the query schema: whole numbers within their ranges.
    const { limit, offset } = req.query;
    const { posts, total } = await this.posts.list(limit, offset);
    const p = this.#routes.paths;
    if (offset + limit < total)
      res.header('Link', `<${p.posts.index({}, { limit, offset: offset + limit })}>; rel="next"`);
    return negotiate(req, {
      'application/json': () => posts,
      'text/html': () =>
        page(indexView(p, { posts, limit, offset, total, newId: this.newId() }, visitorOf(req))),
    });
  }

  async show(req: PostsRequest<'show'>): Promise<Result> {
    const post = found(await this.posts.get(req.params.post_id), req.params.post_id);
    return negotiate(req, {
      'application/json': () => post,
      'text/html': () => page(showView(this.#routes.paths, post, visitorOf(req))),
    });
  }

  // new and edit exist to serve forms: HTML is their default, JSON for a client that asks for it.
  new(req: PostsRequest<'new'>): Result {
    // The params schema has refused a malformed id with 400 already.
    const template = { id: req.params.post_id, title: '', body: '' };
    return negotiate(req, {
      'text/html': () => page(newView(this.#routes.paths, template, visitorOf(req))),
      'application/json': () => template,
    });
  }

  async edit(req: PostsRequest<'edit'>): Promise<Result> {
    const post = found(await this.posts.get(req.params.post_id), req.params.post_id);
    return negotiate(req, {
      'text/html': () => page(editView(this.#routes.paths, post, visitorOf(req))),
      'application/json': () => post,
    });
  }

  async create(req: PostsRequest<'create'>, res: Reply): Promise<Result> {
    const stamp = this.now().toISOString();
    const { id = this.newId(), title, body } = req.body;
    const { paths: p, unreachableIds } = this.#routes;
    if (unreachableIds.has(id)) {
      throw new HttpError(422, 'the post is not valid', {
        errors: {
          id: [`is the path of another route: ${p.posts.show({ post_id: id })} would never show this post`],
        },
      });
    }
    const post: Post = { id, title: title.trim(), body, createdAt: stamp, updatedAt: stamp };
    if (!(await this.posts.insert(post))) {
      throw new HttpError(409, `a post with id ${JSON.stringify(post.id)} exists already`, {
        errors: { id: ['is taken by another post'] },
      });
    }
    const location = p.posts.show({ post_id: post.id });
    // A form's answer is a redirect, which carries no post: its watchers are given the post itself.
    changed(req, post);
    return isFormSubmission(req)
      ? flashed(req, res, 'Post created.').redirect(location, 303)
      : res.created(location, post);
  }

  async update(req: PostsRequest<'update'>, res: Reply): Promise<Result | Post> {
    const id = req.params.post_id;
    const existing = found(await this.posts.get(id), id);
    // The one rule no schema can state: a body that names an id names this post.
    if (req.body.id !== undefined && req.body.id !== id) {
      throw new HttpError(422, 'the post is not valid', {
        errors: { id: ['must match the id in the path'] },
      });
    }
    const post: Post = {
      ...existing,
      title: req.body.title.trim(),
      body: req.body.body,
      updatedAt: this.now().toISOString(),
    };
    if (!(await this.posts.replace(post))) throw absent(id);
    changed(req, post);
    return isFormSubmission(req)
      ? flashed(req, res, 'Post saved.').redirect(this.#routes.paths.posts.show({ post_id: id }), 303)
      : post;
  }

  async destroy(req: PostsRequest<'destroy'>, res: Reply): Promise<Result | undefined> {
    if (!(await this.posts.remove(req.params.post_id))) throw absent(req.params.post_id);
    return isFormSubmission(req)
      ? flashed(req, res, 'Post deleted.').redirect(this.#routes.paths.posts.index(), 303)
      : undefined;
  }
}
