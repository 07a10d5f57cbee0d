import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { cpus } from 'node:os';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';

/**
 * Watched resources over server-sent events (`BENCH_LIVE`): what 10 000 idle streams hold in the server's memory,
 * and how long one change takes to reach 1 000 watchers, against a node:http server writing `text/event-stream` by
 * hand and against fastify sending a stream, in the same run.
 *
 * One file, three roles: imported by run.ts it orchestrates (`liveFigures`); run as `live.js server <variant>` it is
 * one server in a process of its own (so its memory is its own); run as `live.js clients` it holds the watchers, on
 * raw `net` sockets with a parser of a few lines (no EventSource), so the client side costs little.
 */

// ---------------------------------------------------------------------------------------------------------------
// What every variant serves and sends.

const POSTS = [
  { id: '1', title: 'Hello', body: 'First post' },
  { id: '2', title: 'Again', body: 'Second post' },
];
/** The post a change is about: the event's data, about 200 bytes of JSON. */
const eventPost = (seq: number) => ({
  id: `e${seq}`,
  title: `Event ${seq}`,
  body: 'A post as a watcher receives it: its title, its body, about two hundred bytes of JSON in all, sent to every watcher.',
});
const POST_SCHEMA = {
  type: 'object',
  required: ['id', 'title', 'body'],
  properties: { id: { type: 'string' }, title: { type: 'string' }, body: { type: 'string' } },
} as const;
/** The headers sevenfold sends a stream with; the hand-written servers send the same. */
const SSE_HEADERS = {
  'Content-Type': 'text/event-stream',
  'Cache-Control': 'no-store, no-transform',
  'X-Accel-Buffering': 'no',
};
/** The heartbeat sevenfold uses by default (core/response/event-stream.ts), for the hand-written servers too. */
const HEARTBEAT_MS = 15_000;
/** What the hand-written servers queue for a slow reader before dropping it, as sevenfold's `maxBuffered`. */
const MAX_BUFFERED = 1024 * 1024;
const BOOT = 'bench';

/** The event as the hand-written servers write it: formatted once, the same bytes to every watcher. */
const eventBytes = (seq: number) =>
  Buffer.from(`event: created\nid: ${BOOT}-${seq}\ndata: ${JSON.stringify(eventPost(seq))}\n\n`);

const wantsStream = (req: IncomingMessage) => (req.headers.accept ?? '').includes('text/event-stream');

// ---------------------------------------------------------------------------------------------------------------
// The server role.

interface LiveServer {
  readonly port: number;
  /** Streams open, as the server counts them. */
  streams(): number;
  /** Publishes change `seq` to every watcher. */
  publish(seq: number): unknown;
  readonly server: Server;
}

