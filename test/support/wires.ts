// Generic helpers for contracts: a run of requests against one server that returns every response's
// bytes, and the comparison of those bytes across the adapters. The posts contracts build on them.
import * as assert from 'uvu/assert';
import type { Running } from '../../adapters/node.js';
import type { FetchHandler } from '../../adapters/fetch.js';
import { raw, type RawRequest, type RawResponse } from './http.js';
import { inProcess } from './in-process.js';
import { ADAPTERS, type AdapterUnderTest } from './servers.js';

export interface ContractOptions {
  /**
   * The server is deterministic (as `deterministicPosts()` is: a clock 1 ms apart per call, ids
   * `gen-1`, …), so times and generated ids are checked exactly; otherwise (a spawned example,
   * real clock and UUIDs) they are checked by shape and by the order the spec derives from them.
   */
  readonly deterministic: boolean;
  /** Sees every request and its response, e.g. to check them against docs/openapi.json. */
  readonly onExchange?: (request: RawRequest, response: RawResponse) => void;
  /** Read the first whole answer, not until the close: workerd keeps a connection open after `Connection: close`. */
  readonly firstAnswer?: boolean;
}

/** Where a contract sends its requests: a server's URL, or a Web-standard handler answering in process. */
export type Target = string | FetchHandler;

/** A contract: run against a server whose store starts empty, it returns every response's bytes. */
export type Contract = (target: Target, options: ContractOptions) => Promise<string[]>;

/**
 * A contract's requests to `url`: `expect(request, status)` sends one, asserts its status, hands
 * both to `onExchange` and keeps the bytes in `wires`.
 */
export function exchanges(
  target: Target,
  { onExchange, firstAnswer = false }: ContractOptions,
): { wires: string[]; expect(request: RawRequest, status: number): Promise<RawResponse> } {
  const wires: string[] = [];
  const expect = async (request: RawRequest, status: number): Promise<RawResponse> => {
    const response =
      typeof target === 'string' ? await raw(target, request, firstAnswer) : await inProcess(target, request);
    onExchange?.(request, response);
    const label = `${request.method ?? 'GET'} ${request.path} ${request.body ?? ''}`;
    assert.is(response.status, status, label.slice(0, 200));
    wires.push(response.wire);
    return response;
  };
  return { wires, expect };
}

/**
 * Runs `run` against a server `start` gives on every adapter, and asserts that they all answered the same
 * bytes.
 */
export async function sameWires(
  start: (adapter: AdapterUnderTest) => Promise<Running>,
  run: (url: string) => Promise<string[]>,
): Promise<void> {
  const runs: Array<[string, string[]]> = [];
  for (const adapter of ADAPTERS) {
    const running = await start(adapter);
    try {
      runs.push([adapter.name, await run(running.url)]);
    } catch (error) {
      (error as Error).message = `[${adapter.name}] ${(error as Error).message}`;
      throw error;
    } finally {
      await running.close();
    }
  }
  const [[firstName, first], ...rest] = runs as [[string, string[]], ...Array<[string, string[]]>];
  for (const [name, wires] of rest) {
    assert.is(wires.length, first.length, `${name} answered a different number of responses`);
    wires.forEach((wire, i) =>
      assert.is(wire, first[i], `${name} differs from ${firstName} at response ${i}`),
    );
  }
}
