// `sevenfold/assets`: a folder served as routes of the table, one per file, under its own name and a fingerprinted
// one: validators and 304s, single ranges, precompressed siblings, streamed from the file system.
import { createHash } from 'node:crypto';
import {
  closeSync,
  createReadStream,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  statSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import mime from 'mime';
import Negotiator from 'negotiator';
import {
  hook,
  HttpError,
  RouteDefinitionError,
  routes,
  type HandlerRequest,
  type Hook,
  type Route,
  type RouteTable,
} from 'sevenfold';

/** What `assets()` takes besides the prefix and the folder. */
export interface AssetsOptions {
  /**
   * `Cache-Control` of a file under its own name (`/assets/site.css`): default `no-cache`, so a browser asks
   * again each time and gets a `304` while the file is unchanged. A fingerprinted name is always
   * `public, max-age=31536000, immutable`: its bytes never change.
   */
  readonly cacheControl?: string;
}

/** One file the folder serves, as data: its names, its size and type, its precompressed siblings. */
export interface AssetFile {
  /** Its path in the folder, with `/` (`css/site.css`). */
  readonly name: string;
  /** The URL of its own name, and of its fingerprinted one (the name with a digest of its bytes before the extension). */
  readonly url: string;
  readonly fingerprinted: string;
  readonly size: number;
  readonly type: string;
  /** The encodings a sibling holds it in (`site.css.br`, `site.css.gz`), best first. */
  readonly encodings: readonly ('br' | 'gzip')[];
  /** The first ten hex digits of the SHA-256 of its bytes, and its modification time (ms), when it was read. */
  readonly digest: string;
  readonly mtime: number;
}

/** The routes of a folder, with what a page needs to link them. */
export interface Assets extends RouteTable {
  /** The fingerprinted URL of a file (`assets.url('site.css')` is `/assets/site.3f9a0c1d2e.css`); unknown names throw. */
  url(name: string): string;
  /** The files served, in name order. */
  readonly files: readonly AssetFile[];
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
// A segment a URL path can hold as it is: no escapes, no `:` (a param), no dot segment, no hidden file.
const SEGMENT = /^(?!\.)[A-Za-z0-9._~-]+$/;
const SIBLINGS = { br: '.br', gzip: '.gz' } as const;
const CHUNK = 64 * 1024;

/**
 * Serves `folder` under `prefix`: `routes(posts, assets('/assets', new URL('./public', import.meta.url)))`.
 * The folder is read when the table is made: each regular file (hidden ones, names a URL would have to
 * escape, and symlinks leading out of the folder left out) becomes two `GET` routes, its own name and a
 * fingerprinted one, listed and documented like any route. Responses carry `Content-Type` from the
 * extension, a strong `ETag` (the digest) and `Last-Modified`, answer `If-None-Match` / `If-Modified-Since`
 * with `304`, a single `Range` with `206` (`416` past the end), and a `.br` or `.gz` sibling when
 * `Accept-Encoding` takes it (`Vary: Accept-Encoding`). Bytes are streamed, never read whole.
 */
export function assets(prefix: string, folder: string | URL, options: AssetsOptions = {}): Assets {
  const call = `assets(${JSON.stringify(prefix)}, folder)`;
  if (typeof prefix !== 'string' || !/^(\/[A-Za-z0-9._~-]+)+$/.test(prefix))
    throw new RouteDefinitionError(
      `${call}: the prefix must be a path such as '/assets', with no trailing slash`,
    );
  const root = typeof folder === 'string' ? folder : fileURLToPath(folder);
  let real: string;
  try {
    real = realpathSync(root);
  } catch {
    throw new RouteDefinitionError(`${call}: no folder at ${root}`);
  }
  if (!statSync(real).isDirectory()) throw new RouteDefinitionError(`${call}: ${root} is not a folder`);
  const cacheControl = options.cacheControl ?? 'no-cache';
  const files = scan(real).map((path) => describe(real, path, prefix));
  const byName = new Map(files.map((file) => [file.name, file]));
  const list: Route[] = [];
  for (const file of files) {
    const serve = serveFile(real, join(real, ...file.name.split('/')), file);
    const docs = [documented(file)];
    list.push(route(`assets.${file.name}`, file.url, (req) => serve(req, cacheControl, false), docs));
    list.push(
      route(`assets.${file.name}@digest`, file.fingerprinted, (req) => serve(req, IMMUTABLE, true), docs),
    );
  }
  const table = [...routes(...list)] as Route[] & { url?: Assets['url']; files?: readonly AssetFile[] };
  table.url = (name: string) => {
    const file = byName.get(name);
    if (file === undefined)
      throw new TypeError(
        `assets.url(${JSON.stringify(name)}): no such file in ${root}; the files are ${[...byName.keys()].join(', ') || 'none'}`,
      );
    return file.fingerprinted;
  };
  table.files = Object.freeze(files);
  return Object.freeze(table) as unknown as Assets;
}

/**
 * Where `path` leads, when it is inside `real` (a symlink followed only where it stays in) and is what `kind`
 * asks for; `undefined` for anything else, a path gone included. Every file is judged so when the table is
 * made, each precompressed sibling too, and again on every request, so a file swapped for a symlink out of
 * the folder later serves nothing.
 */
function inside(real: string, path: string, kind: 'file' | 'directory'): string | undefined {
  try {
    const target = realpathSync(path);
    if (target !== real && !target.startsWith(real + sep)) return undefined;
    const stat = statSync(target);
    return (kind === 'file' ? stat.isFile() : stat.isDirectory()) ? target : undefined;
  } catch {
    return undefined;
  }
}

/** The files under `real` a URL can name, as paths from it, in order; what leads out of it is left out. */
function scan(real: string, dir = real, visited = new Set<string>([real])): string[] {
  const found: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    if (!SEGMENT.test(name)) continue;
    const path = join(dir, name);
    const folder = inside(real, path, 'directory');
    // A folder reached twice (a symlink back up) is read once: no loop.
    if (folder !== undefined) {
      if (!visited.has(folder)) {
        visited.add(folder);
        found.push(...scan(real, path, visited));
      }
    } else if (inside(real, path, 'file') !== undefined) found.push(relative(real, path));
  }
  // A precompressed sibling of a served file is that file's encoding, not a file of its own.
  const names = new Set(found);
  return found.filter(
    (path) =>
      !Object.values(SIBLINGS).some((ext) => path.endsWith(ext) && names.has(path.slice(0, -ext.length))),
  );
}

function describe(real: string, path: string, prefix: string): AssetFile {
  const full = join(real, path);
  const name = path.split(sep).join('/');
  const stat = statSync(full);
  const digest = digestOf(full);
  const slash = name.lastIndexOf('/');
  const dot = name.lastIndexOf('.');
  const fingerprinted =
    dot > slash + 1 ? `${name.slice(0, dot)}.${digest}${name.slice(dot)}` : `${name}.${digest}`;
  // A sibling is judged as any file: one that leads out of the folder is no encoding of this one.
  const encodings = (Object.keys(SIBLINGS) as ('br' | 'gzip')[]).filter(
    (encoding) => inside(real, full + SIBLINGS[encoding], 'file') !== undefined,
  );
  return Object.freeze({
    name,
    url: `${prefix}/${name}`,
    fingerprinted: `${prefix}/${fingerprinted}`,
    size: stat.size,
    type: mime.getType(name) ?? 'application/octet-stream',
    encodings: Object.freeze(encodings),
    digest,
    mtime: Math.floor(stat.mtimeMs),
  });
}

/** The first ten hex digits of the SHA-256 of a file's bytes, read a chunk at a time. */
function digestOf(path: string): string {
  const hash = createHash('sha256');
  const fd = openSync(path, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK);
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk))
      hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex').slice(0, 10);
}

