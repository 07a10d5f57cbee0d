import type { RequestListener } from 'node:http';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import polka from 'polka';
import polkaNext from 'polka-next';
import { listen, serve, type Running, type ServeOptions } from '../../adapters/node.js';
import { mount } from '../../adapters/polka.js';
import type { Routable } from '../../core/index.js';
import { raw, type RawResponse } from './http.js';

/** How to serve a table on one adapter, for suites that run every case on each. */
export interface AdapterUnderTest {
  readonly name: string;
  start(source: Routable, options?: ServeOptions): Promise<Running>;
}

// The suites run with checkResponses: an answer that docs/openapi.json would not describe is a 500, which
// fails them.
const quiet: ServeOptions = { onError: () => {}, checkResponses: true };

export const ADAPTERS: readonly AdapterUnderTest[] = [
  { name: 'node', start: (source, options) => serve(source, { ...quiet, ...options }) },
  {
    name: 'polka@0.5',
    start: (source, options) =>
      listen(mount(polka(), source, { ...quiet, ...options }).handler as RequestListener, options),
  },
  {
    name: 'polka@1.0-next',
    start: (source, options) => {
      const app = mount(polkaNext(), source, { ...quiet, ...options });
      return listen(app.handler as RequestListener, options);
    },
  },
];

/** Starts one server per adapter for the same table. */
export async function startAll(
  source: Routable,
  options?: ServeOptions,
): Promise<Array<{ name: string; running: Running }>> {
  return Promise.all(
    ADAPTERS.map(async (adapter) => ({ name: adapter.name, running: await adapter.start(source, options) })),
  );
}

/** Sends one request to every adapter and returns the answers, which must be the same bytes. */
export async function onEvery(
  servers: Array<{ name: string; running: { url: string } }>,
  request: Parameters<typeof raw>[1],
): Promise<RawResponse> {
  const answers = await Promise.all(servers.map(({ running }) => raw(running.url, request)));
  for (let i = 1; i < answers.length; i++) {
    assert.is(answers[i]!.wire, answers[0]!.wire, `${servers[i]!.name} answers like ${servers[0]!.name}`);
  }
  return answers[0]!;
}

/** A suite whose tests get `servers`: `source` on every adapter, started before them and closed after. */
export function withServers(
  name: string,
  source: Parameters<typeof startAll>[0],
  options?: Parameters<typeof startAll>[1],
) {
  const s = suite<{ servers: Awaited<ReturnType<typeof startAll>> }>(name, { servers: [] });
  s.before(async (context) => {
    context.servers = await startAll(source, options);
  });
  s.after(async (context) => {
    await Promise.all(context.servers.map(({ running }) => running.close()));
  });
  return s;
}
