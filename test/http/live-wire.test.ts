import { request } from 'node:http';
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { guard, HttpError, isFormSubmission, resource } from '../../core/index.js';
import { changed, live, type Live } from '../../core/features/live/index.js';
import type { Running } from '../../adapters/node.js';
import { eventually, EventReader, within, type ServerSentEvent } from '../support/event-stream-client.js';
import { ADAPTERS } from '../support/servers.js';

// sevenfold/live over sockets, on every adapter: the stream's head and first bytes, events for JSON and form
// changes as they are written, a resume, a guard's refusal, disconnect(tag), the stream limit, and a server's
// close ending its streams.

const READ_LIMIT = 5_000;

/**
 * One request on a connection of its own that closes after it (fetch's pooled keep-alive connections would hold
 * a closing server until they idle out), answered as a Web Response whose body streams.
 */
function fetch(url: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return within(
    new Promise<Response>((resolve, reject) => {
      const sent = request(
        url,
        { method: init.method ?? 'GET', headers: { ...init.headers, Connection: 'close' }, agent: false },
        (res) => {
          const headers = new Headers();
          for (const [name, value] of Object.entries(res.headers))
            for (const one of [value ?? []].flat()) headers.append(name, one);
          const body = Readable.toWeb(res) as ReadableStream<Uint8Array>;
          resolve(new Response(body, { status: res.statusCode!, headers }));
        },
      );
      sent.on('error', reject);
      sent.end(init.body);
    }),
    READ_LIMIT,
    `${init.method ?? 'GET'} ${url}`,
  );
}

const shown = (event: ServerSentEvent) => [event.event, JSON.parse(event.data) as unknown];

const Post = {
  type: 'object',
  properties: { id: { type: 'string' }, title: { type: 'string' } },
  required: ['id', 'title'],
  additionalProperties: false,
} as const;

const signedIn = guard('signedIn', (req) => {
  if (req.headers['x-user'] === undefined) throw new HttpError(401, 'sign in first');
  if (req.headers['x-user'] !== 'ada') throw new HttpError(403, 'not yours');
});

function blog(changes: Live) {
  const store = new Map<string, { id: string; title: string; secret: string }>();
  let count = 0;
  return resource(
    'posts',
    {
      index: () => [...store.values()],
      show: (req) => {
        const post = store.get(req.params.post_id);
        if (post === undefined) throw new HttpError(404, 'no such post');
        return post;
      },
      create: (req, res) => {
        const post = {
          id: String(++count),
          title: String((req.body as { title: unknown }).title),
          secret: 's3cret',
        };
        store.set(post.id, post);
        if (!isFormSubmission(req)) return res.created(`/posts/${post.id}`, post);
        changed(req, post);
        return res.redirect(`/posts/${post.id}`, 303);
      },
      destroy: (req, res) => {
        store.delete(req.params.post_id);
        return isFormSubmission(req) ? res.redirect('/posts', 303) : undefined;
      },
    },
    {
      watch: changes,
      before: { index: [signedIn] },
      schemas: { show: { response: Post } },
    },
  );
}

const SIGNED_IN = { Accept: 'text/event-stream', 'X-User': 'ada' };

/** Every adapter, each serving its own hub, one after the other. */
async function onEachAdapter(
  check: (running: Running, changes: Live, name: string) => Promise<void>,
  options: { maxEventStreams?: number } = {},
): Promise<void> {
  for (const adapter of ADAPTERS) {
    const changes = live({ tag: (req) => req.headers['x-user'] as string | undefined });
    const running = await adapter.start(blog(changes), { onError: () => {}, ...options });
    try {
      await check(running, changes, adapter.name);
    } catch (error) {
      (error as Error).message = `[${adapter.name}] ${(error as Error).message}`;
      throw error;
    } finally {
      await changes.close();
      await running.close();
    }
  }
}

async function watch(url: string, headers: Record<string, string> = SIGNED_IN): Promise<EventReader> {
  // A socket the server closed leaves a broken body, which the client then cancels without a fuss.
  return new EventReader(await fetch(url, { headers }), { status: 200, ms: READ_LIMIT, closeBroken: true });
}

test('the wire :: an event stream head with no length, its first bytes at once, nothing buffered by proxies', () =>
  onEachAdapter(async (running) => {
    const head = await within(
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(new URL(running.url).port), '127.0.0.1');
        let text = '';
        socket.on('data', (chunk) => {
          text += chunk.toString('latin1');
          // The head and the first comment: what a client sees before any change.
          if (text.includes('\r\n\r\n') && /\r\n\r\n[\s\S]*:\n\n/.test(text)) {
            socket.destroy();
            resolve(text);
          }
        });
        socket.on('error', reject);
        socket.write(
          'GET /posts HTTP/1.1\r\nHost: test.local\r\nAccept: text/event-stream\r\nX-User: ada\r\n\r\n',
        );
      }),
      READ_LIMIT,
      'the head and first bytes',
    );
    assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(head, /\r\ncontent-type: text\/event-stream\r\n/i);
    assert.match(head, /\r\ncache-control: no-store, no-transform\r\n/i);
    assert.match(head, /\r\nx-accel-buffering: no\r\n/i);
    assert.not.match(head, /\r\ncontent-length:/i);
  }));

