// An app as any would serve sevenfold under OpenTelemetry (test/support/otel-setup.ts loaded first): the posts
// resource behind a prefix, on the adapter `ADAPTER` names, and a `listening on` line.
import type { RequestListener } from 'node:http';
import polka from 'polka';
import { listen, serve } from '../../adapters/node.js';
import { mount } from '../../adapters/polka.js';
import { hook, prefix, resource, scope } from '../../core/index.js';

const posts = resource('posts', {
  index: () => [],
  show: async (req) => ({ id: req.params.post_id }),
  create: (req) => req.body,
});
// A hook that waits before matching: the span is still found after a promise.
const later = hook('later', { onRequest: () => Promise.resolve(undefined) });
const table = scope({ hooks: [later] }, prefix('/api', posts));
const running =
  process.env.ADAPTER === 'polka'
    ? await listen(mount(polka(), table).handler as RequestListener)
    : await serve(table);
console.log(`listening on ${running.url}`);
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
