import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeHtml, html, Result, safeUrl, trustedHtml } from '../../core/index.js';
import { Html, UNSAFE_URL } from '../../core/response/html.js';
import { Reply } from '../../core/response/reply.js';
import { errorPage } from '../../core/response/error-page.js';
import { HttpError } from '../../core/errors.js';

test('html tag :: every interpolated value is escaped, in text and in attributes', () => {
  const title = `<script>alert("x")</script> & 'quotes'`;
  const page = html`<h1 title="${title}">${title}</h1>`;
  assert.ok(page instanceof Html);
  assert.is(
    page.toString(),
    '<h1 title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;</h1>',
  );
});

test('html tag :: nested templates and lists of them stay markup; false, null and undefined render nothing', () => {
  const items = ['a<b', 'c'];
  const list = html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`;
  assert.is(list.toString(), '<ul><li>a&lt;b</li><li>c</li></ul>');
  assert.is(html`${false}${null}${undefined}${0}${''}`.toString(), '0');
  assert.is(html`${false && html`<b>never</b>`}${true && html`<i>shown</i>`}`.toString(), '<i>shown</i>');
});

test('html tag :: a string is never markup by accident; trustedHtml() says so on purpose', () => {
  const markup = '<em>mine</em>';
  assert.is(html`${markup}`.toString(), '&lt;em&gt;mine&lt;/em&gt;');
  assert.is(html`${trustedHtml(markup)}`.toString(), markup);
  assert.is(escapeHtml(`&<>"'`), '&amp;&lt;&gt;&quot;&#39;');
});

test('html tag :: a text value in a URL attribute is a link people can trust: http(s), mailto, tel or relative', () => {
  const link = (url: string) => html`<a href="${url}">x</a>`.toString();
  for (const kept of [
    '/posts/1?x=1',
    'posts',
    '#top',
    '//cdn.example/a.css',
    'https://a.example/p',
    'HTTP://A.EXAMPLE',
    'mailto:ada@example.org',
    'tel:+331',
  ])
    assert.is(link(kept), `<a href="${escapeHtml(kept)}">x</a>`, kept);
  for (const bad of [
    'javascript:alert(1)',
    ' JavaScript:alert(1)',
    '\u0001javascript:alert(1)',
    'java\tscript:alert(1)',
    'jav\nascript:x',
    'data:text/html,<script>',
    'vbscript:x',
    'blob:https://a',
  ])
    assert.is(link(bad), `<a href="${UNSAFE_URL}">x</a>`, JSON.stringify(bad));
  assert.is(
    html`<img src='${'javascript:x'}' alt="${'javascript:x'}">`.toString(),
    `<img src='${UNSAFE_URL}' alt="javascript:x">`,
  );
  assert.is(html`<form action=${'javascript:x'}>`.toString(), `<form action=${UNSAFE_URL}>`);
  assert.is(
    html`<a href="${trustedHtml('javascript:void 0')}">`.toString(),
    '<a href="javascript:void 0">',
    'Html is trusted as it is',
  );
  assert.is(
    html`<p>${'javascript:alert(1)'}</p>`.toString(),
    '<p>javascript:alert(1)</p>',
    'text outside a URL attribute is only escaped',
  );
  assert.is(safeUrl('/a?next=javascript:x'), '/a?next=javascript:x', 'a colon after the path is no scheme');
});

test('html() called :: an HTML response from Html, with status and headers', () => {
  const result = html(html`<p>${'<'}</p>`, 422, { 'X-A': '1' });
  assert.ok(result instanceof Result);
  assert.equal(
    [result.status, result.kind, result.body, result.headers],
    [422, 'html', '<p>&lt;</p>', { 'X-A': '1' }],
  );
  assert.equal(
    [html(trustedHtml('<p>raw</p>')).status, html(trustedHtml('<p>raw</p>')).body],
    [200, '<p>raw</p>'],
  );
});

test('html() called :: a plain string passed anyway is text, escaped, never markup', () => {
  const markup = '<script>alert(1)</script>';
  // The types refuse a string (test/types/api.check.ts); JavaScript callers and casts still get it escaped.
  assert.is(html(markup as unknown as Html).body, '&lt;script&gt;alert(1)&lt;/script&gt;');
  assert.is(new Reply().html(markup as never, 422).body, '&lt;script&gt;alert(1)&lt;/script&gt;');
  assert.is(new Reply().html(markup as never, 422).status, 422);
});

test('errorPage :: title, detail and field errors escaped, with lang and a title', () => {
  const page = errorPage(
    new HttpError(422, 'the post <b>is</b> not valid', { errors: { title: ['is required'], '': ['<x>'] } }),
  ).toString();
  assert.match(page, /^<!doctype html>\n<html lang="en">/);
  assert.match(page, /<title>422 Unprocessable Content<\/title>/);
  assert.match(page, /<p>the post &lt;b&gt;is&lt;\/b&gt; not valid<\/p>/);
  assert.match(page, /<li>title: is required<\/li>/);
  assert.match(page, /<li>The request: &lt;x&gt;<\/li>/);
});

test('errorPage :: names the request id when given, escaped, and is unchanged without one', () => {
  const plain = errorPage(new HttpError(404)).toString();
  const named = errorPage(new HttpError(404), undefined, 'abc<1>').toString();
  assert.is(
    named,
    plain.replace('<p>Error 404.', '<p>Request id: <code>abc&lt;1&gt;</code></p>\n<p>Error 404.'),
  );
});

test.run();
