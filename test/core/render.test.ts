import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { created, html, HttpError, json, noContent, redirect, text, trustedHtml } from '../../core/index.js';
import { Reply } from '../../core/response/reply.js';
import { renderError, renderMiss, renderResult } from '../../core/response/render.js';

const plain = (r: { status: number; headers: Record<string, string>; body: unknown }) => ({
  ...r,
  headers: { ...r.headers },
});

test('renderResult() :: values are 200 JSON, undefined is 204, results speak for themselves', () => {
  assert.equal(plain(renderResult({ a: 1 }, null)), {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: '{"a":1}',
  });
  assert.equal(plain(renderResult(null, null)), {
    status: 200,
    headers: { 'Content-Type': 'application/json; charset=utf-8' },
    body: 'null',
  });
  assert.equal(plain(renderResult(undefined, null)), { status: 204, headers: {}, body: '' });
  assert.equal(plain(renderResult(noContent(), null)), { status: 204, headers: {}, body: '' });
  assert.equal(plain(renderResult(created('/posts/1', { id: '1' }), null)), {
    status: 201,
    headers: { 'Content-Type': 'application/json; charset=utf-8', Location: '/posts/1' },
    body: '{"id":"1"}',
  });
  assert.equal(plain(renderResult(created('/posts/1'), null)), {
    status: 201,
    headers: { Location: '/posts/1' },
    body: '',
  });
  assert.equal(plain(renderResult(redirect('/posts', 303), null)), {
    status: 303,
    headers: { Location: '/posts' },
    body: '',
  });
  assert.equal(plain(renderResult(html(trustedHtml('<p>x</p>'), 422), null)).headers, {
    'Content-Type': 'text/html; charset=utf-8',
  });
  assert.equal(plain(renderResult(text('x'), null)).headers, { 'Content-Type': 'text/plain; charset=utf-8' });
  assert.is(renderResult(json([1], 202), null).status, 202);
});

test('renderResult() :: headers added with Reply.header() are sent', () => {
  const reply = new Reply().header('Link', '<next>').header('X-Count', '2');
  assert.equal(plain(renderResult([], reply.headers)).headers, {
    'Content-Type': 'application/json; charset=utf-8',
    Link: '<next>',
    'X-Count': '2',
  });
  assert.is(new Reply().created('/x').status, 201);
});

test('Reply :: its helpers are the free ones, headers included', () => {
  const res = new Reply();
  const extra = { 'X-Request-Id': '7' };
  assert.equal(res.json({ a: 1 }, 202, extra), json({ a: 1 }, 202, extra));
  assert.equal(res.html(trustedHtml('<p>x</p>'), 422, extra), html(trustedHtml('<p>x</p>'), 422, extra));
  assert.equal(res.text('x', 418, extra), text('x', 418, extra));
  assert.equal(res.json([1]), json([1]));
  assert.equal(res.created('/x', { id: 'x' }), created('/x', { id: 'x' }));
  assert.equal(res.redirect('/x', 303), redirect('/x', 303));
  assert.equal(res.noContent(), noContent());
  assert.equal(res.text('x', 200, extra).headers, extra);
});

test('renderResult() :: headers replace others whatever their letter case', () => {
  const reply = new Reply()
    .header('content-type', 'application/vnd.api+json')
    .header('X-Count', '2')
    .header('x-count', '3');
  assert.equal(plain(renderResult({}, reply.headers)).headers, {
    'content-type': 'application/vnd.api+json',
    'x-count': '3',
  });
  assert.equal(
    plain(renderError(new HttpError(429, 'slow down', { headers: { 'content-type': 'text/plain' } })))
      .headers,
    { 'content-type': 'text/plain', Vary: 'Accept' },
  );
});

test('renderResult() :: a value without a JSON form is an error, not an empty 200', () => {
  assert.throws(() => renderResult(() => 1, null), /handler returned a function/);
  assert.throws(() => renderResult({ n: 1n }, null));
});

test('renderError() :: HttpError as problem+json; anything else a bare 500', () => {
  const error = new HttpError(422, 'the post is not valid', {
    errors: { title: ['is required'] },
    headers: { 'Retry-After': '1' },
  });
  assert.equal(plain(renderError(error)), {
    status: 422,
    headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '1', Vary: 'Accept' },
    body: '{"type":"about:blank","title":"Unprocessable Content","status":422,"detail":"the post is not valid","errors":{"title":["is required"]}}',
  });
  const secret = new Error('password=hunter2 at /srv/app.js:1');
  const out = renderError(secret);
  assert.is(out.status, 500);
  assert.is(out.body, '{"type":"about:blank","title":"Internal Server Error","status":500}');
  assert.not.match(out.body, /hunter2|srv/);
  assert.is(renderError('a string').status, 500);
});

test('HttpError :: name, title, type and status range', () => {
  const error = new HttpError(409, 'taken', { title: 'Id Taken', type: 'https://example.com/id-taken' });
  assert.is(error.name, 'HttpError');
  assert.is(error.message, 'taken');
  assert.equal(error.toProblem(), {
    type: 'https://example.com/id-taken',
    title: 'Id Taken',
    status: 409,
    detail: 'taken',
  });
  assert.is(new HttpError(404).message, 'Not Found');
  assert.throws(() => new HttpError(200), /status must be an integer from 400 to 599/);
  assert.throws(() => new HttpError(4040), RangeError);
});

test('renderMiss() :: OPTIONS 204, other methods 405 with Allow, 404 and 400', () => {
  const allow = 'GET, HEAD, OPTIONS';
  assert.equal(plain(renderMiss({ kind: 'method-not-allowed', allow }, 'OPTIONS')), {
    status: 204,
    headers: { Allow: allow },
    body: '',
  });
  const denied = renderMiss({ kind: 'method-not-allowed', allow }, 'DELETE');
  assert.is(denied.status, 405);
  assert.is(denied.headers.Allow, allow);
  assert.is(renderMiss({ kind: 'not-found' }, 'GET').status, 404);
  assert.is(renderMiss({ kind: 'bad-request', detail: 'bad' }, 'GET').status, 400);
});

test.run();
