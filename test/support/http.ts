import { connect } from 'node:net';

/** A response as read off the wire, plus the raw bytes for byte-for-byte comparison. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** The whole response with the Date header removed (it is the only part allowed to differ). */
  readonly wire: string;
}

export interface RawRequest {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  readonly body?: string | Buffer;
}

/** Builds the bytes of an HTTP/1.1 request that closes the connection after the answer. */
export function requestText({ method = 'GET', path, headers = {}, body }: RawRequest): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, 'Host: test.local', 'Connection: close'];
  const names = new Set(Object.keys(headers).map((name) => name.toLowerCase()));
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  if (body !== undefined && !names.has('content-length') && !names.has('transfer-encoding')) {
    lines.push(`Content-Length: ${payload.length}`);
  }
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), payload]);
}

/** Sends raw bytes to a server and resolves with everything it answers before closing. */
export function exchange(url: string, bytes: Buffer | string, timeoutMs = 5000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk) => chunks.push(chunk));
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
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = Buffer.from(text.slice(split + 4), 'latin1').toString('utf8');
  const wire = text.replace(/^Date: [^\r]*\r\n/m, '');
  return { status, headers, body, wire };
}

/** One request over a fresh connection, answered and parsed. */
export async function raw(url: string, request: RawRequest): Promise<RawResponse> {
  return parseResponse(await exchange(url, requestText(request)));
}

/** The parsed JSON body of a response. */
export function json(response: RawResponse): any {
  return JSON.parse(response.body);
}
