import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError, openapi, paths, resource } from '../../core/index.js';
import { boundaryOf, MultipartParser, UPLOAD_LIMITS } from '../../core/request/multipart.js';
import { fileFields, isFileSchema } from '../../core/request/file-fields.js';

const B = 'xYz';
const BODY =
  `preamble\r\n--${B}\r\nContent-Disposition: form-data; name="title"\r\n\r\nH\u00e9llo\r\n` +
  `--${B}\r\nContent-Disposition: form-data; name="tag"\r\n\r\na\r\n` +
  `--${B}\r\nContent-Disposition: form-data; name="tag"\r\n\r\nb\r\n` +
  `--${B}\r\nContent-Disposition: form-data; name="doc"; filename="r\\"e.txt"\r\nContent-Type: text/csv\r\n\r\n` +
  `a,b\r\n-${B}\r\n--${B}--\r\nepilogue`;

/** Pushes `bytes` in chunks of `size`, so every boundary falls across chunks somewhere. */
function parse(bytes: Uint8Array, size: number): MultipartParser {
  const parser = new MultipartParser(B, UPLOAD_LIMITS);
  for (let at = 0; at < bytes.byteLength; at += size) parser.write(bytes.subarray(at, at + size));
  parser.end();
  return parser;
}

test('MultipartParser :: the same fields and files whatever the chunks; repeats are arrays', async () => {
  const bytes = new TextEncoder().encode(BODY);
  for (const size of [1, 2, 3, 7, 13, bytes.byteLength]) {
    const parser = parse(bytes, size);
    assert.equal({ ...parser.fields }, { title: 'Héllo', tag: ['a', 'b'] }, `chunks of ${size}`);
    const doc = parser.files.doc as File;
    assert.is(doc.name, 'r"e.txt');
    assert.is(doc.type, 'text/csv');
    assert.is(await doc.text(), `a,b\r\n-${B}`, `chunks of ${size}`);
  }
});

test('MultipartParser :: the fields have no prototype, so no key reaches Object.prototype', () => {
  const parser = parse(new TextEncoder().encode(BODY), 5);
  assert.not.ok('toString' in parser.fields);
  assert.not.ok('hasOwnProperty' in parser.files);
});

test('boundaryOf :: the boundary, or a 400 when there is none', () => {
  assert.is(boundaryOf('multipart/form-data; boundary="a b"'), 'a b');
  assert.throws(
    () => boundaryOf('multipart/form-data'),
    (e: unknown) => e instanceof HttpError && e.status === 400,
  );
  assert.throws(
    () => boundaryOf(`multipart/form-data; boundary=${'x'.repeat(71)}`),
    (e: unknown) => e instanceof HttpError && e.status === 400,
  );
});

test('fileFields :: format binary and contentMediaType strings are files; nothing else is', () => {
  assert.ok(isFileSchema({ type: 'string', format: 'binary' }));
  assert.ok(isFileSchema({ type: 'string', contentMediaType: 'image/png' }));
  assert.not.ok(isFileSchema({ type: 'string', contentMediaType: 'image/png', contentEncoding: 'base64' }));
  assert.not.ok(isFileSchema({ type: 'string' }));
  assert.equal(
    fileFields({
      type: 'object',
      properties: { a: { type: 'string' }, f: { type: 'string', format: 'binary' } },
    }),
    ['f'],
  );
  assert.equal(fileFields(undefined), []);
});

const Avatar = {
  type: 'object',
  required: ['name', 'picture'],
  properties: { name: { type: 'string' }, picture: { type: 'string', format: 'binary' } },
} as const;
const avatars = resource(
  'avatars',
  { create: () => ({}), update: () => ({}) },
  { schemas: { create: { body: Avatar }, update: { body: Avatar } } },
);

test('paths().form() :: a route with a file field gets enctype multipart/form-data; PATCH with files is refused', () => {
  const p = paths(avatars);
  assert.equal(p.avatars.create.form(), {
    action: '/avatars',
    method: 'POST',
    enctype: 'multipart/form-data',
    fields: {},
  });
  assert.throws(() => p.avatars.update.form({ avatar_id: '1' }), /cannot upload files with P(UT|ATCH)/);
});

test('openapi() :: a route with a file field documents multipart/form-data with its binary fields', () => {
  const doc = openapi(avatars) as any;
  const content = doc.paths['/avatars'].post.requestBody.content;
  assert.equal(Object.keys(content), ['multipart/form-data']);
  assert.equal(content['multipart/form-data'].schema.properties.picture, {
    type: 'string',
    format: 'binary',
  });
});

test.run();
