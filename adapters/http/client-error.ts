// Requests node's parser rejects, answered as problem+json like every other refusal.
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { HttpError } from '../../core/errors.js';
import { writeProblem } from './send.js';

// What node's HTTP parser reports, in words a client can act on.
const PARSE_ERRORS: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: 'the request headers are too large',
  HPE_INVALID_METHOD: 'the request method is not valid',
  HPE_INVALID_URL: 'the request target is not valid',
  HPE_INVALID_VERSION: 'the HTTP version is not valid',
  HPE_INVALID_HEADER_TOKEN: 'a request header is not valid',
  HPE_INVALID_CONTENT_LENGTH: 'the Content-Length header is not valid',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length conflicts with Transfer-Encoding or is repeated',
  HPE_INVALID_TRANSFER_ENCODING: 'the Transfer-Encoding header is not valid',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size in the body is not valid',
  HPE_CR_EXPECTED: 'a line of the request does not end with CRLF',
  HPE_LF_EXPECTED: 'a line of the request does not end with CRLF',
  ERR_HTTP_REQUEST_TIMEOUT: 'the request was not received in time',
};

/** The status for a protocol-level error: 431 for headers too large, 408 for time-outs, else 400. */
function clientErrorStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/**
 * The `clientError` listener `listen()` installs: requests node's parser rejects get the same
 * problem+json answer as everything else, then the connection closes (its framing is lost).
 */
export function onClientError(error: Error & { code?: string }, socket: Duplex): void {
  const current = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || (current != null && current.headersSent)) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(error.code);
  writeProblem(
    socket,
    new HttpError(status, PARSE_ERRORS[error.code ?? ''] ?? 'the request is not valid HTTP/1.1'),
  );
}
