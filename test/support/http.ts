// Raw HTTP/1.1 for the socket tests: requests written byte for byte, answers read off the wire and parsed.
import { connect } from 'node:net';
import * as assert from 'uvu/assert';

/** One mebibyte, the default body limit. */
export const MiB = 1024 * 1024;

/** A response as read off the wire, plus the raw bytes for byte-for-byte comparison. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The `Set-Cookie` lines, in order (`headers` keeps only the last). */
  readonly cookies?: readonly string[];
  /** The whole response with the Date header removed (it is the only part allowed to differ). */
  readonly wire: string;
  /** Answered by `toFetch()` in process: no server framed it, so a body it carries has no Content-Length. */
  readonly inProcess?: true;
}

export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** Header lines written as given after `headers`: repeats and spellings a record cannot hold. */
  readonly lines?: readonly string[];
  readonly body?: string | Buffer;
}

/** Builds the bytes of an HTTP/1.1 request that closes the connection after the answer. */
export function requestText({
  method = 'GET',
  path,
  headers = {},
  lines: extra = [],
  body,
}: RawRequest): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: test.local', 'Connection: close'];
  const given = [...Object.keys(headers), ...extra.map((line) => line.slice(0, line.indexOf(':')))];
  const names = new Set(given.map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  lines.push(...extra);
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  if (body !== undefined && !names.has('content-length') && !names.has('transfer-encoding')) {
    lines.push(`Content-Length: ${payload.length}`);
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]);
}

/** A `GET` with extra header lines, as `requestText` writes it. */
export function get(path: string, lines: readonly string[] = []): Buffer {
  return requestText({ path, lines });
}

/** A request without a body, with extra header lines. */
export function call(method: string, path: string, lines: readonly string[] = []): Buffer {
  return requestText({ method, path, lines });
}

/** A request with a body, its Content-Type (none when `undefined`) and extra header lines. */
export function send(
  method: string,
  path: string,
  type: string | undefined,
  body: string | Buffer,
  lines: readonly string[] = [],
): Buffer {
  return requestText({
    method,
    path,
    headers: type === undefined ? {} : { 'Content-Type': type },
    lines,
    body,
  });
}

/** A chunked body of these parts, with its last empty chunk. */
export function chunked(parts: readonly string[]): string {
  return parts.map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`).join('') + '0\r\n\r\n';
}

/**
 * Whether `text` holds one whole answer: its head, and the body its Content-Length or last chunk bounds (none
 * for a `HEAD`, a 1xx, 204 or 304); an answer bounded by the close is whole only at the end.
 */
export function wholeAnswer(text: string, head: boolean): boolean {
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) return false;
  const top = text.slice(0, split).toLowerCase();
  const status = Number(/^http\/1\.[01] (\d{3})/.exec(top)?.[1]);
  if (head || status < 200 || status === 204 || status === 304) return true;
  const length = /\r\ncontent-length: *(\d+)/.exec(top)?.[1];
  if (length !== undefined) return text.length - split - 4 >= Number(length);
  return /\r\ntransfer-encoding: *chunked/.test(top) && text.endsWith('\r\n0\r\n\r\n');
}

/**
 * Sends raw bytes to a server and resolves with everything it answers before closing; with `first`, as soon as
 * one whole answer has come, for a server that keeps the connection open after `Connection: close` (workerd).
 */
export function exchange(
  url: string,
  bytes: Buffer | string,
  timeoutMs = 5000,
  first?: { readonly head: boolean },
): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk) => {
      chunks.push(chunk);
      if (first === undefined) return;
      const text = Buffer.concat(chunks).toString('latin1');
      if (!wholeAnswer(text, first.head)) return;
      clearTimeout(timer);
      socket.destroy();
      resolve(text);
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      // A reset after the answer arrived still leaves a usable answer.
      if (chunks.length > 0) resolve(Buffer.concat(chunks).toString('latin1'));
      else reject(error);
    });
    socket.on('end', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
    socket.write(bytes);
  });
}

/** Splits a single HTTP/1.1 response into status, headers (lower-cased names) and body. */
export function parseResponse(text: string): RawResponse {
  const split = text.indexOf('\r\n\r\n');
  if (split === -1) throw new Error(`not an HTTP response: ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
  // Deno answers an HTTP/1.0 request in HTTP/1.0.
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  const cookies: string[] = [];
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    headers[name] = line.slice(colon + 1).trim();
    if (name === 'set-cookie') cookies.push(headers[name]!);
  }
  const body = Buffer.from(text.slice(split + 4), 'latin1').toString('utf8');
  const wire = text.replace(/^Date: [^\r]*\r\n/m, '');
  return { status, headers, body, wire, cookies };
}

/** One request over a fresh connection, answered and parsed. */
export async function raw(url: string, request: RawRequest, first = false): Promise<RawResponse> {
  const head = request.method === 'HEAD';
  return parseResponse(await exchange(url, requestText(request), 5000, first ? { head } : undefined));
}

/** The parsed JSON body of a response. */
export function json(response: RawResponse): any {
  return JSON.parse(response.body);
}

/**
 * A check that a response is a problem+json `status` whose detail matches `detail` (when
 * given), and that shows no message, path or stack line of the error behind it.
 */
export function expectProblem(status: number, detail?: RegExp): (response: RawResponse) => void {
  return (r) => {
    assert.is(r.status, status, r.wire.slice(0, 300));
    assert.is(r.headers['content-type'], 'application/problem+json');
    const body = json(r);
    assert.is(body.status, status);
    assert.is(body.type, 'about:blank');
    assert.type(body.title, 'string');
    if (detail) assert.match(body.detail, detail);
    assert.not.match(r.body, /secret|\/srv\/|at .*\.js/);
  };
}