function route(
  name: string,
  path: string,
  handler: (req: HandlerRequest) => Response,
  hooks: readonly Hook[],
): Route {
  return Object.freeze({
    resource: 'assets',
    action: 'file',
    method: 'GET',
    path,
    params: Object.freeze([]),
    name,
    body: false,
    hooks: Object.freeze(hooks),
    handler,
  });
}

/** What the OpenAPI document says of a file's routes: its bytes by type, a range, a 304, a 416. */
function documented(file: AssetFile): Hook {
  const bytes = { [file.type]: { schema: { type: 'string', format: 'binary' } } };
  const validators = {
    ETag: { description: 'A strong validator of these bytes.', schema: { type: 'string' } },
    'Last-Modified': { description: 'When the file last changed.', schema: { type: 'string' } },
    'Cache-Control': {
      description: 'immutable for the fingerprinted name, no-cache for its own.',
      schema: { type: 'string' },
    },
  };
  return hook('assets', {
    openapi: {
      headers: validators,
      statuses: ['200', '206', '304'],
      responses: {
        '200': { description: `The file ${file.name}, streamed.`, content: bytes },
        '206': { description: 'The one range asked for (Range: bytes=…).', content: bytes },
        '304': {
          description: 'Not Modified: the client holds these bytes (If-None-Match or If-Modified-Since).',
        },
        '404': {
          description: 'Not Found: the file is gone, or changed since its fingerprinted name was given.',
        },
        '416': { description: 'Range Not Satisfiable: the range starts past the end of the file.' },
      },
    },
  });
}

