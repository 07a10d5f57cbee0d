// A server for test/http/signals.test.ts: a slow route, stopped on signals by closeOnSignals() as an app's
// start-up would be.
import { setTimeout as sleep } from 'node:timers/promises';
import { closeOnSignals, serve } from '../../adapters/node.js';
import { resource } from '../../core/index.js';

// GET /waits/<ms> answers after that many milliseconds: a request still in flight when the signal comes.
const waits = resource('waits', {
  show: async (req) => {
    await sleep(Number(req.params.wait_id));
    return { waited: Number(req.params.wait_id) };
  },
});

const running = await serve(waits, { port: 0 });
if (process.env.CLOSE_MODE === 'rejects') {
  closeOnSignals({
    close: async () => {
      await running.close();
      throw new Error('the store would not close');
    },
  });
} else {
  running.closeOnSignals();
}
console.log(`listening on ${running.url}`);
