// Step 5 for a multipart/form-data body: streamed through the parser under the upload limits, its files set
// apart while the schema checks the rest.
import { HttpError } from '../../core/errors.js';
import {
  boundaryOf,
  MultipartParser,
  uploadTooLarge,
  type UploadLimits,
} from '../../core/request/multipart.js';
import { METHOD_FIELD } from '../../core/request/method-override.js';
import type { BodyHeaders, Exchange } from './exchange.js';
import type { Fail } from './tracing.js';

/**
 * Reads an upload: text fields become the body (coerced by the schema as a urlencoded form's are), each file
 * field holds `''` until the schema has checked it (ajv knows no `File`), then `withFiles` puts the files back.
 */
export function readUploads(
  x: Exchange,
  headers: BodyHeaders,
  fileFields: readonly string[],
  limits: UploadLimits,
  next: (x: Exchange) => void,
  fail: Fail,
): void {
  let parser: MultipartParser;
  try {
    parser = new MultipartParser(boundaryOf(headers.type!), limits);
  } catch (error) {
    return fail(x, error);
  }
  x.readStream(
    headers,
    (chunk) => parser.write(chunk),
    (x, error) => {
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
    if (!fileFields.includes(name))
      throw new HttpError(400, `field "${name}" takes text, not a file`, {
        errors: { [name]: ['must be text'] },
      });
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
