// A multipart form's method override: its first part alone is read before matching, and names the method
// when it is a `_method` field.
import { HttpError } from '../errors.js';
import { concat, indexOf } from '../util/bytes.js';
import { METHOD_FIELD, methodNamed, type OverrideMethod } from './method-override.js';
import { uploadTooLarge, type UploadLimits } from './multipart.js';
import { partHeaders } from './part-headers.js';

const CRLF = new Uint8Array([13, 10]);
const HEADER_END = new Uint8Array([13, 10, 13, 10]);
const LATIN1 = new TextDecoder('latin1');
// Not fatal: a value that is not UTF-8 names no method, and the route's parser says why it is refused.
const UTF8 = new TextDecoder('utf-8');
// DELETE, the longest method `_method` may name: a longer value names none, so no more of it is read.
const LONGEST = 6;

/** The `400` for a multipart POST with no bytes at all, where `_method` could reach an upload. */
export const EMPTY_FORM = new HttpError(
  400,
  'the multipart body is empty; a form sends its fields (_method first), then a closing boundary',
);

const UNFINISHED = new HttpError(
  400,
  'the multipart body ends before its first part does; a form sends its fields (_method first), then a closing boundary',
);

type State = 'preamble' | 'delimiter' | 'headers' | 'value';
type Step = 'more' | 'next' | 'decided';

/**
 * Reads the first part of a multipart body from chunks pushed as they come (`look`), and nothing after it:
 * a `_method` text field there names the method (`PUT`, `PATCH`, `DELETE`, in any letter case, as in a
 * urlencoded form); any other first part names none. Only a first part counts: honouring one further on
 * would mean holding every file before it until the route is known. Bounded as the route's parser is
 * (`uploads.headerSize` for the preamble and the part's headers, a `_method` value no longer than DELETE):
 * a `400` for a body no form sends, a `413` naming the limit passed.
 */
export class MethodPart {
  /** The method the first part names, once `look` returned `true`; `undefined` when it names none. */
  method: OverrideMethod | undefined = undefined;
  /** Whether the first part decided the method: `false` when the body ended before it did. */
  decided = false;
  private readonly delimiter: Uint8Array;
  private state: State = 'preamble';
  // The first delimiter may open the body, so the body is read as if a line break came before it.
  private pending: Uint8Array = CRLF;
  private size = 0;

  constructor(
    boundary: string,
    private readonly limits: Pick<UploadLimits, 'headerSize'>,
  ) {
    this.delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  }

  /** Why the body ended before the first part decided: it had no bytes, or it was cut short. */
  unfinished(): HttpError {
    return this.size === 0 ? EMPTY_FORM : UNFINISHED;
  }

  /** Takes the next chunk: `true` once the first part decided the method (see `method`), `false` for more. */
  look(chunk: Uint8Array): boolean {
    this.size += chunk.byteLength;
    this.pending = concat(this.pending, chunk);
    let step: Step;
    while ((step = this.step()) === 'next');
    return (this.decided = step === 'decided');
  }

  private step(): Step {
    const bytes = this.pending;
    const headerSize = this.limits.headerSize;
    switch (this.state) {
      case 'preamble': {
        const at = indexOf(bytes, this.delimiter);
        if (at === -1) {
          if (this.size > headerSize)
            throw new HttpError(400, 'the multipart body does not start with its boundary');
          // The preamble is dropped, all but what may start the delimiter.
          this.pending = bytes.subarray(Math.max(0, bytes.byteLength - this.delimiter.byteLength));
          return 'more';
        }
        this.pending = bytes.subarray(at + this.delimiter.byteLength);
        this.state = 'delimiter';
        return 'next';
      }
      case 'delimiter': {
        if (bytes.byteLength < 2) return 'more';
        // The closing delimiter at once: a form with no fields, so no `_method`.
        if (bytes[0] === 45 && bytes[1] === 45) return 'decided';
        if (bytes[0] !== 13 || bytes[1] !== 10)
          throw new HttpError(400, 'a multipart boundary must be followed by a line break');
        this.pending = bytes.subarray(2);
        this.state = 'headers';
        return 'next';
      }
      case 'headers': {
        // A part with no header lines starts with the blank line at once.
        const empty = bytes.byteLength >= 2 && bytes[0] === 13 && bytes[1] === 10;
        const at = empty ? -2 : indexOf(bytes, HEADER_END);
        if (at === -1 || at > headerSize) {
          if (bytes.byteLength > headerSize + 3 || at > headerSize)
            throw uploadTooLarge(
              `the first part's headers are larger than ${headerSize} bytes`,
              'headerSize',
              headerSize,
            );
          return 'more';
        }
        const { name, filename } = partHeaders(LATIN1.decode(bytes.subarray(0, Math.max(0, at))));
        // A file, or a field of another name, first: the form is the POST it says it is.
        if (name !== METHOD_FIELD || filename !== undefined) return 'decided';
        this.pending = bytes.subarray(at + 4);
        this.state = 'value';
        return 'next';
      }
      case 'value': {
        const at = indexOf(bytes.subarray(0, LONGEST + this.delimiter.byteLength), this.delimiter);
        if (at === -1) return bytes.byteLength >= LONGEST + this.delimiter.byteLength ? 'decided' : 'more';
        this.method = methodNamed(UTF8.decode(bytes.subarray(0, at)));
        return 'decided';
      }
    }
  }
}
