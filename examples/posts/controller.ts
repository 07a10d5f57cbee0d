import { inject, injectable, Resource, type ControllerFor, type RequestFor } from 'sevenfold/controllers';
import { HttpError, pathFor, type Action, type Reply, type Request } from 'sevenfold';
import { checkPost, isPostId, type FieldErrors, type Post } from './post.js';
import type { PostRepository } from './repository.js';
import { POST_SCHEMAS } from './schema.js';
import { CLOCK, NEW_ID, POST_REPOSITORY } from './tokens.js';

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

/** The posts resource of the reference API (shared/specs/posts-api.md), as a decorated controller. */
@Resource('posts', { schemas: POST_SCHEMAS })
@injectable()
export class PostsController implements ControllerFor<'posts'> {
  constructor(
    @inject(POST_REPOSITORY) private readonly posts: PostRepository,
    @inject(CLOCK) private readonly now: () => Date,
    @inject(NEW_ID) private readonly newId: () => string,
  ) {}

  async index(req: PostsRequest<'index'>, res: Reply): Promise<readonly Post[]> {
    const limit = integer(req, 'limit', 100, 1, 100);
    const offset = integer(req, 'offset', 0, 0, Number.MAX_SAFE_INTEGER);
    const page = await this.posts.list(limit, offset);
    if (offset + limit < page.total)
      res.header('Link', `</posts?limit=${limit}&offset=${offset + limit}>; rel="next"`);
    return page.posts;
  }

  async show(req: PostsRequest<'show'>): Promise<Post> {
    return found(await this.posts.get(req.params.post_id), req.params.post_id);
  }

  new(req: PostsRequest<'new'>): { id: string; title: string; body: string } {
    const id = req.params.post_id;
    if (!isPostId(id)) {
      throw new HttpError(400, 'a post id is 1 to 64 characters of A-Z a-z 0-9 - _', {
        errors: { id: ['is malformed'] },
      });
    }
    return { id, title: '', body: '' };
  }

  async edit(req: PostsRequest<'edit'>): Promise<Post> {
    return found(await this.posts.get(req.params.post_id), req.params.post_id);
  }

  async create(req: PostsRequest<'create'>, res: Reply): Promise<unknown> {
    const checked = checkPost(req.body);
    if (!checked.ok) throw invalid(checked.errors);
    const stamp = this.now().toISOString();
    const { title, body } = checked.input;
    const post: Post = {
      id: checked.input.id ?? this.newId(),
      title,
      body,
      createdAt: stamp,
      updatedAt: stamp,
    };
    if (!(await this.posts.insert(post)))
      throw new HttpError(409, `a post with id ${JSON.stringify(post.id)} exists already`);
    return res.created(pathFor('/posts/:post_id', { post_id: post.id }), post);
  }

  async update(req: PostsRequest<'update'>): Promise<Post> {
    const id = req.params.post_id;
    const existing = found(await this.posts.get(id), id);
    const checked = checkPost(req.body, id);
    if (!checked.ok) throw invalid(checked.errors);
    const post: Post = {
      ...existing,
      title: checked.input.title,
      body: checked.input.body,
      updatedAt: this.now().toISOString(),
    };
    if (!(await this.posts.replace(post))) throw absent(id);
    return post;
  }

  async destroy(req: PostsRequest<'destroy'>): Promise<void> {
    if (!(await this.posts.remove(req.params.post_id))) throw absent(req.params.post_id);
  }
}
