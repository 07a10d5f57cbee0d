// The table test/http/upload-override.test.ts serves on every adapter, in process and on Bun, Deno and workerd
// (runtime-apps.ts): edit forms with files, a singular path with a POST of its own, shared guards, no uploads.
import { guard, HttpError, resource, routes, singular } from '../../core/index.js';

/** The upload limits it is served with: small, so a 413 needs few bytes on the wire. */
export const OVERRIDE_LIMITS = { fileSize: 64, headerSize: 256 };

/** How many chunks a streamed body had given (`pulls`, set by the test) when books.update's guard ran. */
export const probe = { pulls: 0, whenMatched: -1 };

const Cover = {
  type: 'object',
  required: ['title', 'cover'],
  properties: {
    title: { type: 'string', minLength: 1 },
    count: { type: 'integer' },
    cover: { type: 'string', format: 'binary' },
  },
  additionalProperties: false,
} as const;

const books = resource(
  'books',
  {
    show: (req) => ({ id: req.params.book_id }),
    update: async (req) => {
      const { title, count, cover } = req.body;
      // No Buffer: the app runs on workerd too.
      const bytes = String.fromCharCode(...new Uint8Array(await cover.arrayBuffer()));
      return {
        method: req.method,
        fields: Object.keys(req.body),
        title,
        count,
        cover: { name: cover.name, type: cover.type, size: cover.size, base64: btoa(bytes) },
      };
    },
    destroy: (req) => ({ method: req.method, body: req.body ?? null }),
  },
  {
    patch: true,
    schemas: { update: { body: Cover } },
    before: { update: [guard('probe', () => void (probe.whenMatched = probe.pulls))] },
  },
);

// One path with a POST of its own: a form without `_method` first is that POST.
const Picture = {
  type: 'object',
  properties: { picture: { type: 'string', format: 'binary' } },
} as const;
const avatar = singular(
  'avatar',
  {
    create: (req, res) => res.created('/avatar', { method: req.method, fields: Object.keys(req.body) }),
    update: (req) => ({ method: req.method, fields: Object.keys(req.body) }),
  },
  { schemas: { create: { body: Picture }, update: { body: Picture } } },
);

// Guards every route a form may reach there shares: they run before a byte of the body is read.
const key = guard('key', (req) => {
  if (req.headers['x-key'] !== 'k') throw new HttpError(403, 'no key');
});
const vaults = resource(
  'vaults',
  { update: (req) => ({ method: req.method }), destroy: () => undefined },
  { schemas: { update: { body: Picture } }, before: { update: [key], destroy: [key] } },
);

// No upload here: a multipart POST is never read for `_method`.
const notes = resource('notes', { update: (req) => ({ body: req.body }) });

export const table = routes(books, avatar, vaults, notes);
