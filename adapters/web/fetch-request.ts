// The Web-standard side of one request: a `Request` in, a `Response` out, behind the request path's `Exchange`.
import { HttpError } from '../../core/errors.js';
import type { OriginHeaders } from '../../core/request/cross-site.js';
import { withoutBom } from '../../core/request/parse-body.js';
import type { Rendered } from '../../core/response/render.js';
import type { Headers as RequestHeaders } from '../../core/types.js';
import { NullObject } from '../../core/util/null-object.js';
import { ABORTED, Exchange, tooLarge, type BodyDone, type BodyHeaders } from '../pipeline/exchange.js';

const NOT_UTF8 = new HttpError(400, 'the request body is not valid UTF-8');
// As the node adapter words it (adapters/http/node-request.ts).
const MANY_HOSTS = new HttpError(400, 'the request has more than one Host header');
const READ_ALREADY = new Error('the request body was already read');

/**
 * The request as handlers see it on a Web-standard runtime: headers from the `Request` (lower-cased
 * on first use), an abort when the runtime aborts its signal, and the `Response` handed to `answer`.
 */
export class FetchRequest extends Exchange {
  readonly target: string;
  #headers: RequestHeaders | undefined = undefined;
  #answered = false;

  constructor(
    readonly request: Request,
    /** The client's address, as the runtime tells it. */
    private readonly peer: string | undefined,
    private readonly answer: (response: Response) => void,
  ) {
    super(request.method);
    const url = request.url;
    // The origin form of an absolute URL: from the first `/` after the authority.
    const start = url.indexOf('/', url.indexOf('//') + 2);
    this.target = start === -1 ? '/' : url.slice(start);
  }

  get accept(): string | undefined {
    return this.request.headers.get('accept') ?? undefined;
  }

  protected override readHeaders(): RequestHeaders {
    if (this.#headers !== undefined) return this.#headers;
    const headers: Record<string, string> = new NullObject();
    this.request.headers.forEach((value, name) => (headers[name] = value));
    return (this.#headers = headers);
  }

  protected override peerAddress(): string | undefined {
    return this.peer;
  }

  protected override watch(abort: (reason: unknown) => void): void {
    const signal = this.request.signal;
    if (signal.aborted) return abort(new Error('the client went away'));
    // Some runtimes abort a request's signal once its response is done: that is no client going away.
    const gone = () => this.#answered || abort(new Error('the client went away'));
    signal.addEventListener('abort', gone, { once: true });
  }

  // The runtime checked the request line and joined repeated headers. Deno refuses a repeated Host itself;
  // Bun joins the values with `, ` and serves it, which no host name holds.
  headProblem(): HttpError | undefined {
    return this.request.headers.get('host')?.includes(',') ? MANY_HOSTS : undefined;
  }

  bodyHeaders(): BodyHeaders {
    const headers = this.request.headers;
    const length = headers.get('content-length') ?? undefined;
    return {
      type: headers.get('content-type') ?? undefined,
      encoding: headers.get('content-encoding') ?? undefined,
      length,
      expect: headers.get('expect') ?? undefined,
      // A body of no declared length (a Request made in process, a stream) is what HTTP/1.1 sends chunked.
      transfer:
        headers.get('transfer-encoding') ??
        (length === undefined && this.request.body !== null ? 'chunked' : undefined),
    };
  }

  originHeaders(): OriginHeaders {
    const headers = this.request.headers;
    return {
      secFetchSite: headers.get('sec-fetch-site') ?? undefined,
      origin: headers.get('origin') ?? undefined,
      host: headers.get('host') ?? new URL(this.request.url).host,
    };
  }

  readBody(_headers: BodyHeaders, limit: number, done: BodyDone): void {
    const body = this.request.body;
    if (this.request.bodyUsed) return done(this, undefined, READ_ALREADY);
    if (body === null) return done(this, '', undefined);
    readLimited(body.getReader(), limit).then(
      (bytes) => {
        if (bytes === undefined) return done(this, undefined, tooLarge(limit));
        let text: string;
        try {
          text = withoutBom(UTF8.decode(bytes));
        } catch {
          return done(this, undefined, NOT_UTF8);
        }
        done(this, text, undefined);
      },
      () => done(this, undefined, ABORTED),
    );
  }

  write(out: Rendered): void {
    const noContent = out.status === 204 || out.status === 304;
    const body = out.body;
    const bytes = typeof body === 'string' ? UTF8_ENCODER.encode(body) : body;
    const bodiless = noContent || this.method === 'HEAD';
    if (bodiless && !(bytes instanceof Uint8Array)) void bytes.cancel().catch(() => {});
    // No body at all rather than an empty one, which the Response constructor would give a Content-Type.
    const sent = bodiless || (bytes instanceof Uint8Array && bytes.byteLength === 0) ? null : bytes;
    const response = new Response(sent as BodyInit | null, { status: out.status, headers: out.headers });
    if (!noContent && bytes instanceof Uint8Array)
      response.headers.set('Content-Length', String(bytes.byteLength));
    this.#answered = true;
    this.answer(response);
  }

  destroy(): void {
    this.answer(Response.error());
  }

  // The runtime owns the connection: an unread body is its to drain or close.
  closeAfter(): void {}

  hold(): void {}

  release(): void {}

  pass(): boolean {
    return false;
  }
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const UTF8_ENCODER = new TextEncoder();

/** The whole stream, or `undefined` once it passes `limit` bytes (the rest is cancelled, never read). */
async function readLimited(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
): Promise<Uint8Array | undefined> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      void reader.cancel().catch(() => {});
      return undefined;
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) (bytes.set(chunk, at), (at += chunk.byteLength));
  return bytes;
}
