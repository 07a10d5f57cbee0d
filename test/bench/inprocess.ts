import { IncomingMessage, ServerResponse, type RequestListener } from 'node:http';
import { Duplex } from 'node:stream';
import { VARIANTS, WORKLOAD } from './apps.js';

// Each variant's own work per request, without sockets or a load generator: requests are made
// in the variant's process and answered into a socket that only counts what it is given. On 2
// shared cores the HTTP figures move 10-20% between runs; these move far less.

type Item = (typeof WORKLOAD)[number];

/** A socket that counts what the current answer wrote, and keeps it when asked to. */
class Sink extends Duplex {
  bytes = 0;
  kept: Buffer[] | undefined = undefined;
  override _read(): void {}
  override _write(chunk: Buffer, _: BufferEncoding, done: () => void): void {
    this.bytes += chunk.length;
    this.kept?.push(chunk);
    done();
  }
  override _writev(chunks: Array<{ chunk: Buffer }>, done: () => void): void {
    for (const { chunk } of chunks) this._write(chunk, 'latin1', () => {});
    done();
  }
}

/** One request through `listener`, as node's server would hand it over; resolves with the status. */
function ask(listener: RequestListener, socket: Sink, item: Item): Promise<number> {
  return new Promise((resolve) => {
    const req = new IncomingMessage(socket as never);
    const payload = 'payload' in item ? item.payload : '';
    req.method = item.method;
    req.url = item.path;
    req.httpVersion = '1.1';
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    req.rawHeaders = [
      'Host',
      '127.0.0.1',
      ...('headers' in item ? ['Content-Type', item.headers['content-type']] : []),
      'Content-Length',
      String(Buffer.byteLength(payload)),
    ];
    // What node's parser does with the header lines (the headers object itself stays lazy).
    (req as unknown as { _addHeaderLines(lines: string[], n: number): void })._addHeaderLines(
      req.rawHeaders,
      req.rawHeaders.length,
    );
    const res = new ServerResponse(req);
    res.assignSocket(socket as never);
    socket.bytes = 0;
    res.on('finish', () => {
      res.detachSocket(socket as never);
      resolve(res.statusCode);
    });
    listener(req, res);
    if (payload !== '') req.push(Buffer.from(payload));
    req.complete = true;
    req.push(null);
  });
}

/** The length of each workload item's answer, after checking its status and body once. */
async function expectedLengths(
  name: string,
  listener: RequestListener,
  socket: Sink,
  requests: readonly Item[],
): Promise<number[]> {
  const lengths: number[] = [];
  for (const item of requests) {
    socket.kept = [];
    const status = await ask(listener, socket, item);
    const text = Buffer.concat(socket.kept).toString();
    socket.kept = undefined;
    const body = text.slice(text.indexOf('\r\n\r\n') + 4);
    if (status !== item.status || body !== item.body) {
      throw new Error(
        `${name} answered ${item.method} ${item.path} in process with ${status} ${body}; expected ${item.status} ${item.body}`,
      );
    }
    lengths.push(socket.bytes);
  }
  return lengths;
}

/**
 * One variant driven in this process. The function it gives answers `perRound` requests and
 * resolves with the CPU µs per request; every answer must match its checked one in status and
 * length (the Date header keeps its length), which is verified after the clock stops.
 */
export async function inProcessVariant(
  name: string,
  requests: readonly Item[],
  perRound = 100_000,
): Promise<() => Promise<number>> {
  const socket = new Sink();
  const server = await VARIANTS[name]!();
  const listener = server.listeners('request')[0] as RequestListener;
  const expected = await expectedLengths(name, listener, socket, requests);
  const statuses = new Int32Array(perRound);
  const lengths = new Int32Array(perRound);
  return async function round(): Promise<number> {
    const before = process.cpuUsage();
    for (let n = 0; n < perRound; n++) {
      statuses[n] = await ask(listener, socket, requests[n % requests.length]!);
      lengths[n] = socket.bytes;
    }
    const used = process.cpuUsage(before);
    for (let n = 0; n < perRound; n++) {
      const item = requests[n % requests.length]!;
      if (statuses[n] !== item.status || lengths[n] !== expected[n % requests.length]) {
        throw new Error(
          `${name} answered ${item.method} ${item.path} in process with ${statuses[n]} and ${lengths[n]} bytes; expected ${item.status} and ${expected[n % requests.length]}`,
        );
      }
    }
    return (used.user + used.system) / perRound;
  };
}
