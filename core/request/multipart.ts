// A streaming multipart/form-data parser: bytes are pushed as they arrive, and every limit is checked
// before more of the body is asked for.
import { parse as parseContentType } from 'content-type';
import { HttpError } from '../errors.js';
import { NullObject } from '../util/null-object.js';
import { concat, concatAll, indexOf } from '../util/bytes.js';
import { METHOD_FIELD, methodNamed, type OverrideMethod } from './method-override.js';

/** The limits of a `multipart/form-data` body; each one passed is a `413` naming it. */
export interface UploadLimits {
  /** The largest file, in bytes. Default 10 MiB. */
  readonly fileSize: number;
  /** How many files a body may hold. Default 10. */
  readonly files: number;
  /** How many text fields a body may hold. Default 100. */
  readonly fields: number;
  /** The largest text field, in bytes. Default 64 KiB. */
  readonly fieldSize: number;
  /** How many parts (fields and files) a body may hold. Default 110. */
  readonly parts: number;
  /** The largest header block of one part, in bytes. Default 8 KiB. */
  readonly headerSize: number;
  /** The largest whole body, in bytes. Default 50 MiB. */
  readonly total: number;
  /**
   * What all uploads being received at once may hold together, in bytes: past it an upload is a `503` (with
   * `Retry-After`), so memory stays bounded however many arrive. Default 256 MiB.
   */
  readonly inFlight: number;
}

/** The default upload limits; docs/uploads.md explains each. */
export const UPLOAD_LIMITS: UploadLimits = Object.freeze({
  fileSize: 10 * 1024 * 1024,
  files: 10,
  fields: 100,
  fieldSize: 64 * 1024,
  parts: 110,
  headerSize: 8 * 1024,
  total: 50 * 1024 * 1024,
  inFlight: 256 * 1024 * 1024,
});

/** The `413` for an upload past `limit` (its name in `uploads`), whose rest is never read. */
export function uploadTooLarge(what: string, limit: keyof UploadLimits, value: number): HttpError {
  return new HttpError(413, `${what} (uploads.${limit}: ${value})`, { headers: { Connection: 'close' } });
}

const CRLF = new Uint8Array([13, 10]);
const HEADER_END = new Uint8Array([13, 10, 13, 10]);
const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const LATIN1 = new TextDecoder('latin1');

/** The boundary of a `multipart/form-data` Content-Type, or a `400` when it has none (or a bad one). */
export function boundaryOf(contentType: string): string {
  const boundary = parseContentType(contentType).parameters.boundary;
  if (boundary === undefined || boundary.length === 0 || boundary.length > 70)
    throw new HttpError(
      400,
      'a multipart/form-data body needs a boundary of 1 to 70 characters in its Content-Type',
    );
  return boundary;
}

type State = 'preamble' | 'delimiter' | 'headers' | 'body' | 'done';

/** One part being read: its field name, and its file name and type when it is a file. */
interface Part {
  readonly name: string;
  readonly filename: string | undefined;
  readonly type: string;
  readonly chunks: Uint8Array[];
  size: number;
}

/**
 * Parses one body pushed in chunks (`write`), then `end` gives its fields: text as strings, files as `File`s,
 * repeated names as arrays, in an object without Object.prototype. Throws a `400` for a malformed body and a
 * `413` at the first limit passed.
 */
export class MultipartParser {
  private readonly delimiter: Uint8Array;
  private state: State = 'preamble';
  // The first delimiter may open the body, so the body is read as if a line break came before it.
  private pending: Uint8Array = CRLF;
  private part: Part | undefined = undefined;
  private size = 0;
  private counts = { parts: 0, files: 0, fields: 0 };
  readonly fields: Record<string, string | string[]> = new NullObject();
  readonly files: Record<string, File | File[]> = new NullObject();

  constructor(
    boundary: string,
    private readonly limits: UploadLimits,
    /** The fields that take files, when known: a file for any other is refused as soon as its headers are read. */
    private readonly fileFields?: readonly string[],
  ) {
    this.delimiter = new TextEncoder().encode(`\r\n--${boundary}`);
  }

  write(chunk: Uint8Array): void {
    this.size += chunk.byteLength;
    if (this.size > this.limits.total)
      throw uploadTooLarge(
        `the upload is larger than ${this.limits.total} bytes`,
        'total',
        this.limits.total,
      );
    if (this.state === 'done') return;
    this.pending = this.pending.byteLength === 0 ? chunk : concat(this.pending, chunk);
    while (this.step());
  }

