// Hidden state on node's objects, in one place: request order per connection, draining, the front mark.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { OpenStreams, type Endable } from '../pipeline/open-streams.js';

// Every symbol the adapters set on node's objects is declared here, so that hidden state is indexed in one
// place.

/** Marks a handler that is already a sevenfold front: a second mount must go behind the first. */
export const FRONT = Symbol.for('sevenfold.front');

/** Set on a request while its body is read: its reader, for listeners shared by every request. */
export const READER = Symbol('sevenfold.reader');

// Set on a server by `close()`: answers from then on close their connection.
const DRAINING = Symbol.for('sevenfold.draining');

// Set on a server while it writes event streams: the streams a drain ends.
const STREAMS = Symbol.for('sevenfold.streams');

type Tracked = Server & { [DRAINING]?: boolean; [STREAMS]?: OpenStreams };

/** Makes every answer the server writes from now on close its connection, and ends its event streams. */
export function startDraining(server: Server): void {
  const tracked = server as Tracked;
  tracked[DRAINING] = true;
  (tracked[STREAMS] ??= new OpenStreams()).drain();
}

/** Keeps an event stream the response writes, for the server's drain to end. */
export function trackStream(res: ServerResponse, stream: Endable): void {
  const server = (res.socket as { server?: Tracked } | null)?.server;
  if (server !== undefined) (server[STREAMS] ??= new OpenStreams()).keep(stream);
}

/** Whether the response's server is shutting down, so that its connection must close after it. */
export function isDraining(res: ServerResponse): boolean {
  const server = (res.socket as { server?: { [DRAINING]?: boolean } } | null)?.server;
  return server?.[DRAINING] === true;
}

/**
 * The order of requests on one connection, kept on its socket: requests pipelined behind one
 * still being answered wait, so that they take effect in order too. The value has three states:
 * - `undefined`: idle, and the next request runs at once;
 * - `null`: busy with nobody waiting, so the common case allocates nothing;
 * - an array: busy, with the requests that wait, in the order they came.
 */
const QUEUE = Symbol.for('sevenfold.queue');

type Waiting = Array<() => void> | null | undefined;

interface Connection {
  [QUEUE]?: Waiting;
}

// The one place a socket is read as a connection with a queue.
function connectionOf(req: IncomingMessage): Connection {
  return req.socket as unknown as Connection;
}

/** Whether an earlier request on the same connection is still being answered, so this one must wait. */
export function connectionBusy(req: IncomingMessage): boolean {
  return connectionOf(req)[QUEUE] !== undefined;
}

/** Queues `run` behind the requests already waiting on a busy connection. */
export function waitTurn(req: IncomingMessage, run: () => void): void {
  (connectionOf(req)[QUEUE] ??= []).push(run);
}

/** Marks the connection busy, keeping any requests already waiting on it. */
export function occupy(req: IncomingMessage): void {
  const connection = connectionOf(req);
  if (connection[QUEUE] === undefined) connection[QUEUE] = null;
}

/** Frees the connection: runs the requests that waited on it, in order, until one of them is async again. */
export function release(req: IncomingMessage): void {
  const connection = connectionOf(req);
  const waiting = connection[QUEUE];
  // An idle connection is left untouched: requests answered at once never mark it.
  if (waiting === undefined) return;
  connection[QUEUE] = undefined;
  while (waiting !== null && waiting.length > 0) {
    waiting.shift()!();
    // The request just run may hold the connection again; then the rest wait behind it.
    const busy = connection[QUEUE] as Waiting;
    if (busy !== undefined) {
      if (waiting.length > 0) (connection[QUEUE] = busy ?? []).push(...waiting);
      return;
    }
  }
}
