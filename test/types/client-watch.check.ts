// Type tests for `watch()` of `sevenfold/client/watch`: only a watched index or show takes it, its events typed
// from the resource's show schema; compiled by `tsc -p .`, never run.
import { client } from '../../core/client/index.js';
import { watch, type WatchEvent } from '../../core/client/watch.js';
import { live } from '../../core/features/live/index.js';
import { resource, routes, singular } from '../../core/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const Post = {
  type: 'object',
  required: ['id', 'title'],
  properties: { id: { type: 'string' }, title: { type: 'string' } },
  additionalProperties: false,
} as const;
const Page = { type: 'object', properties: { limit: { type: 'integer', default: 10 } } } as const;
interface Post {
  id: string;
  title: string;
}

const changes = live();
const posts = resource(
  'posts',
  {
    index: () => [],
    show: (req) => ({ id: req.params.post_id, title: 'Hello' }),
    create: (req) => ({ id: '1', title: String(req.body) }),
    edit: (req) => ({ id: req.params.post_id, title: 'Hello' }),
  },
  { watch: changes, schemas: { index: { query: Page }, show: { response: Post } } },
);
// A params schema types the id a destroyed event carries.
const Numbered = { type: 'object', properties: { note_id: { type: 'integer' } } } as const;
const notes = resource(
  'notes',
  { show: (req) => ({ id: req.params.note_id }) },
  { watch: changes.only('show'), schemas: { show: { params: Numbered } } },
);
const comments = resource(
  'comments',
  { index: () => [], show: () => ({}) },
  { parent: posts, watch: changes },
);
const profile = singular('profile', { show: () => ({ name: 'me' }) }, { watch: changes });
const drafts = resource('drafts', { index: () => [], show: () => ({}) });
// Watched for show alone: its index does not stream, and the client's types know it.
const tags = resource('tags', { index: () => [], show: () => ({}) }, { watch: changes.only('show') });

const api = client(routes(posts, notes, comments, profile, drafts, tags), {
  baseUrl: 'http://localhost:3000',
});

export function onlyShow() {
  watch(api.tags.show, { params: { tag_id: 'rust' } });
  // @ts-expect-error changes.only('show'): the index does not stream
  watch(api.tags.index);
}

type PostEvent =
  | { readonly event: 'created'; readonly id: string; readonly data: Post }
  | { readonly event: 'updated'; readonly id: string; readonly data: Post }
  | { readonly event: 'destroyed'; readonly id: string; readonly data: { readonly id: string } }
  | { readonly event: 'reload'; readonly id?: string; readonly data: { readonly reason: string } };

export async function events(signal: AbortSignal) {
  for await (const event of watch(api.posts.index, { signal, lastEventId: 'b-3', retry: 500 })) {
    type _ = Expect<Equal<typeof event, PostEvent>>;
    // Told apart by `event`.
    if (event.event === 'created' || event.event === 'updated') {
      const title: string = event.data.title;
      const id: string = event.id;
      void [title, id];
    } else if (event.event === 'destroyed') {
      type _id = Expect<Equal<typeof event.data, { readonly id: string }>>;
    } else {
      type _reload = Expect<Equal<typeof event.data, { readonly reason: string }>>;
      type _resume = Expect<Equal<typeof event.id, string | undefined>>;
    }
    // A switch over the four is exhaustive.
    switch (event.event) {
      case 'created':
      case 'updated':
      case 'destroyed':
      case 'reload':
        break;
      default: {
        const none: never = event;
        void none;
      }
    }
    // @ts-expect-error the data is not known until the event is
    event.data.title;
  }
  // index takes its query, every field optional; the watch needs no argument.
  watch(api.posts.index, { query: { limit: 5 } });
  watch(api.posts.index);
  const shown = watch(api.posts.show, { params: { post_id: 1 }, headers: { authorization: 'Bearer t' } });
  type _show = Expect<Equal<Awaited<ReturnType<typeof shown.next>>, IteratorResult<PostEvent, void>>>;
  // The id param's type, from the params schema.
  for await (const event of watch(api.notes.show, { params: { note_id: 1 } }))
    if (event.event === 'destroyed') {
      type _ = Expect<Equal<typeof event.data, { readonly id: number }>>;
    }
  // A nested resource takes its parents' params; untyped data without a show schema.
  for await (const event of watch(api.comments.show, { params: { post_id: '1', comment_id: '2' } }))
    if (event.event === 'updated') {
      type _ = Expect<Equal<typeof event.data, unknown>>;
    }
  // A singular resource has no id param: its destroyed event's id is not known.
  for await (const event of watch(api.profile.show))
    if (event.event === 'destroyed') {
      type _ = Expect<Equal<typeof event.data, { readonly id: unknown }>>;
    }
  // A client without the table's type watches any call, its events' data unknown.
  const untyped = client(JSON.parse('[]'));
  for await (const event of watch(untyped.posts!.show!, { params: { post_id: '1' } })) {
    type _ = Expect<Equal<typeof event, WatchEvent>>;
  }
}

export function mistakes() {
  // @ts-expect-error drafts is not declared with watch
  watch(api.drafts.index);
  // @ts-expect-error only index and show stream
  watch(api.posts.edit, { params: { post_id: '1' } });
  // @ts-expect-error create is no watched route either
  watch(api.posts.create);
  // @ts-expect-error show needs its param
  watch(api.posts.show);
  // @ts-expect-error show needs its param
  watch(api.posts.show, {});
  // @ts-expect-error misspelt
  watch(api.posts.show, { params: { postid: '1' } });
  // @ts-expect-error index has no params
  watch(api.posts.index, { params: { post_id: '1' } });
  // @ts-expect-error limit is an integer
  watch(api.posts.index, { query: { limit: 'five' } });
  // @ts-expect-error a watch sends no body
  watch(api.posts.index, { body: {} });
  // @ts-expect-error the id to resume after is text
  watch(api.posts.index, { lastEventId: 3 });
  // @ts-expect-error a call, not its answer
  watch(api.posts.index());
  // @ts-expect-error a watch is not a call's method
  api.posts.index.watch;
}
