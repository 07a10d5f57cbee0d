// Type tests for nesting, singular resources, extra actions, prefixes and path helpers:
// compiled by `tsc -p .` in `npm test`, never run. A line marked @ts-expect-error that
// compiles, or an Expect<Equal<…>> that does not hold, fails the build.
import {
  guard,
  paths,
  prefix,
  resource,
  routes,
  singular,
  type Form,
  type Params,
  type Route,
} from '../../core/index.js';
import { Resource, type ControllerFor, type RequestFor } from '../../core/controllers/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
const ok = () => 'ok';

const posts = resource(
  'posts',
  {
    index: ok,
    show: ok,
    update: ok,
    publish(req) {
      type _ = Expect<Equal<typeof req.params, Params<'/posts/:post_id/publish'>>>;
      return req.params.post_id;
    },
    search(req) {
      // @ts-expect-error a collection action has no post_id
      req.params.post_id;
      return [];
    },
  },
  { member: { publish: 'POST' }, collection: { search: 'GET' }, patch: true },
);
export type PostChecks = [
  Expect<Equal<keyof typeof posts.actions, 'index' | 'show' | 'update' | 'publish' | 'search'>>,
  Expect<Equal<typeof posts.actions.publish, Route<'/posts/:post_id/publish'>>>,
  Expect<Equal<typeof posts.actions.search.path, '/posts/search'>>,
  Expect<Equal<typeof posts.memberPath, '/posts/:post_id'>>,
];

// Children see their parent's params, typed, at every depth.
const comments = resource(
  'comments',
  {
    index(req) {
      type _ = Expect<Equal<typeof req.params, Params<'/posts/:post_id/comments'>>>;
      return req.params.post_id;
    },
    show(req) {
      type _ = Expect<Equal<keyof typeof req.params, 'post_id' | 'comment_id'>>;
      return req.params.comment_id + req.params.post_id;
    },
  },
  { parent: posts },
);
const likes = resource(
  'likes',
  { show: (req) => req.params.post_id + req.params.comment_id + req.params.like_id },
  { parent: comments },
);
export type DeepChecks = Expect<
  Equal<typeof likes.actions.show.path, '/posts/:post_id/comments/:comment_id/likes/:like_id'>
>;

// Shallow: members un-nested, new still nested.
const notes = resource(
  'notes',
  {
    index: (req) => req.params.post_id,
    new: (req) => req.params.post_id + req.params.note_id,
    show(req) {
      // @ts-expect-error a shallow member route has no parent param
      req.params.post_id;
      return req.params.note_id;
    },
  },
  { parent: posts, shallow: true },
);
export type ShallowChecks = [
  Expect<Equal<typeof notes.actions.show.path, '/notes/:note_id'>>,
  Expect<Equal<typeof notes.actions.new.path, '/posts/:post_id/notes/:note_id/new'>>,
  Expect<Equal<typeof notes.actions.index.path, '/posts/:post_id/notes'>>,
];

// Singular: no id, no index; nestable and a parent.
const profile = singular('profile', {
  show(req) {
    type _ = Expect<Equal<typeof req.params, Params<'/profile'>>>;
    return {};
  },
  edit: ok,
});
const avatar = singular('avatar', { show: ok }, { parent: profile });
const author = singular('author', { show: (req) => req.params.post_id }, { parent: posts });
export type SingularChecks = [
  Expect<Equal<typeof profile.actions.edit.path, '/profile/edit'>>,
  Expect<Equal<typeof avatar.actions.show.path, '/profile/avatar'>>,
  Expect<Equal<typeof author.actions.show.path, '/posts/:post_id/author'>>,
  Expect<Equal<typeof profile.param, undefined>>,
];
// @ts-expect-error a singular resource has no index
singular('profile', { index: ok });
// @ts-expect-error a singular resource has no id param
singular('profile', { show: ok }, { param: 'id' });
// @ts-expect-error a singular resource has no collection
singular('profile', { show: ok, x: ok }, { collection: { x: 'GET' } });

// newPath: 'collection' gives Rails' new.
const rails = resource('articles', { new: (req) => req.params }, { newPath: 'collection' });
export type NewPathCheck = Expect<Equal<typeof rails.actions.new.path, '/articles/new'>>;

