// Writes a rendered answer on node:http (the status line as RFC 9110 names it), and problems to bare sockets.
import { STATUS_CODES, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { pipeline, Readable, type Duplex } from 'node:stream';
import { STATUS_TITLES, type HttpError } from '../../core/errors.js';
import { renderError, type HttpResponse } from '../../core/response/render.js';
import { isDraining, trackStream } from './connection.js';
import { eventStreamOf } from '../../core/response/event-stream.js';

/** Statuses whose reason phrase in RFC 9110 differs from the one node writes. */
const RENAMED: ReadonlySet<number> = new Set(
  Object.keys(STATUS_TITLES)
    .map(Number)
    .filter((status) => STATUS_TITLES[status] !== STATUS_CODES[status]),
);

/** The reason phrase of a status line: RFC 9110's names, as the problem titles use them. */
function reason(status: number): string {
  return STATUS_TITLES[status] ?? STATUS_CODES[status] ?? '';
}

/** Writes a rendered response; HEAD gets the same status and headers and no body bytes. */
export function send(req: IncomingMessage, res: ServerResponse, out: HttpResponse): void {
  const body = out.body;
  const stream = typeof body === 'string' || body instanceof Uint8Array ? undefined : body;
  if (res.headersSent || res.writableEnded || res.destroyed) {
    // Nobody will read it (the client left while the handler ran): an event stream closes, a file is let go.
    if (stream !== undefined) void stream.cancel().catch(() => {});
    return;
  }
  if (isDraining(res)) res.shouldKeepAlive = false;
  const bodiless = out.status === 204 || out.status === 304;
  if (!bodiless && stream === undefined)
    out.headers['Content-Length'] = String(
      typeof body === 'string' ? Buffer.byteLength(body) : (body as Uint8Array).byteLength,
    );
  const head = out.cookies === undefined ? out.headers : nodeHeaders(out.headers, out.cookies);
  // The phrase is passed where RFC 9110's differs from node's, and after a failed writeHead left its own
  // behind.
  if (res.statusMessage === undefined && STATUS_CODES[out.status] !== undefined && !RENAMED.has(out.status))
    res.writeHead(out.status, head);
  else res.writeHead(out.status, reason(out.status), head);
  if (stream === undefined) return void res.end(bodiless || req.method === 'HEAD' ? undefined : body);
  if (bodiless || req.method === 'HEAD') {
    void stream.cancel().catch(() => {});
    return void res.end();
  }
  const events = eventStreamOf(stream);
  if (events !== undefined) {
    trackStream(res, events);
    return pump(stream, res);
  }
  // Written as it is read: pipeline() waits on the socket (backpressure) and cancels the stream when the
  // client goes away.
  pipeline(Readable.fromWeb(stream as import('node:stream/web').ReadableStream<Uint8Array>), res, (error) => {
    if (error !== undefined && error !== null) res.destroy();
  });
}

/**
 * Writes an event stream as it is read, reading again once the socket drains, and cancels it when the connection
 * closes: what pipeline() does, without the ~9 KB a Readable and a pipeline hold for each idle stream.
 */
function pump(body: ReadableStream<Uint8Array>, res: ServerResponse): void {
  const reader = body.getReader();
  const gone = (): void => void reader.cancel().catch(() => {});
  res.once('close', gone);
  const next = (): void => {
    reader.read().then(
      ({ done, value }) => {
        if (done) {
          res.off('close', gone);
          return void res.end();
        }
        if (res.destroyed) return;
        if (res.write(value)) next();
        else res.once('drain', next);
      },
      // The stream errored (a client too slow for `maxBuffered`): the connection is cut, as pipeline() would.
      () => {
        res.off('close', gone);
        res.destroy();
      },
    );
  };
  next();
}

/**
 * The headers with every Set-Cookie line in one array, which node writes a line per cookie: a `Set-Cookie` a
 * hook put in the record first, as the fetch adapter's `Headers` has it.
 */
function nodeHeaders(headers: Record<string, string>, cookies: readonly string[]): OutgoingHttpHeaders {
  const head: OutgoingHttpHeaders = {};
  const lines: string[] = [];
  for (const name of Object.keys(headers)) {
    if (name.length === 10 && name.toLowerCase() === 'set-cookie') lines.push(headers[name]!);
    else head[name] = headers[name];
  }
  head['Set-Cookie'] = [...lines, ...cookies];
  return head;
}

/** `send`, falling back to a bare 500 and then to closing the socket if writing fails. */
export function sendSafely(req: IncomingMessage, res: ServerResponse, out: HttpResponse): void {
  try {
    send(req, res, out);
  } catch {
    try {
      for (const name of res.getHeaderNames()) res.removeHeader(name);
      send(req, res, renderError(undefined));
    } catch {
      res.destroy();
    }
  }
}

/** Writes a problem straight to a socket node has no response object for, then closes it. */
export function writeProblem(socket: Duplex, error: HttpError): void {
  const out = renderError(error);
  const head = [`HTTP/1.1 ${error.status} ${reason(error.status)}`, `Date: ${new Date().toUTCString()}`];
  for (const [name, value] of Object.entries(out.headers)) head.push(`${name}: ${value}`);
  head.push(`Content-Length: ${Buffer.byteLength(out.body)}`, 'Connection: close');
  socket.end(`${head.join('\r\n')}\r\n\r\n${out.body}`);
  socket.once('finish', () => socket.destroy());
}