/** The variants' servers: `raw` is the baseline, written by hand. */
const SERVERS: Record<string, () => Promise<LiveServer>> = {
  // A watched resource served by the node adapter, every default on (heartbeat 15 s, maxEventStreams 10 000).
  async sevenfold() {
    const { resource } = await import('../../core/index.js');
    const { live } = await import('../../core/features/live/index.js');
    const { serve } = await import('../../adapters/node.js');
    const changes = live();
    const posts = resource(
      'posts',
      {
        index: () => POSTS,
        show: (req: { params: { post_id: string } }) => ({
          id: req.params.post_id,
          title: 'Hello',
          body: '',
        }),
      },
      { watch: changes, schemas: { show: { response: POST_SCHEMA } } },
    );
    // Idle keep-alive connections (the variant without streams) are held for the whole measurement.
    const running = await serve(posts, { keepAliveTimeout: 120_000 });
    return {
      port: Number(new URL(running.url).port),
      streams: () => changes.open,
      publish: (seq) => changes.publish('posts', 'created', eventPost(seq)),
      server: running.server,
    };
  },

  // node:http by hand: a set of responses, one heartbeat timer for all, each event formatted once.
  async raw() {
    const open = new Set<ServerResponse>();
    const server = createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/posts') {
        if (!wantsStream(req)) {
          const text = JSON.stringify(POSTS);
          return void res
            .writeHead(200, { ...JSON_HEADERS, 'Content-Length': Buffer.byteLength(text) })
            .end(text);
        }
        res.writeHead(200, SSE_HEADERS);
        res.write(':\n\n');
        open.add(res);
        res.on('close', () => open.delete(res));
        return;
      }
      res.writeHead(404).end();
    });
    server.keepAliveTimeout = 120_000;
    const write = (bytes: Buffer | string) => {
      for (const res of open) if (!res.write(bytes) && res.writableLength > MAX_BUFFERED) res.destroy();
    };
    setInterval(() => write(':\n\n'), HEARTBEAT_MS).unref();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return {
      port: portOf(server),
      streams: () => open.size,
      publish: (seq) => write(eventBytes(seq)),
      server,
    };
  },

  // fastify sending a stream (a PassThrough per watcher, which it pipes to the response), written by hand.
  async fastify() {
    const { default: fastify } = await import('fastify');
    const app = fastify({ keepAliveTimeout: 120_000 });
    const open = new Set<PassThrough>();
    app.get('/posts', (request, reply) => {
      if (!wantsStream(request.raw)) return reply.send(POSTS);
      const stream = new PassThrough();
      open.add(stream);
      reply.raw.on('close', () => {
        open.delete(stream);
        stream.destroy();
      });
      stream.write(':\n\n');
      return reply.headers(SSE_HEADERS).send(stream);
    });
    const write = (bytes: Buffer | string) => {
      for (const stream of open)
        if (!stream.write(bytes) && stream.writableLength > MAX_BUFFERED) stream.destroy();
    };
    setInterval(() => write(':\n\n'), HEARTBEAT_MS).unref();
    await app.listen({ port: 0, host: '127.0.0.1' });
    return {
      port: portOf(app.server),
      streams: () => open.size,
      publish: (seq) => write(eventBytes(seq)),
      server: app.server,
    };
  },
};

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=utf-8' };

