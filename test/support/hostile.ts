// What the hostile tests share: the app they attack (the posts example and a resource of faults),
// short limits so stalls resolve within a test, checks for answers, and the suite that serves the
// app on every adapter, sends each case to all of them at once from raw sockets and checks each still serves.
import * as assert from 'uvu/assert';
import { suite, type Test } from 'uvu';
import type { Running } from '../../adapters/node.js';
import { HttpError, resource, routes } from '../../core/index.js';
import { exchange, parseResponse, raw, type RawResponse } from './http.js';
import { deterministicPosts } from './posts.js';
import { ADAPTERS } from './servers.js';

// Hostile input from raw sockets, against every adapter; after each case the server must
// still answer a good request. Timeouts are short here so stalls resolve within the test.
export const LIMITS = {
  requestTimeout: 1500,
  headersTimeout: 1000,
  handlerTimeout: 300,
  keepAliveTimeout: 1000,
} as const;

let late = 0;
export const faults = resource('faults', {
  show(req) {
    switch (req.params.fault_id) {
      case 'throw':
        throw new Error('secret: db password at /srv/app/faults.js:3');
      case 'reject':
        return Promise.reject(new Error('secret rejection'));
      case 'never':
        return new Promise(() => {});
      case 'late':
        return new Promise((resolve) => setTimeout(() => resolve({ late: ++late }), 450));
      case 'bad-error':
        throw new HttpError(418, 'teapot', { headers: { 'X-Broken': 'line\r\nbreak' } });
      case 'bigint':
        return { n: 1n };
      default:
        return { ok: req.params.fault_id };
    }
  },
  update: (req) => ({ echo: req.body }),
});

/** A fresh app (an empty store of posts, and the faults) for each server. */
export const app = () => routes(deterministicPosts(), faults);

export const JSON_T = 'application/json';
export const FORM_T = 'application/x-www-form-urlencoded';

// --- what answers must look like ------------------------------------------------------------

export const closes = (check: (r: RawResponse) => void) => (r: RawResponse) => {
  check(r);
  assert.is(r.headers.connection, 'close');
};
export const status = (code: number) => (r: RawResponse) => assert.is(r.status, code, r.wire.slice(0, 300));
export const noBody = (code: number) => (r: RawResponse) => {
  assert.is(r.status, code);
  assert.is(r.body, '');
};

/** One write of raw bytes and the check its answer must pass. */
export interface Case {
  readonly name: string;
  readonly bytes: string | Buffer;
  readonly check: (r: RawResponse) => void;
}

/** The servers a hostile suite attacks: the app on every adapter, under LIMITS. */
export type Servers = Array<{ name: string; running: Running }>;

/** A suite whose tests get `servers`: the app on every adapter, started before them and closed after. */
export function hostileSuite(name: string): Test<{ servers: Servers }> {
  const hostile = suite<{ servers: Servers }>(name, { servers: [] });
  hostile.before(async (context) => {
    context.servers = await Promise.all(
      ADAPTERS.map(async (a) => ({ name: a.name, running: await a.start(app(), LIMITS) })),
    );
  });
  hostile.after(async (context) => {
    await Promise.all(context.servers.map(({ running }) => running.close()));
  });
  return hostile;
}

/**
 * Runs `attack` on every server at once (each adapter is a server of its own, so a wait for a timeout is paid
 * once, not once per adapter), and throws the first failure with its adapter's name once all have ended.
 */
export async function onEachAtOnce<T>(
  servers: Servers,
  attack: (running: Running, name: string) => Promise<T>,
): Promise<T[]> {
  const settled = await Promise.allSettled(servers.map(({ name, running }) => attack(running, name)));
  return settled.map((result, i) => {
    if (result.status === 'fulfilled') return result.value;
    const error = result.reason as Error;
    error.message = `[${servers[i]!.name}] ${error.message}`;
    throw error;
  });
}

export async function stillServes(url: string): Promise<void> {
  const r = await raw(url, { path: '/posts?limit=1' });
  assert.is(r.status, 200, 'a good request after the case');
}

/**
 * Adds a test for each case to a hostile suite (the same answer on every adapter, then still
 * serving), and a last one that finds Object.prototype untouched after them all.
 */
export function addCases(hostile: Test<{ servers: Servers }>, cases: readonly Case[]): void {
  for (const c of cases) {
    hostile(`${c.name} :: same answer on every adapter, then still serving`, async ({ servers }) => {
      const wires = await onEachAtOnce(servers, async (running) => {
        const r = parseResponse(await exchange(running.url, c.bytes));
        c.check(r);
        await stillServes(running.url);
        return r.wire;
      });
      wires.forEach((wire, i) => assert.is(wire, wires[0], `${servers[i]!.name} answered differently`));
    });
  }
  hostile('prototypes :: untouched after every case', () => {
    for (const key of ['admin', 'title', 'x', 'polluted']) {
      assert.is(({} as Record<string, unknown>)[key], undefined, key);
      assert.is((Object.prototype as Record<string, unknown>)[key], undefined, key);
    }
  });
}
