import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { filterRoutes, formatRoutes, resource, routes, type Route } from '../../core/index.js';
import { live } from '../../core/features/live/index.js';

const ok = () => null;
const one = () => ({ id: 'hello', title: 'Hello' });
const Post = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'string' }, title: { type: 'string' } },
} as const;
const changes = live();
const posts = resource(
  'posts',
  { index: ok, show: one, create: ok, update: ok, destroy: ok },
  { watch: changes, schemas: { show: { response: Post } } },
);
const table = routes(posts, resource('tags', { index: ok }));

/** The table as it would be unwatched: the same records without `events`. */
function unwatched(source: readonly Route[]): Route[] {
  return source.map(({ events: _events, ...route }) => route as Route);
}

test('formatRoutes() :: text has a Streams column naming the events of the routes that stream', () => {
  assert.is(
    formatRoutes(table),
    [
      'Name           Method  Path             Action         Streams',
      'posts.index    GET     /posts           posts#index    created, updated, destroyed, reload',
      'posts.show     GET     /posts/:post_id  posts#show     created, updated, destroyed, reload',
      'posts.create   POST    /posts           posts#create   -',
      'posts.update   PUT     /posts/:post_id  posts#update   -',
      'posts.destroy  DELETE  /posts/:post_id  posts#destroy  -',
      'tags.index     GET     /tags            tags#index     -',
      '',
    ].join('\n'),
  );
});

test('formatRoutes() :: md has the Streams column too', () => {
  assert.is(
    formatRoutes(posts.routes.slice(0, 3), 'md'),
    [
      '| Name         | Method | Path            | Action       | Streams                             |',
      '|--------------|--------|-----------------|--------------|-------------------------------------|',
      '| posts.index  | GET    | /posts          | posts#index  | created, updated, destroyed, reload |',
      '| posts.show   | GET    | /posts/:post_id | posts#show   | created, updated, destroyed, reload |',
      '| posts.create | POST   | /posts          | posts#create | -                                   |',
      '',
    ].join('\n'),
  );
});

test('formatRoutes() :: json keeps events as data, with the schema of each one`s data', () => {
  const parsed = JSON.parse(formatRoutes(table, 'json')) as { name: string; events?: any }[];
  const streaming = parsed.filter((route) => route.events !== undefined).map((route) => route.name);
  assert.equal(streaming, ['posts.index', 'posts.show']);
  const events = parsed[1]!.events;
  assert.equal(Object.keys(events), ['created', 'updated', 'destroyed', 'reload']);
  assert.equal(events.created.data, Post);
  assert.equal(events.destroyed.data, {
    type: 'object',
    properties: { id: { type: 'string' } },
    required: ['id'],
  });
  assert.type(events.reload.description, 'string');
});

test('formatRoutes() :: without streaming routes, every format prints as before', () => {
  for (const format of ['text', 'md', 'json'] as const)
    assert.is(
      formatRoutes(unwatched(table), format),
      formatRoutes(
        routes(
          resource(
            'posts',
            { index: ok, show: one, create: ok, update: ok, destroy: ok },
            { schemas: { show: { response: Post } } },
          ),
          resource('tags', { index: ok }),
        ),
        format,
      ),
      format,
    );
  assert.not.match(formatRoutes(unwatched(table)), 'Streams');
  // A filter that keeps no streaming route drops the column as well.
  assert.is(
    formatRoutes(filterRoutes(table, { method: 'post' })),
    'Name          Method  Path    Action\nposts.create  POST    /posts  posts#create\n',
  );
});

test('formatRoutes() :: changes.only(`show`) streams from show alone', () => {
  const shown = resource('notes', { index: ok, show: ok }, { watch: changes.only('show') });
  assert.is(
    formatRoutes(shown),
    [
      'Name         Method  Path             Action       Streams',
      'notes.index  GET     /notes           notes#index  -',
      'notes.show   GET     /notes/:note_id  notes#show   created, updated, destroyed, reload',
      '',
    ].join('\n'),
  );
});

test.after(() => changes.close());

test.run();
