import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { HttpError, openapi, paths, resource } from '../../core/index.js';
import { boundaryOf, MultipartParser, UPLOAD_LIMITS } from '../../core/request/multipart.js';
import { MethodPart } from '../../core/request/multipart.js';
import { isMultipart } from '../../core/request/method-override.js';
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

/** What `MethodPart` makes of `text` pushed in chunks of `size`: the method, none, or the refusal's detail. */
function firstPart(text: string, size: number): string {
  const bytes = new TextEncoder().encode(text);
  const part = new MethodPart(B, { headerSize: 64 });
  try {
    for (let at = 0; at < bytes.byteLength; at += size)
      if (part.look(bytes.subarray(at, at + size))) return part.method ?? 'none';
    return `unfinished: ${part.unfinished().detail}`;
  } catch (error) {
    return `${(error as HttpError).status}: ${(error as HttpError).detail}`;
  }
}

const field = (name: string, value: string, more = '') =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"${more}\r\n\r\n${value}\r\n`;

test('MethodPart :: the first part alone decides, whatever the chunks; the rest is never looked at', () => {
  const cases: Array<[string, string]> = [
    [`${field('_method', 'put')}--${B}--`, 'PUT'],
    [`preamble\r\n${field('_method', 'Patch')}--${B}`, 'PATCH'],
    [`${field('_method', 'DELETE')}--${B}\r\ngarbage that is never read`, 'DELETE'],
    [`${field('_method', 'GET')}--${B}--`, 'none'],
    [`${field('_method', 'DELETED')}--${B}--`, 'none'],
    [`${field('_method', 'x'.repeat(100))}`, 'none'],
    [`${field('_method', 'PUT', '; filename="m.txt"')}--${B}--`, 'none'],
    [`${field('title', 'T')}${field('_method', 'PUT')}--${B}--`, 'none'],
    [`--${B}--\r\n`, 'none'],
    [
      `--${B}\r\n\r\nPUT\r\n--${B}--`,
      '400: a multipart part has no name: each needs Content-Disposition: form-data; name="…"',
    ],
    [`--${B}\r\nnonsense\r\n\r\nPUT`, '400: a multipart part has a malformed header line'],
    [`--${B}xx`, '400: a multipart boundary must be followed by a line break'],
    ['x'.repeat(100), '400: the multipart body does not start with its boundary'],
    [
      `--${B}\r\nX-Pad: ${'p'.repeat(80)}\r\n\r\n`,
      "413: the first part's headers are larger than 64 bytes (uploads.headerSize: 64)",
    ],
    [
      '',
      'unfinished: the multipart body is empty; a form sends its fields (_method first), then a closing boundary',
    ],
    [
      field('_method', 'PU').slice(0, -2),
      'unfinished: the multipart body ends before its first part does; a form sends its fields (_method first), then a closing boundary',
    ],
  ];
  for (const [text, expected] of cases)
    for (const size of [1, 2, 5, 64, text.length || 1])
      assert.is(firstPart(text, size), expected, `${JSON.stringify(text.slice(0, 40))} in chunks of ${size}`);
});

test('isMultipart :: multipart/form-data in any case, with parameters or none; nothing else', () => {
  for (const type of ['multipart/form-data; boundary=x', 'Multipart/Form-Data', ' multipart/form-data ;b=1'])
    assert.ok(isMultipart(type), type);
  for (const type of ['multipart/mixed; boundary=x', 'multipart/form-datax', 'text/plain', '', undefined])
    assert.not.ok(isMultipart(type), String(type));
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

test('paths().form() :: a route with a file field gets enctype multipart/form-data, _method first for PUT', () => {
  const p = paths(avatars);
  assert.equal(p.avatars.create.form(), {
    action: '/avatars',
    method: 'POST',
    enctype: 'multipart/form-data',
    fields: {},
  });
  const edit = p.avatars.update.form({ avatar_id: '1' });
  assert.equal(edit, {
    action: '/avatars/1',
    method: 'POST',
    enctype: 'multipart/form-data',
    fields: { _method: 'PUT' },
  });
  assert.equal(Object.keys(edit.fields), ['_method']);
  assert.ok(Object.isFrozen(edit) && Object.isFrozen(edit.fields));
});

test('openapi() :: a form reaches an upload PUT as multipart, _method first, and a DELETE as urlencoded', () => {
  const both = resource(
    'avatars',
    { update: () => ({}), destroy: () => undefined },
    { schemas: { update: { body: Avatar } } },
  );
  const doc = openapi(both) as any;
  const post = doc.paths['/avatars/{avatar_id}'].post;
  // A shape used more than once is under components.schemas, a $ref where it was.
  const resolved = (schema: any) =>
    schema.$ref === undefined ? schema : doc.components.schemas[schema.$ref.split('/').pop()];
  const { content } = post.requestBody;
  assert.equal(Object.keys(content), ['application/x-www-form-urlencoded', 'multipart/form-data']);
  assert.equal(content['multipart/form-data'].schema.allOf[0].properties._method.const, 'PUT');
  assert.equal(resolved(content['multipart/form-data'].schema.allOf[1]), Avatar);
  assert.equal(content['application/x-www-form-urlencoded'].schema.properties._method.const, 'DELETE');
  assert.match(post.description, /multipart\/form-data POST whose first part is a `_method` field/);
  const only = (openapi(avatars) as any).paths['/avatars/{avatar_id}'].post.requestBody.content;
  assert.equal(Object.keys(only), ['multipart/form-data']);
});

test('openapi() :: a route with a file field documents multipart/form-data with its binary fields', () => {
  const doc = openapi(avatars) as any;
  const content = doc.paths['/avatars'].post.requestBody.content;
  assert.equal(Object.keys(content), ['multipart/form-data']);
  const schema = content['multipart/form-data'].schema;
  const body = schema.$ref === undefined ? schema : doc.components.schemas[schema.$ref.split('/').pop()];
  assert.equal(body.properties.picture, {
    type: 'string',
    format: 'binary',
  });
});

test.run();