function portOf(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

type ServerMessage =
  | { readonly kind: 'memory' }
  | { readonly kind: 'count' }
  | { readonly kind: 'publish'; readonly seq: number }
  | { readonly kind: 'cpu' }
  | { readonly kind: 'exit' };

async function serverRole(name: string): Promise<void> {
  const live = await SERVERS[name]!();
  process.on('message', async (message: ServerMessage) => {
    switch (message.kind) {
      case 'memory': {
        // Three times, a turn apart, so that what a collection's finalizers and closed handles let go is collected too.
        for (let i = 0; i < 3; i++) {
          (globalThis as { gc?: () => void }).gc?.();
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        const memory = process.memoryUsage();
        return process.send!({ memory });
      }
      case 'count': {
        const connections = await new Promise<number>((resolve, reject) =>
          live.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
        );
        return process.send!({ streams: live.streams(), connections });
      }
      case 'publish': {
        const cpu = process.cpuUsage();
        const t0 = process.hrtime.bigint();
        const out = live.publish(message.seq);
        const sync = process.hrtime.bigint();
        process.send!({
          t0: Number(t0) / 1000,
          syncUs: Number(sync - t0) / 1000,
          cpu: cpu.user + cpu.system,
        });
        await out;
        return;
      }
      case 'cpu': {
        const cpu = process.cpuUsage();
        return process.send!({ cpu: cpu.user + cpu.system });
      }
      case 'exit':
        // Connections still open are closed by the exit: the server goes first, so the clients' ports are not left
        // waiting in TIME_WAIT.
        return process.exit(0);
    }
  });
  process.send!({ port: live.port });
}

// ---------------------------------------------------------------------------------------------------------------
// The clients role: many connections, each with a parser of a few lines.

type Mode = 'stream' | 'idle';

/** One watcher (or one idle keep-alive connection) on a raw socket, with a parser of a few lines. */
class Connection {
  #raw = '';
  #body = '';
  #head = true;
  #length = -1;
  /** The change being waited for, as its data reads (`"id":"e7"`), and what to call on receipt. */
  expect: { marker: string; got: (at: number, block: string) => void } | undefined;
  ready = false;
  closedByUs = false;

  constructor(
    readonly socket: Socket,
    readonly mode: Mode,
    readonly onReady: () => void,
    readonly onFail: (error: Error) => void,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => this.#read(data));
    socket.on('error', (error) => this.#fail(error));
    socket.on('close', () => this.#fail(new Error('the server closed the connection')));
  }

  #fail(error: Error): void {
    if (this.closedByUs) return;
    this.closedByUs = true;
    this.onFail(error);
  }

  #read(data: Buffer): void {
    const at = Number(process.hrtime.bigint()) / 1000;
    this.#raw += data.toString('latin1');
    if (this.#head) {
      const end = this.#raw.indexOf('\r\n\r\n');
      if (end === -1) return;
      const head = this.#raw.slice(0, end).toLowerCase();
      this.#raw = this.#raw.slice(end + 4);
      this.#head = false;
      if (!head.startsWith('http/1.1 200')) return this.#fail(new Error(`answered ${head.split('\r\n')[0]}`));
      if (this.mode === 'stream') {
        if (!head.includes('content-type: text/event-stream') || !head.includes('transfer-encoding: chunked'))
          return this.#fail(new Error(`not a chunked event stream: ${head}`));
      } else {
        const match = /content-length: *(\d+)/.exec(head);
        if (match === null) return this.#fail(new Error(`no content-length: ${head}`));
        this.#length = Number(match[1]);
      }
    }
    if (this.mode === 'idle') {
      if (!this.ready && this.#raw.length >= this.#length) {
        this.ready = true;
        this.onReady();
      }
      return;
    }
    // Chunked framing, then events split at their blank line.
    for (;;) {
      const line = this.#raw.indexOf('\r\n');
      if (line === -1) break;
      const size = parseInt(this.#raw.slice(0, line), 16);
      if (this.#raw.length < line + 2 + size + 2) break;
      if (size === 0) return this.#fail(new Error('the stream ended'));
      this.#body += this.#raw.slice(line + 2, line + 2 + size);
      this.#raw = this.#raw.slice(line + 4 + size);
    }
    for (let end = this.#body.indexOf('\n\n'); end !== -1; end = this.#body.indexOf('\n\n')) {
      const block = this.#body.slice(0, end);
      this.#body = this.#body.slice(end + 2);
      if (!this.ready) {
        this.ready = true;
        this.onReady();
      }
      if (this.expect !== undefined && block.includes(this.expect.marker)) {
        const { got } = this.expect;
        this.expect = undefined;
        got(at, block);
      }
    }
  }

  close(): void {
    this.closedByUs = true;
    this.socket.destroy();
  }
}

type ClientMessage =
  | { readonly kind: 'open'; readonly port: number; readonly count: number; readonly mode: Mode }
  | { readonly kind: 'expect'; readonly seq: number }
  | { readonly kind: 'close' };

/** Connections opening at once: below node's listen backlog (511), so no SYN is dropped and retried. */
const CONCURRENCY = 256;

async function clientsRole(): Promise<void> {
  let watchers: Connection[] = [];
  let failure: Error | undefined;
  const fail = (error: Error) => {
    if (failure !== undefined) return;
    failure = error;
    process.send!({ error: error.message });
  };
  const open = (port: number, count: number, mode: Mode) =>
    new Promise<Connection[]>((resolve) => {
      const made: Connection[] = [];
      let started = 0;
      let ready = 0;
      const request =
        `GET /posts HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
        (mode === 'stream' ? 'Accept: text/event-stream\r\n' : 'Accept: application/json\r\n') +
        '\r\n';
      const next = () => {
        while (started - ready < CONCURRENCY && started < count && failure === undefined) {
          started++;
          const socket = connect(port, '127.0.0.1');
          socket.on('connect', () => socket.write(request));
          const watcher = new Connection(
            socket,
            mode,
            () => {
              ready++;
              if (ready === count) resolve(made);
              else next();
            },
            fail,
          );
          made.push(watcher);
        }
      };
      next();
    });
  process.on('message', async (message: ClientMessage) => {
    switch (message.kind) {
      case 'open': {
        const started = performance.now();
        watchers = watchers.concat(await open(message.port, message.count, message.mode));
        return process.send!({ opened: watchers.length, ms: performance.now() - started });
      }
      case 'expect': {
        // Receipt times in µs of the system's monotonic clock, which the server's t0 is read on too.
        const times: number[] = [];
        let sample = '';
        const marker = `"id":"e${message.seq}"`;
        for (const watcher of watchers)
          watcher.expect = {
            marker,
            got: (at, block) => {
              if (times.length === 0) sample = block;
              times.push(at);
              if (times.length === watchers.length) process.send!({ times, sample });
            },
          };
        return process.send!({ armed: true });
      }
      case 'close': {
        for (const watcher of watchers) watcher.close();
        watchers = [];
        return process.send!({ closed: true });
      }
    }
  });
  process.send!({ ready: true });
}

// ---------------------------------------------------------------------------------------------------------------
// The orchestrating role, in run.ts's process.

const HERE = fileURLToPath(import.meta.url);
const children = new Set<ChildProcess>();

/** A child of this file in `role`, with the file-descriptor limit raised to `fds` where the hard limit allows. */
async function child(
  args: readonly string[],
  fds: number,
  execArgv: readonly string[] = [],
): Promise<{ proc: ChildProcess; port: number }> {
  const proc = fork(HERE, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    // Through sh for `ulimit -n`: node cannot raise its own limit, and exec keeps the IPC channel.
    execPath: '/bin/sh',
    execArgv: ['-c', `ulimit -n ${fds} 2>/dev/null; exec "$@"`, 'sh', process.execPath, ...execArgv],
  });
  children.add(proc);
  proc.once('exit', () => children.delete(proc));
  const [message] = (await once(proc, 'message')) as [{ error?: string; port?: number }];
  if (message.error !== undefined) throw new Error(message.error);
  return { proc, port: message.port ?? 0 };
}

/**
 * Sends `message` (if any) and resolves with the first answer that has `key`; an error the child reports, or its
 * exit, rejects.
 */
function ask<T>(proc: ChildProcess, message: object | undefined, key: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const onMessage = (answer: Record<string, unknown>) => {
      if (answer.error !== undefined) done(() => reject(new Error(String(answer.error))));
      else if (key in answer) done(() => resolve(answer as T));
    };
    const onExit = (code: number | null) =>
      done(() => reject(new Error(`a live bench child exited (${code})`)));
    const done = (then: () => void) => {
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      then();
    };
    proc.on('message', onMessage);
    proc.on('exit', onExit);
    if (message !== undefined) proc.send(message);
  });
}

/** Ends a child: asked to exit (a server goes first, so the clients' ports are not left in TIME_WAIT), else killed. */
async function stop(proc: ChildProcess, ask = false): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = once(proc, 'exit');
  if (ask && proc.connected) proc.send({ kind: 'exit' });
  else proc.kill();
  const timer = setTimeout(() => proc.kill('SIGKILL'), 5000);
  await exited;
  clearTimeout(timer);
}

/** The soft file-descriptor limit a child gets once it asked for `fds` (it can raise it to the hard limit). */
function fdLimit(fds: number): number {
  try {
    return Number(
      execFileSync('/bin/sh', ['-c', `ulimit -n ${fds} 2>/dev/null; ulimit -n`], { encoding: 'utf8' }),
    );
  } catch {
    return 1024;
  }
}

interface Memory {
  readonly rss: number;
  readonly heapUsed: number;
}

interface Variant {
  readonly name: string;
  readonly server: string;
  readonly mode: Mode;
}

const MEMORY_VARIANTS: readonly Variant[] = [
  { name: 'node:http by hand', server: 'raw', mode: 'stream' },
  { name: 'sevenfold (node adapter, watched index)', server: 'sevenfold', mode: 'stream' },
  { name: 'fastify (a PassThrough per stream)', server: 'fastify', mode: 'stream' },
  { name: 'node:http, idle keep-alive, no stream', server: 'raw', mode: 'idle' },
  { name: 'sevenfold, idle keep-alive, no stream', server: 'sevenfold', mode: 'idle' },
];

const LATENCY_VARIANTS: readonly Variant[] = MEMORY_VARIANTS.filter((v) => v.mode === 'stream');

interface MemorySample {
  readonly before: Memory;
  readonly after: Memory;
  readonly openMs: number;
}

const pick = (m: NodeJS.MemoryUsage): Memory => ({ rss: m.rss, heapUsed: m.heapUsed });

/** One server with `count` connections of its mode held open: its memory before and after, after full GCs. */
async function memoryRound(variant: Variant, count: number, fds: number): Promise<MemorySample> {
  const { proc: server, port } = await child(['server', variant.server], fds, [
    '--expose-gc',
    ...profile(variant),
  ]);
  const { proc: clients } = await child(['clients'], fds);
  try {
    // Warm-up: code loaded and compiled, pools filled, before the first reading.
    await ask(clients, { kind: 'open', port, count: 200, mode: variant.mode }, 'opened');
    await ask(clients, { kind: 'close' }, 'closed');
    await settle(server, 0, variant.mode);
    const before = pick(
      (await ask<{ memory: NodeJS.MemoryUsage }>(server, { kind: 'memory' }, 'memory')).memory,
    );
    const { ms } = await ask<{ ms: number }>(
      clients,
      { kind: 'open', port, count, mode: variant.mode },
      'opened',
    );
    await settle(server, count, variant.mode);
    const after = pick(
      (await ask<{ memory: NodeJS.MemoryUsage }>(server, { kind: 'memory' }, 'memory')).memory,
    );
    return { before, after, openMs: ms };
  } finally {
    await stop(server, true);
    await stop(clients);
  }
}

/** Waits until the server counts `count` streams (or connections, for idle ones): at most 10 s. */
async function settle(server: ChildProcess, count: number, mode: Mode): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const seen = await ask<{ streams: number; connections: number }>(server, { kind: 'count' }, 'streams');
    const n = mode === 'stream' ? seen.streams : seen.connections;
    if (n === count && (mode === 'idle' || seen.connections === count)) return;
    if (Date.now() > deadline)
      throw new Error(
        `the server holds ${seen.streams} streams and ${seen.connections} connections, not ${count}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function profile(variant: Variant): string[] {
  return process.env.BENCH_PROF === `live:${variant.server}` ? ['--cpu-prof'] : [];
}

interface Delivery {
  /** µs from the publish call to a watcher's receipt: median, 99th percentile, the last. */
  readonly p50: number;
  readonly p99: number;
  readonly last: number;
  /** The server's CPU for the event, publish to the last write, µs. */
  readonly cpu: number;
  /** The publish call itself, until it returned, µs. */
  readonly sync: number;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

/** The text of an event as every variant must send it, whatever its id. */
const expectedBlock = (seq: number) => `event: created\nid: *\ndata: ${JSON.stringify(eventPost(seq))}`;

async function deliver(
  server: ChildProcess,
  clients: ChildProcess,
  seq: number,
  name: string,
): Promise<Delivery> {
  await ask(clients, { kind: 'expect', seq }, 'armed');
  const received = ask<{ times: number[]; sample: string }>(clients, undefined, 'times');
  const sent = await ask<{ t0: number; syncUs: number; cpu: number }>(server, { kind: 'publish', seq }, 't0');
  const { times, sample } = await received;
  const { cpu } = await ask<{ cpu: number }>(server, { kind: 'cpu' }, 'cpu');
  if (sample.replace(/^id: .*$/m, 'id: *') !== expectedBlock(seq))
    throw new Error(`${name} sent ${JSON.stringify(sample)}, not ${JSON.stringify(expectedBlock(seq))}`);
  const sorted = times.map((t) => t - sent.t0).sort((a, b) => a - b);
  return {
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    last: sorted.at(-1)!,
    cpu: cpu - sent.cpu,
    sync: sent.syncUs,
  };
}

export interface LiveOptions {
  /** Idle streams held for the memory figures. Default 10 000 (BENCH_LIVE_STREAMS). */
  readonly streams?: number;
  /** Watchers an event goes to for the latency figures. Default 1 000 (BENCH_LIVE_WATCHERS). */
  readonly watchers?: number;
  /** Rounds of the memory measurement, each variant once in each. */
  readonly memoryRounds?: number;
  /** Rounds of the latency measurement, each variant once in each. */
  readonly latencyRounds?: number;
  /** Events per variant per latency round. */
  readonly events?: number;
}

const kb = (bytes: number) => bytes / 1024;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** The section of `npm run bench` for event streams, as Markdown. */
export async function liveFigures(options: LiveOptions = {}): Promise<string> {
  const { fixed, median, order } = await import('./load.js');
  const asked = options.streams ?? 10_000;
  const watchers = options.watchers ?? 1000;
  const fds = fdLimit(Math.max(asked, watchers) + 1024);
  // Each process holds one descriptor a connection: fewer streams than asked when the limit cannot be raised.
  const streams = Math.min(asked, fds - 512);
  const lines: string[] = [
    `Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${new Date().toISOString().slice(0, 10)}; servers and clients in processes of their own over TCP on 127.0.0.1; file descriptors per process ${fds}.`,
    '',
  ];
  if (streams < asked)
    lines.push(
      `**${streams} streams, not ${asked}**: the file-descriptor limit is ${fds} and its hard limit is no higher; per-stream figures hold, totals scale.`,
      '',
    );
  const rangeOf = (values: readonly number[], digits: number) =>
    `${fixed(Math.min(...values), digits)}–${fixed(Math.max(...values), digits)}`;
  const cleanup = () => {
    for (const proc of children) proc.kill();
  };
  process.once('exit', cleanup);
  try {
    // (a) Memory of idle streams.
    const memoryRounds = options.memoryRounds ?? 3;
    const samples = new Map<string, MemorySample[]>(MEMORY_VARIANTS.map((v) => [v.name, []]));
    for (let round = 0; round < memoryRounds; round++) {
      for (const variant of order(MEMORY_VARIANTS, round))
        samples.get(variant.name)!.push(await memoryRound(variant, streams, fds));
      process.stderr.write(`live memory round ${round + 1}/${memoryRounds} done\n`);
    }
    const per = (s: MemorySample, key: keyof Memory) => kb(s.after[key] - s.before[key]) / streams;
    const base = samples.get(MEMORY_VARIANTS[0]!.name)!;
    lines.push(
      `### ${streams} idle connections: the server's memory (${memoryRounds} rounds, a fresh server each; after full GCs)`,
      '',
      '| server | RSS before → after MB | heap before → after MB | RSS KB per connection | range | heap KB per connection | range | RSS vs by hand | heap vs by hand | to open all, s |',
      '|---|---|---|---|---|---|---|---|---|---|',
    );
    for (const variant of MEMORY_VARIANTS) {
      const s = samples.get(variant.name)!;
      const m = (f: (x: MemorySample) => number) => median(s.map(f));
      const rss = s.map((x) => per(x, 'rss'));
      const heap = s.map((x) => per(x, 'heapUsed'));
      const ratio = (key: keyof Memory) => fixed(median(s.map((x, i) => per(x, key) / per(base[i]!, key))));
      lines.push(
        `| ${variant.name} | ${mb(m((x) => x.before.rss))} → ${mb(m((x) => x.after.rss))} | ${mb(m((x) => x.before.heapUsed))} → ${mb(m((x) => x.after.heapUsed))} | ${fixed(median(rss), 1)} | ${rangeOf(rss, 1)} | ${fixed(median(heap), 2)} | ${rangeOf(heap, 2)} | ${variant.mode === 'stream' ? `${ratio('rss')}×` : '–'} | ${variant.mode === 'stream' ? `${ratio('heapUsed')}×` : '–'} | ${fixed(m((x) => x.openMs) / 1000, 1)} |`,
      );
    }
    // A stream's own cost: the stream variant less the same server's idle connections, round by round.
    const own = (stream: string, idle: string, key: keyof Memory) => {
      const a = samples.get(stream)!;
      const b = samples.get(idle)!;
      return median(a.map((x, i) => per(x, key) - per(b[i]!, key)));
    };
    lines.push(
      '',
      `What the stream adds to its connection (the stream less the same server's idle keep-alive connection, round by round): node:http by hand ${fixed(own(MEMORY_VARIANTS[0]!.name, MEMORY_VARIANTS[3]!.name, 'rss'), 1)} KB RSS, ${fixed(own(MEMORY_VARIANTS[0]!.name, MEMORY_VARIANTS[3]!.name, 'heapUsed'), 2)} KB heap; sevenfold ${fixed(own(MEMORY_VARIANTS[1]!.name, MEMORY_VARIANTS[4]!.name, 'rss'), 1)} KB RSS, ${fixed(own(MEMORY_VARIANTS[1]!.name, MEMORY_VARIANTS[4]!.name, 'heapUsed'), 2)} KB heap.`,
      '',
    );

    // (b) One event to many watchers.
    const latencyRounds = options.latencyRounds ?? 6;
    const events = options.events ?? 10;
    const running = new Map<string, { server: ChildProcess; clients: ChildProcess }>();
    try {
      for (const variant of LATENCY_VARIANTS) {
        const { proc: server, port } = await child(['server', variant.server], fds, profile(variant));
        const { proc: clients } = await child(['clients'], fds);
        running.set(variant.name, { server, clients });
        await ask(clients, { kind: 'open', port, count: watchers, mode: 'stream' }, 'opened');
        await settle(server, watchers, 'stream');
      }
      let seq = 0;
      // Warm-up: a few events each, not counted.
      for (const variant of LATENCY_VARIANTS) {
        const { server, clients } = running.get(variant.name)!;
        for (let i = 0; i < 5; i++) await deliver(server, clients, ++seq, variant.name);
      }
      // Per variant, per round: the median over the round's events of each figure.
      const rounds = new Map<string, Delivery[]>(LATENCY_VARIANTS.map((v) => [v.name, []]));
      for (let round = 0; round < latencyRounds; round++) {
        for (const variant of order(LATENCY_VARIANTS, round)) {
          const { server, clients } = running.get(variant.name)!;
          const got: Delivery[] = [];
          for (let i = 0; i < events; i++) got.push(await deliver(server, clients, ++seq, variant.name));
          const mid = (key: keyof Delivery) => median(got.map((d) => d[key]));
          rounds.get(variant.name)!.push({
            p50: mid('p50'),
            p99: mid('p99'),
            last: mid('last'),
            cpu: mid('cpu'),
            sync: mid('sync'),
          });
        }
        process.stderr.write(`live latency round ${round + 1}/${latencyRounds} done\n`);
      }
      const baseline = rounds.get(LATENCY_VARIANTS[0]!.name)!;
      const ms = (us: number) => fixed(us / 1000, 2);
      lines.push(
        `### One event to ${watchers} watchers (${latencyRounds} interleaved rounds of ${events} events; the median event of each round, then the median and range over rounds)`,
        '',
        'Milliseconds from the publish call in the server to a watcher reading the event (the clients, in one process, read on the same monotonic clock), and the server CPU the event took.',
        '',
        '| server | p50 ms | range | p99 ms | range | to the last ms | range | last vs by hand | server CPU ms per event | µs per watcher | CPU vs by hand | the publish call ms |',
        '|---|---|---|---|---|---|---|---|---|---|---|---|',
      );
      for (const variant of LATENCY_VARIANTS) {
        const r = rounds.get(variant.name)!;
        const col = (key: keyof Delivery) => {
          const values = r.map((d) => d[key]);
          return `${ms(median(values))} | ${rangeOf(
            values.map((v) => v / 1000),
            2,
          )}`;
        };
        const ratio = (key: keyof Delivery) => fixed(median(r.map((d, i) => d[key] / baseline[i]![key])));
        lines.push(
          `| ${variant.name} | ${col('p50')} | ${col('p99')} | ${col('last')} | ${ratio('last')}× | ${ms(median(r.map((d) => d.cpu)))} | ${fixed(median(r.map((d) => d.cpu)) / watchers, 2)} | ${ratio('cpu')}× | ${ms(median(r.map((d) => d.sync)))} |`,
        );
      }
    } finally {
      for (const { server, clients } of running.values()) {
        await stop(server, true);
        await stop(clients);
      }
    }
  } finally {
    process.off('exit', cleanup);
    cleanup();
  }
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------

if (process.argv[1] === HERE) {
  // A child: it ends with the run that started it.
  process.on('disconnect', () => process.exit(0));
  const [role, name] = process.argv.slice(2);
  try {
    if (role === 'server') await serverRole(name!);
    else if (role === 'clients') await clientsRole();
    else throw new Error(`live.js: no role ${role}`);
  } catch (error) {
    process.send!({ error: (error as Error).stack ?? String(error) });
    process.exit(1);
  }
}