/** The handler of one file: conditional requests, a range, an encoding; the bytes streamed. */
function serveFile(real: string, path: string, file: AssetFile) {
  const type = /^(text\/|application\/(javascript|json|xml))/.test(file.type)
    ? `${file.type}; charset=utf-8`
    : file.type;
  return (req: HandlerRequest, cacheControl: string, pinned: boolean): Response => {
    // Judged again per request: a file removed, or swapped for a symlink out of the folder, serves nothing.
    const target = inside(real, path, 'file');
    if (target === undefined) throw new HttpError(404, `${file.url} is gone`);
    const stat = statSync(target);
    // The fingerprinted name promises these bytes for a year: once the file changed, it names nothing.
    if (pinned && (stat.size !== file.size || Math.floor(stat.mtimeMs) !== file.mtime))
      throw new HttpError(404, `this version of ${file.url} is gone; its page names the new one`);
    const encoding = chosenEncoding(req, file.encodings);
    const sibling = encoding === undefined ? undefined : inside(real, path + SIBLINGS[encoding], 'file');
    const sent = sibling === undefined ? stat : statSync(sibling);
    const etag = `"${file.digest}-${sent.size.toString(36)}-${Math.floor(sent.mtimeMs).toString(36)}${sibling === undefined ? '' : `-${encoding}`}"`;
    const lastModified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000);
    const headers: Record<string, string> = {
      'Content-Type': type,
      'Cache-Control': cacheControl,
      ETag: etag,
      'Last-Modified': lastModified.toUTCString(),
      // The type is the extension's, never what the bytes look like.
      'X-Content-Type-Options': 'nosniff',
      ...(file.encodings.length > 0 ? { Vary: 'Accept-Encoding' } : {}),
    };
    if (notModified(req, etag, lastModified)) return new Response(null, { status: 304, headers });
    if (sibling !== undefined) {
      headers['Content-Encoding'] = encoding!;
      headers['Content-Length'] = String(sent.size);
      return new Response(stream(sibling), { status: 200, headers });
    }
    headers['Accept-Ranges'] = 'bytes';
    const range = rangeOf(req, etag, stat.size);
    if (range === 'unsatisfiable') {
      headers['Content-Range'] = `bytes */${stat.size}`;
      return new Response(null, { status: 416, headers });
    }
    if (range === undefined) {
      headers['Content-Length'] = String(stat.size);
      return new Response(stat.size === 0 ? null : stream(target), { status: 200, headers });
    }
    const [start, end] = range;
    headers['Content-Range'] = `bytes ${start}-${end}/${stat.size}`;
    headers['Content-Length'] = String(end - start + 1);
    return new Response(stream(target, start, end), { status: 206, headers });
  };
}

function stream(path: string, start?: number, end?: number): ReadableStream<Uint8Array> {
  return Readable.toWeb(createReadStream(path, { start, end })) as ReadableStream<Uint8Array>;
}

/** The precompressed encoding the request takes, best first, or `undefined` for the file itself. */
function chosenEncoding(
  req: HandlerRequest,
  available: readonly ('br' | 'gzip')[],
): 'br' | 'gzip' | undefined {
  if (available.length === 0) return undefined;
  const accept = req.headers['accept-encoding'];
  if (accept === undefined) return undefined;
  // Where the client weighs two alike, the smaller wins (negotiator's preferred order; its types lag behind).
  const negotiator = new Negotiator({ headers: { 'accept-encoding': accept } });
  const encodings = negotiator.encodings as (
    available: string[],
    options: { preferred: string[] },
  ) => string[];
  const chosen = encodings.call(negotiator, [...available, 'identity'], {
    preferred: ['br', 'gzip', 'identity'],
  });
  const best = chosen[0];
  return best === 'br' || best === 'gzip' ? best : undefined;
}

/** Whether the client holds this version (RFC 9110 §13.1.2, §13.1.3): its tag, or its date when it sent no tag. */
function notModified(req: HandlerRequest, etag: string, lastModified: Date): boolean {
  const match = single(req.headers['if-none-match']);
  if (match !== undefined)
    return match.trim() === '*' || match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
  const since = single(req.headers['if-modified-since']);
  if (since === undefined) return false;
  const time = Date.parse(since);
  return Number.isFinite(time) && lastModified.getTime() <= time;
}

/**
 * The one range a `Range: bytes=…` asks for, clamped to the file; `undefined` for the whole file (no range,
 * several, another unit, or an `If-Range` that no longer holds); `'unsatisfiable'` past its end.
 */
function rangeOf(
  req: HandlerRequest,
  etag: string,
  size: number,
): [number, number] | 'unsatisfiable' | undefined {
  const header = single(req.headers.range);
  if (header === undefined) return undefined;
  const ifRange = single(req.headers['if-range']);
  // Only the entity-tag, a strong validator, vouches that the bytes are the ones the client holds part of.
  if (ifRange !== undefined && ifRange !== etag) return undefined;
  const spec = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (spec === null || (spec[1] === '' && spec[2] === '')) return undefined;
  if (spec[1] === '') {
    const suffix = Number(spec[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(spec[1]);
  const end = spec[2] === '' ? size - 1 : Math.min(Number(spec[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return [start, end];
}

/** A header's one value, or `undefined` when it is missing or repeated. */
function single(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
