// Type tests for HTTP caching: etag(), fresh() and the cache option; compiled by `tsc -p .`, never run.
import { resource, scope, singular, type Hook, type Result, type Route } from '../../core/index.js';
import { etag, fresh, type Validators } from '../../core/features/caching/index.js';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const ok = () => ({});
const all = { index: ok, show: ok, new: ok, edit: ok, create: ok, update: ok, destroy: ok };

// etag() is a hook, for a scope or a resource.
const validator: Hook = etag();
const posts = resource('posts', all, { hooks: [etag()] });
scope({ hooks: [validator] }, posts);
// @ts-expect-error: etag() takes no options
etag({ weak: false });

// fresh(): a 304 Result when the client holds the representation, else undefined.
resource('notes', {
  show(req, res) {
    const answer = fresh(req, res, { etag: [req.params.note_id, new Date(0)], lastModified: 0 });
    type _ = Expect<Equal<typeof answer, Result<304, undefined, 'empty'> | undefined>>;
    return answer ?? { id: req.params.note_id };
  },
  index(req, res) {
    // @ts-expect-error: an etag is text, numbers and dates, not an object
    fresh(req, res, { etag: { version: 1 } });
    // @ts-expect-error: lastModified is a date
    fresh(req, res, { lastModified: true });
    return fresh(req, res, { lastModified: '2024-01-02T03:04:05Z' }) ?? [];
  },
});
const validators: Validators = { etag: 'v1' };
void validators;

// The cache option: one value for every GET action, or per GET action by name.
resource('articles', all, { cache: 'no-cache' });
resource('books', all, { cache: { index: 'no-cache', show: 'private, max-age=60', edit: undefined } });
resource('clips', { ...all, search: ok }, { collection: { search: 'GET' }, cache: { search: 'no-store' } });
singular('profile', { show: ok, edit: ok }, { cache: { show: 'private' } });
// @ts-expect-error: no such action
resource('drafts', all, { cache: { shwo: 'no-cache' } });
// @ts-expect-error: create answers POST, which caches do not keep
resource('events', all, { cache: { create: 'no-store' } });
// @ts-expect-error: publish answers POST
resource('files', { ...all, publish: ok }, { member: { publish: 'POST' }, cache: { publish: 'no-cache' } });
// @ts-expect-error: a singular resource has no index
singular('account', { show: ok }, { cache: { index: 'no-cache' } });
// @ts-expect-error: a Cache-Control value is text
resource('games', all, { cache: 60 });

// The route record keeps it as data.
type _cached = Expect<Equal<Route['cacheControl'], string | undefined>>;
