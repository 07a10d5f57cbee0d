// Step 5 for a multipart/form-data body: streamed through the parser under the upload limits, its files set
// apart while the schema checks the rest.
import { HttpError } from '../../core/errors.js';
import {
  boundaryOf,
  MultipartParser,
  textField,
  uploadTooLarge,
  type UploadLimits,
} from '../../core/request/multipart.js';
import { METHOD_FIELD } from '../../core/request/method-override.js';
import type { BodyHeaders, Exchange } from './exchange.js';
import type { Fail } from './tracing.js';

/** The bytes all uploads of one request path hold while they are received, against `uploads.inFlight`. */
export interface UploadBudget {
  held: number;
}

/** The `503` for an upload past what all uploads together may hold: the client may try again soon. */
function busy(limit: number): HttpError {
  return new HttpError(
    503,
    `the server is receiving as many uploads as it holds at once (uploads.inFlight: ${limit}); try again shortly`,
    { headers: { 'Retry-After': '5', Connection: 'close' } },
  );
}

/**
 * Reads an upload: text fields become the body (coerced by the schema as a urlencoded form's are), each file
 * field holds `''` until the schema has checked it (ajv knows no `File`), then `withFiles` puts the files back.
 * What it holds while it arrives counts against `budget`, shared by every upload of the request path.
 */
export function readUploads(
  x: Exchange,
  headers: BodyHeaders,
  fileFields: readonly string[],
  limits: UploadLimits,
  budget: UploadBudget,
  next: (x: Exchange) => void,
  fail: Fail,
): void {
  let parser: MultipartParser;
  // A declared length that cannot fit now is refused before a byte is read.
  const declared = headers.length === undefined ? 0 : Number(headers.length);
  if (budget.held + declared > limits.inFlight) {
    x.closeAfter();
    return fail(x, busy(limits.inFlight));
  }
  try {
    parser = new MultipartParser(boundaryOf(headers.type!), limits, fileFields);
  } catch (error) {
    return fail(x, error);
  }
  let held = 0;
  x.readStream(
    headers,
    (chunk) => {
      held += chunk.byteLength;
      budget.held += chunk.byteLength;
      if (budget.held > limits.inFlight) throw busy(limits.inFlight);
      parser.write(chunk);
    },
    (x, error) => {
      // Once read (or refused), the body is the handler's to hold, or nobody's.
      budget.held -= held;
      held = 0;
      try {
        // A body refused part way is not read to its end: its connection cannot be reused.
        if (error !== undefined) {
          x.closeAfter();
          throw error;
        }
        parser.end();
        if (x.methodPart) dropMethodField(parser.fields);
        x.req.body = uploadBody(parser, fileFields);
      } catch (refusal) {
        return fail(x, refusal);
      }
      x.files = parser.files;
      x.bodyRead = true;
      next(x);
    },
  );
}

/** The text fields, with `''` for each file: a file in a text field or text in a file field is a `400`. */
function uploadBody(parser: MultipartParser, fileFields: readonly string[]): Record<string, unknown> {
  const body: Record<string, unknown> = parser.fields;
  for (const name in parser.files) {
    if (!fileFields.includes(name)) throw textField(name);
    const files = parser.files[name]!;
    body[name] = Array.isArray(files) ? files.map(() => '') : '';
  }
  for (const name of fileFields)
    if (body[name] !== undefined && parser.files[name] === undefined)
      throw new HttpError(400, `field "${name}" takes a file, not text`, {
        errors: { [name]: ['must be a file'] },
      });
  return body;
}

/** Removes the `_method` field the request was routed by (the first of that name), as a urlencoded form's is. */
function dropMethodField(fields: Record<string, string | string[]>): void {
  const asked = fields[METHOD_FIELD];
  if (!Array.isArray(asked)) delete fields[METHOD_FIELD];
  else if (asked.length > 2) asked.shift();
  else fields[METHOD_FIELD] = asked[1]!;
}

/** Puts an upload's files back into the checked body, in place of their placeholders. */
export function withFiles(x: Exchange): void {
  if (x.files !== undefined) Object.assign(x.req.body as object, x.files);
}

/** The `413` for an upload whose declared length is over `uploads.total`. */
export function uploadsTooLarge(total: number): HttpError {
  return uploadTooLarge(`the upload is larger than ${total} bytes`, 'total', total);
}
