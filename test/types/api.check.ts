// Type tests: compiled by `tsc -p .` in `npm test`, never run. A line marked @ts-expect-error
// that compiles, or an Expect<Equal<…>> that does not hold, fails the build.
import polka from 'polka';
import polkaNext from 'polka-next';
import { serve, type Running } from '../../adapters/node.js';
import { mount } from '../../adapters/polka.js';
import {
  html,
  HttpError,
  pathFor,
  trustedHtml,
  resource,
  routes,
  type ActionPath,
  type ParamKeys,
  type Params,
  type HandlerRequest,
  type Route,
  type RouteTable,
} from '../../core/index.js';
import { Reply } from '../../core/response/reply.js';
import { type IdParam } from '../../core/define/inflect.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export type Checks = [
  Expect<Equal<ParamKeys<'/posts/:post_id/edit'>, 'post_id'>>,
  Expect<Equal<ParamKeys<'/a/:x/b/:y'>, 'x' | 'y'>>,
  Expect<Equal<ParamKeys<'/posts'>, never>>,
  Expect<Equal<IdParam<'posts'>, 'post_id'>>,
  Expect<Equal<IdParam<'categories'>, 'category_id'>>,
  Expect<Equal<IdParam<'people'>, 'person_id'>>,
  Expect<Equal<IdParam<'people2'>, never>>,
  Expect<Equal<ActionPath<'new', 'posts', 'post_id'>, '/posts/:post_id/new'>>,
  Expect<Equal<ActionPath<'create', 'posts', 'post_id'>, '/posts'>>,
];

const ok = () => null;

// Each handler sees exactly the params of its own path.
const posts = resource('posts', {
  index(req) {
    type _ = Expect<Equal<typeof req.params, Params<'/posts'>>>;
    // @ts-expect-error index has no post_id
    req.params.post_id;
    return [];
  },
  show(req) {
    type _ = Expect<Equal<typeof req.params.post_id, string>>;
    // @ts-expect-error the param is post_id, not id
    req.params.id;
    return req.params.post_id;
  },
  edit: (req: HandlerRequest<{ readonly post_id: string }>) => req.params.post_id,
  update: (req) => ({ id: req.params.post_id, body: req.body }),
});
export type PostChecks = [
  Expect<Equal<typeof posts.name, 'posts'>>,
  Expect<Equal<typeof posts.param, 'post_id'>>,
  Expect<Equal<typeof posts.actions.show, Route<'/posts/:post_id'>>>,
  Expect<Equal<keyof typeof posts.actions, 'index' | 'show' | 'edit' | 'update'>>,
];
// @ts-expect-error no destroy handler, so no destroy route
posts.actions.destroy;

resource('categories', { show: (req) => req.params.category_id });

// Options change the types as they change the table.
const articles = resource(
  'articles',
  { show: (req) => req.params.slug, index: ok },
  { param: 'slug', path: 'blog' },
);
export type ArticleChecks = [
  Expect<Equal<typeof articles.actions.show.path, '/blog/:slug'>>,
  Expect<Equal<typeof articles.param, 'slug'>>,
];
const some = resource('posts', { index: ok, show: ok, destroy: ok }, { except: ['destroy'] });
export type ExceptCheck = Expect<Equal<keyof typeof some.actions, 'index' | 'show'>>;
const only = resource('posts', { index: ok, show: ok }, { only: ['show'] });
export type OnlyCheck = Expect<Equal<keyof typeof only.actions, 'show'>>;

// A name the rule cannot read needs an explicit param, and then handlers see it.
resource('people2', { show: (req) => req.params.pid }, { param: 'pid' });
// @ts-expect-error no rule gives the singular of people2
resource('people2', { show: ok });

// Misuse fails to compile.
// @ts-expect-error misspelt action
resource('posts', { destory: ok });
// @ts-expect-error a handler must be a function
resource('posts', { show: 'nope' });
// @ts-expect-error only names actions
resource('posts', { show: ok }, { only: ['shwo'] });
// @ts-expect-error param must be a string
resource('posts', { show: ok }, { param: 1 });
// @ts-expect-error unknown option
resource('posts', { show: ok }, { params: 'x' });
// @ts-expect-error the name must be a string
resource(42, { show: ok });

// Typed path helpers come from the table.
export const paths: string[] = [
  pathFor(posts.actions.show, { post_id: '1' }),
  pathFor(posts.actions.index),
  pathFor('/posts/:post_id/edit', { post_id: 2 }),
  // @ts-expect-error missing post_id
  pathFor(posts.actions.show, {}),
  // @ts-expect-error wrong param name
  pathFor(posts.actions.show, { id: '1' }),
  // @ts-expect-error params are required for a member route
  pathFor(posts.actions.show),
];

export const table: RouteTable = routes(posts, articles);
export const errors = [
  new HttpError(404),
  new HttpError(422, 'invalid', { errors: { title: ['is required'] } }),
  // @ts-expect-error detail is a string
  new HttpError(400, { detail: 'x' }),
];

// Both polka generations mount, and mount returns the app with its own type.
export const apps = [mount(polka(), posts).listen, mount(polkaNext(), posts).listen];
export const running: Promise<Running> = serve(posts, { port: 0, bodyLimit: 1024 });
// @ts-expect-error bodyLimit is a number
serve(posts, { bodyLimit: '1mb' });

// Controllers: action methods typed like resource() handlers.
import { controller, type ControllerFor, type RequestFor } from '../../core/controllers/index.js';

export type ControllerChecks = [
  Expect<Equal<RequestFor<'posts', 'show'>['params'], Params<'/posts/:post_id'>>>,
  Expect<Equal<RequestFor<'posts', 'index'>['params'], Params<'/posts'>>>,
  Expect<Equal<RequestFor<'articles', 'edit', { param: 'slug' }>['params'], Params<'/articles/:slug/edit'>>>,
];

export class TypedPosts implements ControllerFor<'posts'> {
  show(req: RequestFor<'posts', 'show'>) {
    // @ts-expect-error the param is post_id
    req.params.id;
    return req.params.post_id;
  }
}

export class WrongPosts implements ControllerFor<'posts'> {
  // @ts-expect-error a method whose request has the wrong params does not implement the controller
  show(req: HandlerRequest<{ readonly id: string }>) {
    return req.params.id;
  }
}

const typedPosts = controller(TypedPosts);
export type ControllerActions = Expect<Equal<keyof typeof typedPosts.actions, 'show'>>;
// @ts-expect-error controller() takes a class
controller(() => null);

// html() and res.html() send Html only: a string is markup by intent (trustedHtml) or by the tag, never by
// accident.
export const fromTag = html(html`<p>${'<b>'}</p>`, 422);
export const fromTrusted = new Reply().html(trustedHtml('<p>mine</p>'));
// @ts-expect-error a plain string is not Html
html('<p>x</p>');
// @ts-expect-error a plain string is not Html, with a status either
html(`<p>${'x'}</p>`, 201);
// @ts-expect-error res.html takes Html only
new Reply().html('<p>x</p>');
