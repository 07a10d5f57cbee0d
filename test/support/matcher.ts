// What the matcher tests share: a table of posts (with a static /posts/search beside its param
// routes) and tags, its compiled matcher, and brief(), a match boiled down to one comparable line.
import { resource, routes, type Match, type Route } from '../../core/index.js';
import { compile } from '../../core/matcher/index.js';

export const ok = () => 'ok';
export const all = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };
export const posts = resource('posts', all);
export const table = routes(
  posts,
  resource('tags', { index: ok, show: ok }, { param: 'name' }),
  // A static route beside the param one, the way a Rails-style /posts/search would sit.
  { ...posts.actions.index, name: 'posts.search', action: 'search', path: '/posts/search' } as Route,
);
export const matcher = compile(table);

/** The match, boiled down to a line that is easy to compare. */
export function brief(m: Match): string {
  switch (m.kind) {
    case 'found':
      return `${m.route.name} ${JSON.stringify({ ...m.params })}`;
    case 'method-not-allowed':
      return `405 ${m.allow}`;
    case 'not-found':
      return '404';
    case 'bad-request':
      return `400 ${m.detail}`;
  }
}