  /** The fields and files, once the closing boundary came; a `400` when the body stopped before it. */
  end(): void {
    if (this.state !== 'done')
      throw new HttpError(400, 'the multipart body ends before its closing boundary');
  }

  /** One step of the state machine over the bytes pending; `false` when it needs more. */
  private step(): boolean {
    const bytes = this.pending;
    switch (this.state) {
      case 'preamble': {
        const at = indexOf(bytes, this.delimiter);
        if (at === -1) {
          // The preamble is dropped, all but what may start the delimiter.
          this.pending = bytes.subarray(Math.max(0, bytes.byteLength - this.delimiter.byteLength));
          if (this.size > this.limits.headerSize && this.counts.parts === 0)
            throw new HttpError(400, 'the multipart body does not start with its boundary');
          return false;
        }
        this.pending = bytes.subarray(at + this.delimiter.byteLength);
        this.state = 'delimiter';
        return true;
      }
      case 'delimiter': {
        if (bytes.byteLength < 2) return false;
        if (bytes[0] === 45 && bytes[1] === 45) {
          this.state = 'done';
          this.pending = new Uint8Array(0);
          return false;
        }
        if (bytes[0] !== 13 || bytes[1] !== 10)
          throw new HttpError(400, 'a multipart boundary must be followed by a line break');
        this.pending = bytes.subarray(2);
        this.state = 'headers';
        return true;
      }
      case 'headers': {
        // A part with no header lines starts with the blank line at once.
        const empty = bytes.byteLength >= 2 && bytes[0] === 13 && bytes[1] === 10;
        const at = empty ? -2 : indexOf(bytes, HEADER_END);
        const headerSize = this.limits.headerSize;
        if (at === -1 || at > headerSize) {
          if (bytes.byteLength > headerSize + 3 || at > headerSize)
            throw uploadTooLarge(
              `a part's headers are larger than ${headerSize} bytes`,
              'headerSize',
              headerSize,
            );
          return false;
        }
        this.part = this.open(LATIN1.decode(bytes.subarray(0, Math.max(0, at))));
        this.pending = bytes.subarray(at + 4);
        this.state = 'body';
        return true;
      }
      case 'body': {
        const at = indexOf(bytes, this.delimiter);
        if (at === -1) {
          // All but what may start the delimiter is the part's.
          const keep = Math.min(bytes.byteLength, this.delimiter.byteLength - 1);
          this.take(bytes.subarray(0, bytes.byteLength - keep));
          this.pending = bytes.subarray(bytes.byteLength - keep);
          return false;
        }
        this.take(bytes.subarray(0, at));
        this.close();
        this.pending = bytes.subarray(at + this.delimiter.byteLength);
        this.state = 'delimiter';
        return true;
      }
      default:
        return false;
    }
  }

  /** A part's header block read: its name (required), and whether it is a file, counted against the limits. */
  private open(block: string): Part {
    const { parts, files, fields } = this.limits;
    if (++this.counts.parts > parts)
      throw uploadTooLarge(`the upload has more than ${parts} parts`, 'parts', parts);
    const { name, filename, type } = partHeaders(block);
    // A file input left empty (no file name) is counted as a part, not as a file.
    if (filename !== undefined) {
      if (filename !== '' && ++this.counts.files > files)
        throw uploadTooLarge(`the upload has more than ${files} files`, 'files', files);
    } else if (++this.counts.fields > fields)
      throw uploadTooLarge(`the upload has more than ${fields} fields`, 'fields', fields);
    // A file for a field that takes text is refused before a byte of it is held.
    if (
      filename !== undefined &&
      filename !== '' &&
      this.fileFields !== undefined &&
      !this.fileFields.includes(name)
    )
      throw textField(name);
    return { name, filename, type, chunks: [], size: 0 };
  }

