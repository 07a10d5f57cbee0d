// A server for test/http/signals.test.ts: a slow route and a held one, stopped on signals by closeOnSignals()
// as an app's start-up would be.
import { setTimeout as sleep } from 'node:timers/promises';
import { closeOnSignals, serve } from '../../adapters/node.js';
import { resource, routes } from '../../core/index.js';

// GET /waits/<ms> answers after that many milliseconds: a request still in flight when the signal comes.
const waits = resource('waits', {
  show: async (req) => {
    await sleep(Number(req.params.wait_id));
    return { waited: Number(req.params.wait_id) };
  },
});

// GET /holds/<id> is held until SIGUSR2 opens every gate, so a test decides when it ends instead of a clock;
// each held request prints `held <id>` on stdout, the event the test waits for.
let open: () => void = () => {};
const gate = new Promise<void>((resolve) => (open = resolve));
process.on('SIGUSR2', () => open());
const holds = resource('holds', {
  show: async (req) => {
    console.log(`held ${req.params.hold_id}`);
    await gate;
    return { held: req.params.hold_id };
  },
});

const shutdownTimeout = process.env.SHUTDOWN_MS === undefined ? undefined : Number(process.env.SHUTDOWN_MS);
const running = await serve(routes(waits, holds), { port: 0, ...(shutdownTimeout && { shutdownTimeout }) });
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
