import { connect, type Socket } from 'node:net';
import { once } from 'node:events';
import * as assert from 'uvu/assert';
import { exchange, expectProblem, get, parseResponse, raw, send, wholeAnswer } from '../support/http.js';
import { hostileSuite, JSON_T, LIMITS, onEachAtOnce, stillServes } from '../support/hostile.js';

// Hostile connections, on every adapter (all at once, so each wait for a timeout is paid once): cases that
// need a conversation, not one write (pipelining, keep-alive, uploads aborted or stalled, slowloris, a flood).
const hostile = hostileSuite('hostile: connections');

function open(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  return once(socket, 'connect').then(() => socket);
}

function collect(socket: Socket): { text: () => string; closed: Promise<unknown> } {
  let text = '';
  socket.on('data', (chunk) => (text += chunk.toString('latin1')));
  socket.on('error', () => {});
  return { text: () => text, closed: once(socket, 'close') };
}

hostile('pipelined requests :: answered in order on every adapter', async ({ servers }) => {
  await onEachAtOnce(servers, async (running) => {
    const socket = await open(running.url);
    const out = collect(socket);
    socket.write(
      'GET /faults/one HTTP/1.1\r\nHost: x\r\n\r\n' +
        'GET /faults/late HTTP/1.1\r\nHost: x\r\n\r\n' +
        'GET /faults/three HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    await out.closed;
    const order = [...out.text().matchAll(/"ok":"(\w+)"|"status":(503)/g)].map((m) => m[1] ?? m[2]);
    assert.equal(order, ['one', '503', 'three']);
  });
});

hostile('pipelined writes :: take effect in order, each seeing the one before', async ({ servers }) => {
  await onEachAtOnce(servers, async (running) => {
    const socket = await open(running.url);
    const out = collect(socket);
    const body = (title: string) => `{"id":"pipe","title":"${title}"}`;
    socket.write(
      `POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body('one').length}\r\n\r\n${body('one')}` +
        'GET /posts/pipe HTTP/1.1\r\nHost: x\r\n\r\n' +
        `PUT /posts/pipe HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body('two').length}\r\n\r\n${body('two')}` +
        'GET /posts/pipe HTTP/1.1\r\nHost: x\r\n\r\n' +
        'DELETE /posts/pipe HTTP/1.1\r\nHost: x\r\n\r\n' +
        'GET /posts/pipe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    await out.closed;
    const statuses = [...out.text().matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
    assert.equal(statuses, [201, 200, 200, 200, 204, 404]);
    assert.equal(
      [...out.text().matchAll(/"title":"(\w+)"/g)].map((m) => m[1]),
      ['one', 'one', 'two', 'two'],
    );
  });
});

hostile('keep-alive :: the connection serves again after a 400 from routing', async ({ servers }) => {
  await onEachAtOnce(servers, async (running) => {
    const socket = await open(running.url);
    const out = collect(socket);
    socket.write('GET /posts/%E0%A4%A HTTP/1.1\r\nHost: x\r\n\r\n');
    // The second request follows the 400's last byte, so it is not pipelined behind it.
    while (!wholeAnswer(out.text(), false) && !socket.destroyed)
      await Promise.race([once(socket, 'data'), out.closed]);
    socket.write('GET /faults/again HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    await out.closed;
    assert.match(out.text(), /^HTTP\/1\.1 400[\s\S]*HTTP\/1\.1 200[\s\S]*"ok":"again"/);
  });
});

hostile('aborted upload :: the server shrugs it off', async ({ servers }) => {
  await onEachAtOnce(servers, async (running) => {
    const socket = await open(running.url);
    socket.write(
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"title":',
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await stillServes(running.url);
  });
});

hostile('stalled body :: cut by requestTimeout with a 408, others served meanwhile', async ({ servers }) => {
  await onEachAtOnce(servers, async (running) => {
    const socket = await open(running.url);
    const out = collect(socket);
    const started = Date.now();
    socket.write(
      'POST /posts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"title"',
    );
    await stillServes(running.url);
    await out.closed;
    const waited = Date.now() - started;
    assert.ok(waited < LIMITS.requestTimeout + 1500, `cut after ${waited} ms`);
    expectProblem(408)(parseResponse(out.text()));
  });
});

hostile(
  'slowloris :: 40 trickling clients are cut by headersTimeout while good requests go through',
  async ({ servers }) => {
    await onEachAtOnce(servers, async (running) => {
      const slow = await Promise.all(Array.from({ length: 40 }, () => open(running.url)));
      const outs = slow.map((socket) => collect(socket));
      for (const socket of slow) socket.write('GET /posts HTTP/1.1\r\nHost: x\r\n');
      const trickle = setInterval(() => {
        for (const socket of slow) if (socket.writable) socket.write('X-a: b\r\n');
      }, 100);
      try {
        const started = Date.now();
        for (let i = 0; i < 10; i++) await stillServes(running.url);
        assert.ok(Date.now() - started < 1000, 'good requests were slowed down');
        await Promise.all(outs.map((out) => out.closed));
        for (const out of outs) expectProblem(408)(parseResponse(out.text()));
      } finally {
        clearInterval(trickle);
        for (const socket of slow) socket.destroy();
      }
    });
  },
);

hostile(
  'flood :: 300 bad requests at once do not stop good ones, and none gets a 5xx',
  async ({ servers }) => {
    const bad = [
      get('/posts/%E0'),
      send('POST', '/posts', 'text/plain', 'x'),
      'NOT HTTP\r\n\r\n',
      get('/nowhere'),
      send('POST', '/posts', JSON_T, '{'),
    ];
    for (const { running } of servers) {
      const flood = Array.from({ length: 300 }, (_, i) =>
        exchange(running.url, bad[i % bad.length]!).then(parseResponse),
      );
      const good = Array.from({ length: 20 }, () => raw(running.url, { path: '/posts?limit=1' }));
      for (const r of await Promise.all(good)) assert.is(r.status, 200);
      for (const r of await Promise.all(flood))
        assert.ok(r.status >= 400 && r.status < 500, `got ${r.status}`);
    }
  },
);

hostile.run();