  private take(bytes: Uint8Array): void {
    const part = this.part!;
    if (bytes.byteLength === 0) return;
    part.size += bytes.byteLength;
    if (part.filename !== undefined && part.size > this.limits.fileSize)
      throw uploadTooLarge(
        `file "${part.name}" is larger than ${this.limits.fileSize} bytes`,
        'fileSize',
        this.limits.fileSize,
      );
    if (part.filename === undefined && part.size > this.limits.fieldSize)
      throw uploadTooLarge(
        `field "${part.name}" is larger than ${this.limits.fieldSize} bytes`,
        'fieldSize',
        this.limits.fieldSize,
      );
    // A chunk may be reused by the runtime once handed on, so the part keeps its own copy.
    part.chunks.push(bytes.slice());
  }

  private close(): void {
    const part = this.part!;
    this.part = undefined;
    if (part.filename === undefined) return add(this.fields, part.name, text(part));
    // A file input left empty is sent as a file with no name and no bytes: no file.
    if (part.filename === '' && part.size === 0) return;
    add(this.files, part.name, new File(part.chunks as BlobPart[], part.filename, { type: part.type }));
  }
}

/** The `400` for a file sent for a field that takes text. */
export function textField(name: string): HttpError {
  return new HttpError(400, `field "${name}" takes text, not a file`, {
    errors: { [name]: ['must be text'] },
  });
}

function text(part: Part): string {
  try {
    return STRICT_UTF8.decode(part.chunks.length === 1 ? part.chunks[0] : concatAll(part.chunks, part.size));
  } catch {
    throw new HttpError(400, `multipart field "${part.name}" is not valid UTF-8`);
  }
}

function add<T>(into: Record<string, T | T[]>, name: string, value: T): void {
  const seen = into[name];
  if (seen === undefined) into[name] = value;
  else if (Array.isArray(seen)) seen.push(value);
  else into[name] = [seen, value];
}

// The header lines of one multipart part: Content-Disposition's parameters, and names sent in UTF-8.

/** Header text came in as latin1 (one char per byte); browsers send names in UTF-8. */
export function utf8(latin1: string): string {
  const bytes = Uint8Array.from(latin1, (c) => c.charCodeAt(0));
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    return latin1;
  }
}

/** The parameters of `form-data; name="a"; filename="b.txt"` (quoted or not, with `\"` escapes). */
export function dispositionParams(value: string): Map<string, string> | undefined {
  const params = new Map<string, string>();
  const kind = /^\s*form-data\s*(;|$)/i.exec(value);
  if (kind === null) return undefined;
  const pattern = /;?\s*([^\s=;]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/gy;
  pattern.lastIndex = kind[0].length - (kind[1] === ';' ? 1 : 0);
  let found: RegExpExecArray | null;
  while ((found = pattern.exec(value)) !== null) {
    const key = found[1]!.toLowerCase();
    if (!params.has(key))
      params.set(key, found[2] !== undefined ? found[2].replace(/\\(.)/g, '$1') : found[3]!.trim());
  }
  return params;
}

/** What a part's header block says: its field name, its file name when it is a file, and its type. */
export interface PartHeaders {
  readonly name: string;
  readonly filename: string | undefined;
  readonly type: string;
}

/**
 * A part's header block (latin1 text, the lines before its blank line) read; a `400` for a malformed line, a
 * part with no name and a field named `__proto__`.
 */
export function partHeaders(block: string): PartHeaders {
  let disposition: string | undefined;
  let type = 'application/octet-stream';
  for (const line of block.split('\r\n')) {
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon === -1) throw new HttpError(400, `a multipart part has a malformed header line`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') type = value;
  }
  const params = disposition === undefined ? undefined : dispositionParams(disposition);
  const name = params?.get('name');
  if (name === undefined || name === '')
    throw new HttpError(
      400,
      'a multipart part has no name: each needs Content-Disposition: form-data; name="…"',
    );
  if (name === '__proto__') throw new HttpError(400, 'form field "__proto__" is not allowed');
  const filename = params!.get('filename');
  return { name: utf8(name), filename: filename === undefined ? undefined : utf8(filename), type };
}

// A multipart form's method override: its first part alone is read before matching, and names the method
// when it is a `_method` field.
// Not fatal: a value that is not UTF-8 names no method, and the route's parser says why it is refused.
const LENIENT_UTF8 = new TextDecoder('utf-8');
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

type FirstPartState = 'preamble' | 'delimiter' | 'headers' | 'value';
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
  private state: FirstPartState = 'preamble';
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
        this.method = methodNamed(LENIENT_UTF8.decode(bytes.subarray(0, at)));
        return 'decided';
      }
    }
  }
}
