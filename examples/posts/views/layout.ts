// The site's layout: one HTML page around every view and error page, escaped by default.
import { html, trustedHtml, type HttpError, type Html, type HtmlValue, type Result } from 'sevenfold';
import { type Flash } from 'sevenfold/sessions';
import type { PostsPaths } from '../routes.js';

// Markup in this folder is kept as written (prettier leaves html`…` alone): it is what a person reads.

/** The whole style sheet: small enough to send inline with every page, so a page is one request. */
export const STYLE = `
:root { color-scheme: light; font-family: system-ui, sans-serif; line-height: 1.5; color: #1b1b1b; background: #fff; }
body { margin: 0; }
header, main { max-width: 42rem; margin: 0 auto; padding: 0 1rem; }
header { border-bottom: 1px solid #d0d0d0; padding-top: .75rem; padding-bottom: .75rem; }
header a { font-weight: 600; }
a { color: #0a4fb8; }
h1 { font-size: 1.6rem; line-height: 1.25; overflow-wrap: anywhere; }
ul.posts { list-style: none; padding: 0; }
ul.posts li { display: flex; gap: 1rem; justify-content: space-between; padding: .5rem 0; border-bottom: 1px solid #e4e4e4; }
ul.posts li > a:first-child { overflow-wrap: anywhere; }
.post-body { white-space: pre-wrap; overflow-wrap: anywhere; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: .25rem 1rem; color: #4a4a4a; }
dl.meta dd { margin: 0; }
label { display: block; font-weight: 600; margin-top: 1rem; }
input[type=text], input[type=password], textarea { box-sizing: border-box; width: 100%; font: inherit; padding: .4rem; border: 1px solid #6b6b6b; border-radius: 4px; }
textarea { min-height: 10rem; }
.hint { margin: .25rem 0 0; color: #4a4a4a; font-size: .9rem; }
.field-error { margin: .25rem 0 0; color: #a4001d; font-weight: 600; }
[aria-invalid=true] { border-color: #a4001d; border-width: 2px; }
.summary { border: 2px solid #a4001d; border-radius: 4px; padding: .5rem 1rem; margin: 1rem 0; }
.actions { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; margin-top: 1.5rem; }
button { font: inherit; padding: .45rem 1rem; border: 0; border-radius: 4px; background: #0a4fb8; color: #fff; cursor: pointer; }
button.danger { background: #a4001d; }
.flash { border-left: 4px solid #0a4fb8; padding: .25rem .75rem; background: #eef3fb; }
header form { display: inline; margin-left: 1rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
`;

/**
 * The style sheet's digest for the policy, written out so the module needs no crypto library at start-up (a
 * Worker has no synchronous one); test/examples/posts-html.test.ts checks it is the digest of `STYLE`.
 */
export const STYLE_HASH = 'sha256-hRghNm6JCqFfBobau91UVWi0UdQvJp2X3wKvVKmtSZw=';

// The pages run no script at all; the policy says so, and lets in only this style sheet and same-origin
// forms.
const POLICY = [
  "default-src 'none'",
  `style-src '${STYLE_HASH}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
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
export function layout(p: PostsPaths, title: string, content: HtmlValue, visitor?: Visitor): Html {
  return frame(p.posts.index(), title, content, visitor);
}

/** The page around `content`, given the address of the site's home (all posts). */
export function frame(home: string, title: string, content: HtmlValue, visitor?: Visitor): Html {
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
<style>${trustedHtml(STYLE)}</style>
</head>
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
