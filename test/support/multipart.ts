// multipart/form-data bodies written by hand for the upload tests: parts, a closing boundary, the header.
import { connect } from 'node:net';
import { chunked, wholeAnswer } from './http.js';

/** The boundary every body here is written with. */
export const BOUNDARY = '----sevenfold7MA4YWxkTrZu0gW';

/** The Content-Type of a body written with `BOUNDARY`. */
export const MULTIPART = { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` };

/** One part: a text field, or a file when `filename` is given. */
export function part(
  name: string | undefined,
  value: string,
  filename?: string,
  type = 'text/plain',
): string {
  const disposition = name === undefined ? 'form-data' : `form-data; name="${name}"`;
  const file = filename === undefined ? '' : `; filename="${filename}"\r\nContent-Type: ${type}`;
  return `--${BOUNDARY}\r\nContent-Disposition: ${disposition}${file}\r\n\r\n${value}\r\n`;
}

/** The parts, then the closing boundary. */
export function body(...parts: string[]): string {
  return `${parts.join('')}--${BOUNDARY}--\r\n`;
}

/**
 * The answer to a chunked multipart POST to `path` whose body never ends: only `first` of it is ever sent, so
 * only an answer that does not wait for the rest can come.
 */
export function answerBeforeTheEnd(url: string, path: string, first: string): Promise<string> {
  const { hostname, port } = new URL(url);
  const head = `POST ${path} HTTP/1.1\r\nHost: test.local\r\nContent-Type: ${MULTIPART['Content-Type']}\r\nTransfer-Encoding: chunked\r\n\r\n`;
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = connect(Number(port), hostname, () => socket.write(head + chunked([first]).slice(0, -5)));
    socket.on('data', (data) => {
      text += data;
      if (!wholeAnswer(text, false)) return;
      socket.destroy();
      resolve(text);
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
  });
}
