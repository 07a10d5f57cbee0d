// sevenfold/assets: a folder served as routes on every adapter and in process: types, validators and 304s,
// HEAD, single ranges, precompressed siblings, fingerprinted names, and nothing outside the folder.
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gzipSync, brotliCompressSync } from 'node:zlib';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { formatRoutes, openapi, RouteDefinitionError } from '../../core/index.js';
import { assets } from '../../core/features/assets/index.js';
import { raw, type RawRequest, type RawResponse } from '../support/http.js';
import { inProcess, quietHandler } from '../support/in-process.js';
import { startAll } from '../support/servers.js';

const work = mkdtempSync(join(tmpdir(), 'sevenfold-assets-'));
const folder = join(work, 'public');
mkdirSync(join(folder, 'css'), { recursive: true });
const CSS = 'body { color: #123456; }\n'.repeat(40);
writeFileSync(join(folder, 'css', 'site.css'), CSS);
writeFileSync(join(folder, 'css', 'site.css.gz'), gzipSync(CSS));
writeFileSync(join(folder, 'css', 'site.css.br'), brotliCompressSync(CSS));
writeFileSync(join(folder, 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(join(folder, 'empty.txt'), '');
writeFileSync(join(folder, '.env'), 'SECRET=1');
writeFileSync(join(folder, 'with space.txt'), 'x');
writeFileSync(join(work, 'outside.txt'), 'not for the web');
symlinkSync(join(work, 'outside.txt'), join(folder, 'leak.txt'));
symlinkSync(join(folder, 'logo.svg'), join(folder, 'alias.svg'));
// A precompressed sibling that leads out of the folder, and a folder linked back up (a loop).
writeFileSync(join(folder, 'plain.txt'), 'plain');
symlinkSync(join(work, 'outside.txt'), join(folder, 'plain.txt.br'));
symlinkSync(folder, join(folder, 'css', 'up'));
writeFileSync(join(folder, 'swap.txt'), 'the file as it was');
writeFileSync(join(folder, 'changes.txt'), 'version 1');

const table = assets('/assets', folder);
const digest = createHash('sha256').update(CSS).digest('hex').slice(0, 10);
const fingerprinted = `/assets/css/site.${digest}.css`;

const servers = await startAll(table, { checkResponses: false });
const handler = quietHandler(table, { checkResponses: false });

/** The same request on every adapter and in process: the same status, headers that matter, and body. */
async function everywhere(request: RawRequest): Promise<RawResponse> {
  const answers = await Promise.all(servers.map(({ running }) => raw(running.url, request)));
  // A Request made in process has its URL's dot segments resolved already, as a browser's has.
  const dots = /\.\.|%2e/i.test(request.path);
  const fetched = dots ? [] : [await inProcess(handler, request)];
  for (const [i, answer] of [...answers, ...fetched].entries()) {
    const where = servers[i]?.name ?? 'toFetch';
    assert.is(answer.status, answers[0]!.status, `${where}: ${request.path}`);
    assert.is(answer.body, answers[0]!.body, `${where}: ${request.path}`);
    for (const name of ['content-type', 'etag', 'content-range', 'content-encoding', 'cache-control', 'vary'])
      assert.is(answer.headers[name], answers[0]!.headers[name], `${where}: ${name}`);
  }
  return answers[0]!;
}

test('assets() :: a route per file under its own name and a fingerprinted one, listed; url() gives the latter', () => {
  assert.equal(
    table.files.map((file) => file.name),
    ['alias.svg', 'changes.txt', 'css/site.css', 'empty.txt', 'logo.svg', 'plain.txt', 'swap.txt'],
  );
  assert.equal(
    table.files.find((file) => file.name === 'plain.txt')!.encodings,
    [],
    'a sibling out of the folder is none',
  );
  assert.is(table.url('css/site.css'), fingerprinted);
  // A folder given as a file: URL (new URL('./public/', import.meta.url)) is the same folder.
  assert.equal(assets('/assets', pathToFileURL(folder)).files, table.files);
  assert.throws(
    () => table.url('nope.css'),
    /assets\.url\("nope\.css"\): no such file .*; the files are alias\.svg/,
  );
  assert.equal(table.files.find((file) => file.name === 'css/site.css')!.encodings, ['br', 'gzip']);
  const listing = formatRoutes(table);
  assert.match(listing, /GET\s+\/assets\/css\/site\.css\s/);
  assert.match(listing, new RegExp(`GET\\s+${fingerprinted.replace(/\./g, '\\.')}`));
});

test('assets :: a file streamed with its type, validators and the cache policy of its name', async () => {
  const own = await everywhere({ path: '/assets/css/site.css' });
  assert.is(own.status, 200);
  assert.is(own.body, CSS);
  assert.is(own.headers['content-type'], 'text/css; charset=utf-8');
  assert.is(own.headers['cache-control'], 'no-cache');
  assert.is(own.headers['accept-ranges'], 'bytes');
  assert.is(own.headers['content-length'], String(CSS.length));
  assert.is(own.headers['x-content-type-options'], 'nosniff');
  assert.match(own.headers.etag!, /^"[^"]+"$/);
  assert.ok(own.headers['last-modified']);
  const pinned = await everywhere({ path: fingerprinted });
  assert.is(pinned.headers['cache-control'], 'public, max-age=31536000, immutable');
  assert.is((await everywhere({ path: '/assets/logo.svg' })).headers['content-type'], 'image/svg+xml');
  const empty = await everywhere({ path: '/assets/empty.txt' });
  assert.equal([empty.status, empty.body], [200, '']);
});

test('assets :: If-None-Match and If-Modified-Since answer 304 with no body; HEAD the headers alone', async () => {
  const first = await everywhere({ path: fingerprinted });
  const tagged = await everywhere({
    path: fingerprinted,
    headers: { 'If-None-Match': `"x", ${first.headers.etag}` },
  });
  assert.equal([tagged.status, tagged.body], [304, '']);
  assert.is(tagged.headers.etag, first.headers.etag);
  const dated = await everywhere({
    path: fingerprinted,
    headers: { 'If-Modified-Since': first.headers['last-modified']! },
  });
  assert.is(dated.status, 304);
  const stale = await everywhere({ path: fingerprinted, headers: { 'If-None-Match': '"other"' } });
  assert.is(stale.status, 200);
  const head = await everywhere({ method: 'HEAD', path: fingerprinted });
  assert.equal([head.status, head.body, head.headers['content-length']], [200, '', String(CSS.length)]);
});

test('assets :: one Range is a 206 of those bytes; past the end a 416; several, or a stale If-Range, the whole file', async () => {
  const part = await everywhere({ path: '/assets/css/site.css', headers: { Range: 'bytes=5-9' } });
  assert.equal(
    [part.status, part.body, part.headers['content-range']],
    [206, CSS.slice(5, 10), `bytes 5-9/${CSS.length}`],
  );
  const tail = await everywhere({ path: '/assets/css/site.css', headers: { Range: 'bytes=-4' } });
  assert.equal([tail.status, tail.body], [206, CSS.slice(-4)]);
  const open = await everywhere({
    path: '/assets/css/site.css',
    headers: { Range: `bytes=${CSS.length - 3}-` },
  });
  assert.is(open.body, CSS.slice(-3));
  const past = await everywhere({ path: '/assets/css/site.css', headers: { Range: `bytes=${CSS.length}-` } });
  assert.equal([past.status, past.headers['content-range']], [416, `bytes */${CSS.length}`]);
  const several = await everywhere({ path: '/assets/css/site.css', headers: { Range: 'bytes=0-1,5-6' } });
  assert.equal([several.status, several.body], [200, CSS]);
  const ifRange = await everywhere({
    path: '/assets/css/site.css',
    headers: { Range: 'bytes=0-1', 'If-Range': '"old"' },
  });
  assert.is(ifRange.status, 200);
  const tag = (await everywhere({ path: '/assets/css/site.css' })).headers.etag!;
  const held = await everywhere({
    path: '/assets/css/site.css',
    headers: { Range: 'bytes=0-1', 'If-Range': tag },
  });
  assert.is(held.status, 206);
  // A date is no strong validator: the whole file.
  const dated = await everywhere({
    path: '/assets/css/site.css',
    headers: { Range: 'bytes=0-1', 'If-Range': new Date().toUTCString() },
  });
  assert.is(dated.status, 200);
});

test('assets :: a precompressed sibling when Accept-Encoding takes it, brotli first; Vary: Accept-Encoding', async () => {
  const br = await everywhere({ path: fingerprinted, headers: { 'Accept-Encoding': 'gzip, deflate, br' } });
  assert.equal([br.status, br.headers['content-encoding'], br.headers.vary], [200, 'br', 'Accept-Encoding']);
  const gzip = await everywhere({ path: fingerprinted, headers: { 'Accept-Encoding': 'gzip' } });
  assert.is(gzip.headers['content-encoding'], 'gzip');
  assert.is.not(gzip.headers.etag, br.headers.etag, 'each encoding its own validator');
  const plain = await everywhere({ path: fingerprinted, headers: { 'Accept-Encoding': 'identity' } });
  assert.equal(
    [plain.headers['content-encoding'], plain.body, plain.headers.vary],
    [undefined, CSS, 'Accept-Encoding'],
  );
});

test('assets :: nothing outside the folder: dot segments, encoded slashes, hidden files, symlinks that leave it', async () => {
  for (const path of [
    '/assets/../outside.txt',
    '/assets/%2e%2e/outside.txt',
    '/assets/css%2fsite.css',
    '/assets/css/..%2f..%2foutside.txt',
    '/assets/.env',
    '/assets/leak.txt',
    '/assets/with%20space.txt',
    '/assets/css/site.css.gz',
  ]) {
    const answer = await everywhere({ path });
    assert.ok([400, 404].includes(answer.status), `${path}: ${answer.status}`);
    assert.not.match(answer.body, /not for the web|SECRET/);
  }
  // A symlink that stays inside the folder is a file like any other.
  assert.is((await everywhere({ path: '/assets/alias.svg' })).status, 200);
  // A sibling that leads out is never sent, whatever Accept-Encoding says.
  const plain = await everywhere({ path: '/assets/plain.txt', headers: { 'Accept-Encoding': 'br' } });
  assert.equal([plain.status, plain.body, plain.headers['content-encoding']], [200, 'plain', undefined]);
});

test('assets :: judged again per request: a file swapped for a symlink out is a 404; a changed file keeps no fingerprint', async () => {
  const swapped = table.url('swap.txt');
  assert.is((await everywhere({ path: swapped })).status, 200);
  rmSync(join(folder, 'swap.txt'));
  symlinkSync(join(work, 'outside.txt'), join(folder, 'swap.txt'));
  for (const path of ['/assets/swap.txt', swapped]) {
    const answer = await everywhere({ path });
    assert.is(answer.status, 404, path);
    assert.not.match(answer.body, /not for the web/);
  }
  const pinned = table.url('changes.txt');
  writeFileSync(join(folder, 'changes.txt'), 'version 2, longer');
  assert.is((await everywhere({ path: pinned })).status, 404, 'the fingerprinted name of the old bytes');
  assert.is((await everywhere({ path: '/assets/changes.txt' })).body, 'version 2, longer');
});

test('assets() :: OpenAPI documents each file by its type, with its 206, 304 and 416', () => {
  const doc = openapi(table) as { paths: Record<string, { get: { responses: Record<string, any> } }> };
  const responses = doc.paths['/assets/css/site.css']!.get.responses;
  assert.ok(responses['200'].content['text/css']);
  assert.not.ok(responses['200'].content['application/json']);
  for (const status of ['200', '206', '304', '416']) assert.ok(responses[status], status);
});

test('assets() :: a bad prefix or a missing folder is a definition error naming the fix', () => {
  assert.throws(
    () => assets('assets', folder),
    (error: unknown) =>
      error instanceof RouteDefinitionError && /a path such as '\/assets'/.test(String(error)),
  );
  assert.throws(() => assets('/assets/', folder), /no trailing slash/);
  assert.throws(() => assets('/assets', join(work, 'missing')), /no folder at/);
  assert.throws(() => assets('/assets', join(work, 'outside.txt')), /is not a folder/);
});

test.after(async () => {
  await Promise.all(servers.map(({ running }) => running.close()));
  rmSync(work, { recursive: true, force: true });
});

test.run();
