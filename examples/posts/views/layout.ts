// The site's layout: one HTML page around every view and error page, escaped by default.
import { html, type HttpError, type Html, type HtmlValue, type Result } from 'sevenfold';
import { type Flash } from 'sevenfold/sessions';
import type { PostsPaths } from '../routes.js';

// Markup in this folder is kept as written (prettier leaves html`…` alone): it is what a person reads.

/**
 * The fingerprinted URL of public/site.css, as sevenfold/assets serves it (deploy/assets.ts), written out so
 * that every runtime's pages are the same bytes, a Worker's too; test/examples/posts-html.test.ts checks it is
 * `postsAssets().url('site.css')`, so a changed style sheet fails there until this is its new URL.
 */
export const STYLESHEET = '/assets/site.6295da7072.css';

/**
 * The fingerprinted URL of public/live.js, the one script of the site (the index page follows its changes
 * with it), and the SHA-256 of its bytes that its tag's `integrity` and the policy both name; written out as
 * `STYLESHEET` is, and test/examples/posts-live-browser.test.ts checks both against the file.
 */
export const LIVE_SCRIPT = '/assets/live.56b6c67daf.js';
export const LIVE_INTEGRITY = 'sha256-VrbGfa97pUnNgHAeRfHhLBicKcE0Oxxwodm0UNB4gIU=';

// The policy runs one script, named by its hash (an external script matches a hash through its `integrity`),
// which may only reach its own origin (its event stream) and may write no markup (Trusted Types, where a
// browser has them); it lets in the site's own style sheet and same-origin forms, and nothing else.
const POLICY = [
  "default-src 'none'",
  `script-src '${LIVE_INTEGRITY}'`,
  "connect-src 'self'",
  "style-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "require-trusted-types-for 'script'",
  "trusted-types 'none'",
].join('; ');

/** The headers every page is sent with. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': POLICY,
  'X-Content-Type-Options': 'nosniff',
};

/** Who is looking: the flash messages to show once and whether they are signed in (`undefined`: no sign-in). */
export interface Visitor {
  readonly flashes: readonly Flash[];
  readonly signedIn: boolean | undefined;
}

/**
 * A complete page: the document around `content`, `title` in the tab and the heading, `p` for the site's
 * links, `visitor` for the flash messages and the "Sign in"/"Sign out" control.
 */
export function layout(
  p: PostsPaths,
  title: string,
  content: HtmlValue,
  visitor?: Visitor,
  live = false,
): Html {
  return frame(p.posts.index(), title, content, visitor, live);
}

/**
 * The page around `content`, given the address of the site's home (all posts); `live` loads public/live.js,
 * for the index page alone, whose content carries the region it speaks in.
 */
export function frame(
  home: string,
  title: string,
  content: HtmlValue,
  visitor?: Visitor,
  live = false,
): Html {
  const control =
    visitor?.signedIn === true
      ? html`<form method="post" action="/session"><input type="hidden" name="_method" value="DELETE"><button>Sign out</button></form>`
      : visitor?.signedIn === false && html` <a href="/session/new">Sign in</a>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Posts</title>
<link rel="stylesheet" href="${STYLESHEET}">
${live && html`<script src="${LIVE_SCRIPT}" integrity="${LIVE_INTEGRITY}" defer></script>\n`}</head>
<body>
<header><nav aria-label="Site"><a href="${home}">All posts</a>${control}</nav></header>
<main>
${
  (visitor?.flashes.length ?? 0) > 0 &&
  html`<div role="status">${visitor!.flashes.map((flash) => html`<p class="flash ${flash.type}">${flash.message}</p>`)}</div>
`
}<h1>${title}</h1>
${content}
</main>
</body>
</html>
`;
}

/** A page as the response: `Html` from a view, its status, and the page headers. */
export function page(markup: Html, status = 200): Result {
  return html(markup, status, PAGE_HEADERS);
}

/**
 * The page a browser gets for an error (the adapters' `errorPage` option): the problem in the site's layout,
 * and the request id (`X-Request-Id`) for a person to quote when they report it.
 */
export function errorView(p: PostsPaths, error: HttpError, requestId?: string): Html {
  const problem = error.toProblem();
  const fields = Object.entries((problem.errors ?? {}) as Record<string, unknown>);
  return layout(
    p,
    problem.title,
    html`${problem.detail !== undefined && html`<p>${problem.detail}</p>`}
${fields.length > 0 && html`<ul>${fields.map(([field, messages]) => html`<li>${field || 'The request'}: ${Array.isArray(messages) ? messages.join('; ') : String(messages)}</li>`)}</ul>`}
${requestId !== undefined && html`<p>Request id: <code>${requestId}</code></p>\n`}<p>Error ${problem.status}. <a href="${p.posts.index()}">Back to all posts</a></p>`,
  );
}
