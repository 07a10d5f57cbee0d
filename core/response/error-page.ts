// The plain HTML page a browser gets for an error when the app gives no errorPage.
import type { HttpError } from '../errors.js';
import type { HandlerRequest } from '../types.js';
import { htmlTemplate as html, type Html } from './html.js';

/**
 * The page a browser shows for an error: the same status, title, detail and field errors as
 * the problem+json document, escaped, readable with no CSS or script; and the request id, when
 * given, for a person to quote.
 */
export function errorPage(
  error: HttpError,
  _request?: HandlerRequest<any, any, any, any>,
  requestId?: string,
): Html {
  const problem = error.toProblem();
  const fields = fieldErrors(problem.errors);
  // Markup kept as written: the page is what a person reads, so its layout is part of the test.
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${problem.status} ${problem.title}</title>
</head>
<body>
<main>
<h1>${problem.title}</h1>
${problem.detail !== undefined && html`<p>${problem.detail}</p>`}
${
  fields.length > 0 &&
  html`<ul>
${fields.map(([field, messages]) => html`<li>${field === '' ? 'The request' : field}: ${messages.join('; ')}</li>\n`)}</ul>`
}
${requestId !== undefined && html`<p>Request id: <code>${requestId}</code></p>\n`}<p>Error ${problem.status}. <a href="/">Home</a></p>
</main>
</body>
</html>
`;
}

/** `errors` as field → messages, when it has that shape (the one sevenfold's 422s use). */
function fieldErrors(errors: unknown): Array<[string, string[]]> {
  if (errors === null || typeof errors !== 'object' || Array.isArray(errors)) return [];
  return Object.entries(errors).map(([field, messages]): [string, string[]] => [
    field,
    Array.isArray(messages) ? messages.map(String) : [String(messages)],
  ]);
}