test('events :: JSON and form changes, written by the show schema, then a resume from Last-Event-ID', () =>
  onEachAdapter(async (running, changes) => {
    const index = await watch(`${running.url}/posts`);
    const made = await fetch(`${running.url}/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"title":"json"}',
    });
    assert.is(made.status, 201);
    await made.text();
    const form = await fetch(`${running.url}/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: 'title=form',
    });
    assert.is(form.status, 303);
    await form.text();
    const gone = await fetch(`${running.url}/posts/1`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
      body: '_method=DELETE',
    });
    assert.is(gone.status, 303);
    await gone.text();
    const events = await index.take(3);
    assert.equal(events.map(shown), [
      ['created', { id: '1', title: 'json' }],
      ['created', { id: '2', title: 'form' }],
      ['destroyed', { id: '1' }],
    ]);
    await index.close();
    const resumed = await watch(`${running.url}/posts`, { ...SIGNED_IN, 'Last-Event-ID': events[0]!.id! });
    await changes.publish('posts', 'updated', { id: '2', title: 'by a job', secret: 'no' });
    const again = await resumed.take(3);
    assert.equal(
      again.map((event) => event.id),
      [events[1]!.id, events[2]!.id, again[2]!.id],
    );
    assert.equal(shown(again[2]!), ['updated', { id: '2', title: 'by a job' }]);
    await resumed.close();
  }));

test('guards :: 401 and 403 before any stream; the normal answer for */*', () =>
  onEachAdapter(async (running, changes) => {
    for (const [headers, status] of [
      [{ Accept: 'text/event-stream' }, 401],
      [{ Accept: 'text/event-stream', 'X-User': 'eve' }, 403],
    ] as const) {
      const refused = await fetch(`${running.url}/posts`, { headers });
      assert.is(refused.status, status);
      assert.is(refused.headers.get('content-type'), 'application/problem+json');
      await refused.text();
    }
    assert.is(changes.open, 0);
    const plain = await fetch(`${running.url}/posts`, { headers: { Accept: '*/*', 'X-User': 'ada' } });
    assert.is(plain.status, 200);
    assert.is(plain.headers.get('vary'), 'Accept');
    assert.equal(await plain.json(), []);
  }));

test('disconnect(tag) :: ends the tagged streams on the wire; a client that leaves is let go of', () =>
  onEachAdapter(async (running, changes) => {
    await fetch(`${running.url}/posts`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"title":"a"}',
    }).then((response) => response.text());
    const ada = await watch(`${running.url}/posts`);
    const anonymous = await watch(`${running.url}/posts/1`, { Accept: 'text/event-stream' });
    await eventually(() => changes.open === 2, 'both streams open');
    await changes.disconnect('ada');
    await ada.ended();
    await changes.publish('posts', 'updated', { id: '1', title: 'still watched' });
    assert.equal(shown(await anonymous.next()), ['updated', { id: '1', title: 'still watched' }]);
    await anonymous.close();
    await eventually(() => changes.open === 0, 'the stream of the client that left is let go of');
  }));

test('maxEventStreams :: one stream past the limit is 503 with Retry-After, not a stream', () =>
  onEachAdapter(
    async (running) => {
      const first = await watch(`${running.url}/posts`);
      const refused = await fetch(`${running.url}/posts`, { headers: SIGNED_IN });
      assert.is(refused.status, 503);
      assert.is(refused.headers.get('retry-after'), '5');
      await refused.text();
      await first.close();
    },
    { maxEventStreams: 1 },
  ));

test("a server's close() :: ends its streams, so that it stops at once and their clients reconnect elsewhere", async () => {
  for (const adapter of ADAPTERS) {
    const changes = live();
    const running = await adapter.start(blog(changes), { onError: () => {} });
    const watcher = await watch(`${running.url}/posts`);
    const closed = running.close();
    await watcher.ended();
    const { cut } = (await within(closed, READ_LIMIT, 'the server closing')) as { cut?: number };
    assert.is(cut ?? 0, 0, `[${adapter.name}] nothing had to be cut`);
    await eventually(() => changes.open === 0, `[${adapter.name}] the hub let go of the stream`);
  }
});

test.run();
