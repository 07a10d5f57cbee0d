// docs/live.md's WebSocket recipe: a `ws` server shares sevenfold's node:http server and port, and close() ends both.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WebSocket, WebSocketServer } from 'ws';
import { resource } from '../../core/index.js';
import { serve } from '../../adapters/node.js';

test('ws beside sevenfold :: upgrades on the same port, routes still answer, close() ends the sockets', async () => {
  const posts = resource('posts', { index: () => [{ id: '1' }] });
  const running = await serve(posts);
  const sockets = new WebSocketServer({ server: running.server, path: '/chat' });
  sockets.on('connection', (socket) => socket.on('message', (data) => socket.send(`echo: ${String(data)}`)));
  try {
    const client = new WebSocket(`${running.url.replace('http', 'ws')}/chat`);
    await new Promise((resolve, reject) => (client.once('open', resolve), client.once('error', reject)));
    const reply = new Promise<string>((resolve) => client.once('message', (data) => resolve(String(data))));
    client.send('hello');
    assert.is(await reply, 'echo: hello');
    const index = await fetch(`${running.url}/posts`);
    assert.equal(await index.json(), [{ id: '1' }]);
    const closed = new Promise<number>((resolve) => client.once('close', resolve));
    sockets.close();
    const { cut } = await running.close();
    await closed;
    // An upgraded socket holds no request: the drain closes it as idle, cutting nothing.
    assert.is(cut, 0);
  } finally {
    sockets.close();
    await running.close();
  }
});

test.run();
