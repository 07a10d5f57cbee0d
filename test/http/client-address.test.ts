// req.ip on every adapter: the connection's peer, and X-Forwarded-For only as far as trustProxy says.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resource } from '../../core/index.js';
import { toFetch } from '../../adapters/fetch.js';
import { forwardedAddress } from '../../adapters/pipeline/exchange.js';
import { json, raw } from '../support/http.js';
import { startAll } from '../support/servers.js';

const whoami = resource('clients', { index: (req) => ({ ip: req.ip ?? null }) });

test('req.ip :: the peer on every adapter; X-Forwarded-For is ignored without trustProxy', async () => {
  const servers = await startAll(whoami);
  try {
    for (const { name, running } of servers) {
      const plain = await raw(running.url, { path: '/clients' });
      assert.equal(json(plain), { ip: '127.0.0.1' }, name);
      const spoofed = await raw(running.url, {
        path: '/clients',
        headers: { 'X-Forwarded-For': '203.0.113.7' },
      });
      assert.equal(json(spoofed), { ip: '127.0.0.1' }, name);
    }
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
});

test('req.ip :: with trustProxy, the address the nearest untrusted hop was seen from', async () => {
  const servers = await startAll(whoami, { trustProxy: 1 });
  try {
    for (const { name, running } of servers) {
      const one = await raw(running.url, { path: '/clients', headers: { 'X-Forwarded-For': '203.0.113.7' } });
      assert.equal(json(one), { ip: '203.0.113.7' }, name);
      // A client can write anything in front of what the proxy appends: only the proxy's entry counts.
      const forged = await raw(running.url, {
        path: '/clients',
        headers: { 'X-Forwarded-For': '10.0.0.1, 198.51.100.2' },
      });
      assert.equal(json(forged), { ip: '198.51.100.2' }, name);
      const none = await raw(running.url, { path: '/clients' });
      assert.equal(json(none), { ip: '127.0.0.1' }, name);
    }
  } finally {
    await Promise.all(servers.map(({ running }) => running.close()));
  }
  assert.throws(() => toFetch(whoami, { trustProxy: -1 }), /trustProxy must be a whole number of at least 0/);
});

test('req.ip :: toFetch reads Bun and Deno from what they pass beside the request, or clientAddress', async () => {
  const handler = toFetch(whoami);
  const ipOf = async (response: Response | Promise<Response>) =>
    ((await (await response).json()) as { ip: unknown }).ip;
  const request = () => new Request('http://x/clients');
  assert.is(await ipOf(handler(request())), null);
  const bun = { requestIP: (r: Request) => (r instanceof Request ? { address: '192.0.2.1' } : null) };
  assert.is(await ipOf(handler(request(), bun)), '192.0.2.1');
  const deno = { remoteAddr: { hostname: '192.0.2.2', port: 5000, transport: 'tcp' } };
  assert.is(await ipOf(handler(request(), deno)), '192.0.2.2');
  const workers = toFetch(whoami, { clientAddress: (r) => r.headers.get('cf-connecting-ip') ?? undefined });
  const cf = new Request('http://x/clients', { headers: { 'cf-connecting-ip': '192.0.2.3' } });
  assert.is(await ipOf(workers(cf)), '192.0.2.3');
});

test('forwardedAddress() :: counts trusted hops from the right, the peer last', () => {
  assert.is(forwardedAddress(undefined, '10.0.0.9', 1), '10.0.0.9');
  assert.is(forwardedAddress('a, b', '10.0.0.9', 1), 'b');
  assert.is(forwardedAddress('a, b', '10.0.0.9', 2), 'a');
  assert.is(forwardedAddress('a, b', '10.0.0.9', 5), 'a');
  assert.is(forwardedAddress(['a', 'b, c'], undefined, 1), 'b');
  assert.is(forwardedAddress(' , ', '10.0.0.9', 1), '10.0.0.9');
});

test.run();