// Extra actions: a handler with no declaration, a declaration with no handler, both compile errors.
// @ts-expect-error publish is not declared in member or collection
resource('posts', { show: ok, publish: ok });
// @ts-expect-error publish is declared but has no handler
resource('posts', { show: ok }, { member: { publish: 'POST' } });
// @ts-expect-error extra methods are upper-case HTTP methods
resource('posts', { publish: ok }, { member: { publish: 'post' } });
// @ts-expect-error schemas name actions of this resource only
resource('posts', { show: ok }, { schemas: { publish: {} } });
// @ts-expect-error guards name actions of this resource only
resource('posts', { show: ok }, { before: { pubilsh: [guard('g', () => undefined)] } });
// @ts-expect-error a parent is a resource
resource('comments', { show: ok }, { parent: 'posts' });
// @ts-expect-error shallow is a boolean
resource('comments', { show: ok }, { parent: posts, shallow: 'yes' });

// Schemas for extra actions type their requests like the seven.
resource(
  'posts',
  {
    publish(req) {
      const at: string = req.body.at;
      // @ts-expect-error the body schema has no such field
      req.body.when;
      return at;
    },
  },
  {
    member: { publish: 'POST' },
    schemas: {
      publish: {
        body: {
          type: 'object',
          required: ['at'],
          properties: { at: { type: 'string' } },
          additionalProperties: false,
        },
      },
    },
  } as const,
);

// Prefixes and path helpers.
const table = prefix('/api/v1', posts, comments, notes, profile);
const p = paths(table);
export const built: string[] = [
  p.posts.show({ post_id: 'a b' }),
  p.posts.show({ post_id: 42 }),
  p.posts.index(),
  p.posts.index(undefined, { limit: 10, tag: ['a', 'b'] }),
  p.comments.show({ post_id: '1', comment_id: '2' }),
  p.notes.show({ note_id: 'n' }),
  p.profile.show(),
  // @ts-expect-error missing param
  p.posts.show({}),
  // @ts-expect-error params are required for a member route
  p.posts.show(),
  // @ts-expect-error misspelt param
  p.posts.show({ post_idd: '1' }),
  // @ts-expect-error extra param
  p.posts.show({ post_id: '1', comment_id: '2' }),
  // @ts-expect-error a nested route needs its parent's param too
  p.comments.show({ comment_id: '2' }),
  // @ts-expect-error a collection route takes no params
  p.posts.index({ post_id: '1' }),
  // @ts-expect-error a param is a string or a number
  p.posts.show({ post_id: true }),
];
// @ts-expect-error unknown resource
p.postz;
// @ts-expect-error unknown action
p.posts.destroy;
// @ts-expect-error an action another resource has
p.profile.index;
export type HelperChecks = [
  Expect<Equal<typeof p.posts.show.pattern, '/api/v1/posts/:post_id'>>,
  Expect<Equal<typeof p.posts.search.pattern, '/api/v1/posts/search'>>,
  Expect<Equal<ReturnType<typeof p.posts.update.form>, Form>>,
];
export const form: Form = p.posts.update.form({ post_id: 1 });
// @ts-expect-error form() takes the route's params
p.posts.update.form({});
// Tables made by routes() remember their resources too; a prefix must be static.
export const both = paths(routes(posts, profile)).profile.edit();
// @ts-expect-error a prefix starts with /
prefix('api', posts);
// @ts-expect-error a prefix has no params
prefix('/orgs/:org_id', posts);
// @ts-expect-error a prefix has no trailing slash
prefix('/api/', posts);
// @ts-expect-error a prefix has no ".." segment
prefix('/api/..', posts);
// @ts-expect-error a prefix has no "." segment
prefix('/api/./v1', posts);
// @ts-expect-error a prefix has no ".." segment, first or last
prefix('/../api', posts);
// @ts-expect-error a prefix has no "." segment
prefix('/.', posts);
// Dots inside a segment are fine.
prefix('/.well-known/v1.2', posts);

// Controllers: the same options, extra actions as methods, a class parent.
const COMMENTS = { parent: posts, member: { approve: 'POST' } } as const;
@Resource('comments', COMMENTS)
export class CommentsController implements ControllerFor<'comments', typeof COMMENTS> {
  approve(req: RequestFor<'comments', 'approve', typeof COMMENTS>) {
    type _ = Expect<Equal<keyof typeof req.params, 'post_id' | 'comment_id'>>;
    return req.params.comment_id;
  }
  show(req: RequestFor<'comments', 'show', typeof COMMENTS>) {
    // @ts-expect-error the param is comment_id
    req.params.id;
    return req.params.post_id;
  }
}
export type ControllerChecks = [
  Expect<Equal<RequestFor<'profile', 'edit', {}, 'singular'>['params'], Params<'/profile/edit'>>>,
  // @ts-expect-error a singular controller has no index
  RequestFor<'profile', 'index', {}, 'singular'>,
];
