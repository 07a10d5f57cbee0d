// req.signal through toFetch(): aborted when the runtime aborts the request, never after a normal answer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resource, type HandlerRequest } from '../../core/index.js';
import { toFetch } from '../../adapters/fetch.js';

let seen: AbortSignal | undefined;
const jobs = resource('jobs', {
  show(req: HandlerRequest<{ job_id: string }>) {
    seen = req.signal;
    if (req.params.job_id === 'quick') return { done: true };
    // Answers only when its signal says the answer is no longer wanted.
    return new Promise((resolve) => req.signal.addEventListener('abort', () => resolve({ aborted: true })));
  },
});

test('toFetch :: req.signal is aborted when the request is, and the abort reaches the handler', async () => {
  const client = new AbortController();
  const pending = toFetch(jobs, { onError: () => {} })(
    new Request('http://x/jobs/slow', { signal: client.signal }),
  );
  await new Promise((resolve) => setTimeout(resolve, 10));
  assert.is(seen?.aborted, false);
  client.abort();
  assert.is(seen?.aborted, true);
  assert.match(String(seen?.reason), /the client went away/);
  assert.is((await pending).status, 200);
});

test('toFetch :: an abort after the answer is not a client going away', async () => {
  const client = new AbortController();
  const response = await toFetch(jobs)(new Request('http://x/jobs/quick', { signal: client.signal }));
  assert.is(response.status, 200);
  client.abort();
  assert.is(seen?.aborted, false);
});

test.run();
