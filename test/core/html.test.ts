import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeHtml, html, Html, Reply, Result, trustedHtml } from '../../core/index.js';
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
