import { pino } from 'pino';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openapi, resource, scope, type Logger } from '../../core/index.js';
import { requestId, requestLog } from '../../core/features/logging/index.js';
import { SILENT } from '../../core/util/logger.js';
import { safeRequestId } from '../../core/features/logging/request-id.js';
import { loggable } from '../../core/features/logging/request-log.js';

// requestId() and requestLog() called directly: which ids are kept, what each refuses at definition time, what
// an error's line may show. test/http/request-ids.test.ts and request-logs.test.ts serve them.

const KEPT = [
  'a',
  'abc-123',
  '0f8fad5b-d9cb-469f-a165-70867728950e',
  '01ARZ3NDEKTSV4RRFFQ69G5FAV',
  'dGVzdCBpZA==',
  'Root=1-5759e988-bd862e3fe1be46a994272793',
  'user@host:443/path_1.2+x',
  'x'.repeat(128),
];
const REPLACED: Array<[string, unknown]> = [
  ['empty', ''],
  ['129 characters', 'x'.repeat(129)],
  ['a space', 'two words'],
  ['two headers joined', 'abc, abc'],
  ['a comma', 'a,b'],
  ['a semicolon', 'a;b'],
  ['a tab', 'a\tb'],
  ['CR LF', 'a\r\nX-Evil: 1'],
  ['a bare LF', 'a\nb'],
  ['NUL', 'a\u0000b'],
  ['non-ASCII', 'café'],
  ['UTF-8 read as latin1', 'cafÃ©'],
  ['markup', '<script>'],
  ['quotes', '"id"'],
  ['no header', undefined],
  ['an array', ['a', 'b']],
];

test('safeRequestId() :: short ids of the usual alphabets are kept', () => {
  for (const id of KEPT) assert.is(safeRequestId(id), id, id);
});

test('safeRequestId() :: anything long, spaced, joined, controlled or non-ASCII is replaced', () => {
  for (const [what, value] of REPLACED) assert.is(safeRequestId(value), undefined, what);
});

test('requestId() :: a hook named for the listing, documenting its header on every response', () => {
  const id = requestId();
  assert.is(id.kind, 'hook');
  assert.is(id.name, 'requestId');
  const posts = resource('posts', { index: () => [] });
  const doc = openapi(scope({ hooks: [id] }, posts), { title: 't', version: '1' }) as {
    paths: Record<string, { get: { responses: Record<string, { headers?: Record<string, unknown> }> } }>;
  };
  const responses = doc.paths['/posts']!.get.responses;
  assert.ok(Object.keys(responses).length > 1);
  for (const [status, response] of Object.entries(responses))
    assert.ok(response.headers?.['X-Request-Id'] !== undefined, `${status} lists X-Request-Id`);
  const custom = requestId({ header: 'X-Correlation-Id' });
  assert.ok(custom.openapi?.headers?.['X-Correlation-Id'] !== undefined);
});

test('requestId() :: a bad header name or options is a TypeError naming the fix', () => {
  for (const header of ['', 'X Request Id', 'X-Id\r\nX-Evil', 'X-Id:', 42]) {
    assert.throws(
      () => requestId({ header: header as string }),
      (error: Error) => error instanceof TypeError && /header must be a header name/.test(error.message),
      String(header),
    );
  }
  assert.throws(() => requestId(null as never), /options must be an object/);
  assert.throws(() => requestId({ name: 'X-Id' } as never), /unknown option "name"; it takes header/);
});

const pinoLike = (): Logger => ({ ...SILENT, child: () => SILENT });

test('requestLog() :: anything but a pino-compatible logger is refused, naming what it needs', () => {
  for (const given of [undefined, null, {}, console, { info() {} }, 'pino']) {
    assert.throws(
      () => requestLog(given as never),
      (error: Error) =>
        error instanceof TypeError &&
        /pino-compatible \(trace, .*child\), e\.g\. pino\(\)/.test(error.message),
      String(given),
    );
  }
  assert.is(requestLog(pinoLike()).name, 'requestLog');
});

test('requestLog() :: bad options are refused at definition time', () => {
  assert.throws(() => requestLog(pinoLike(), null as never), /options must be an object/);
  assert.throws(() => requestLog(pinoLike(), { level: 'warn' as never }), /level must be a function/);
  assert.throws(() => requestLog(pinoLike(), { redact: [''] }), /redact must list header names, got ""/);
  assert.throws(() => requestLog(pinoLike(), { redact: [7 as never] }), /redact must list header names/);
  assert.throws(() => requestLog(pinoLike(), { redact: 'X-Api-Key' as never }), /redact must be an array/);
  assert.throws(
    () => requestLog(pinoLike(), { redacted: ['X-Api-Key'] } as never),
    /unknown option "redacted"; it takes redact and level/,
  );
});

test('loggable() :: an error keeps its class, message, stack and causes, and nothing else it carries', () => {
  class UpstreamError extends Error {}
  const cause = Object.assign(new Error('connection refused'), { password: 'hunter2' });
  const error = Object.assign(new UpstreamError('the store failed', { cause }), {
    config: { headers: { Authorization: 'Bearer secret' } },
  });
  const logged = loggable(error);
  assert.ok(logged instanceof Error);
  assert.is(logged.constructor, UpstreamError, 'the class, for the serializer to name');
  assert.is(logged.message, 'the store failed');
  assert.is(logged.stack, error.stack);
  assert.is((logged.cause as Error).message, 'connection refused');
  assert.equal(Object.keys(logged), []);
  assert.not.match(JSON.stringify({ ...logged, cause: { ...(logged.cause as object) } }), /secret|hunter2/);
  const named = Object.assign(new Error('x'), { name: 'StoreError' });
  assert.is(loggable(named).name, 'StoreError');
});

test('loggable() :: pino writes it as type, message and stack, a DOMException too', () => {
  const lines: string[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const cause = new RangeError('out of range');
  log.error({ err: loggable(new TypeError('bad input', { cause })) }, 'x');
  log.error({ err: loggable(new DOMException('the operation was aborted', 'AbortError')) }, 'y');
  const [typed, aborted] = lines.map((line) => JSON.parse(line).err);
  assert.equal(Object.keys(typed), ['type', 'message', 'stack']);
  assert.is(typed.type, 'TypeError');
  assert.is(typed.message, 'bad input: out of range');
  assert.match(typed.stack, /^TypeError: bad input\n[^]*\ncaused by: RangeError: out of range/);
  assert.equal(Object.keys(aborted), ['type', 'message', 'stack']);
  assert.is(aborted.type, 'DOMException');
  assert.is(aborted.message, 'the operation was aborted');
});

test('loggable() :: a thrown non-Error is named by its value, an object by its kind only', () => {
  assert.is(loggable('boom').message, 'a non-Error was thrown: boom');
  assert.is(loggable(42).message, 'a non-Error was thrown: 42');
  assert.is(loggable({ token: 'secret' }).message, 'a non-Error was thrown: an object');
  const circular: Error & { cause?: unknown } = new Error('loop');
  circular.cause = circular;
  assert.is(loggable(circular).message, 'loop', 'a cause chain that loops is cut');
});

test.run();
