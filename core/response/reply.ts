// What handlers answer with: Result values (json, created, html, redirect…) and the Reply helper `res`.
import { escapeHtml, Html, htmlTemplate, type HtmlValue } from './html.js';
import { NullObject } from '../util/null-object.js';

/** How a result's body is serialised. */
export type ResultKind = 'json' | 'html' | 'text' | 'empty';

/**
 * A response as data: status, body and extra headers. Handlers return one (through the
 * helpers below) when a plain value, sent as `200` JSON, is not what they mean.
 */
export class Result {
  constructor(
    readonly status: number,
    readonly kind: ResultKind,
    readonly body: unknown,
    readonly headers: Readonly<Record<string, string>> | undefined = undefined,
  ) {}
}

/** A JSON response with any status: `json({ ok: true }, 202)`. */
export function json(body: unknown, status = 200, headers?: Record<string, string>): Result {
  return new Result(status, 'json', body, headers);
}

/** `201 Created` with a `Location` header and, when given, the created thing as JSON. */
export function created(location: string, body?: unknown): Result {
  return new Result(201, body === undefined ? 'empty' : 'json', body, { Location: location });
}

/** `204 No Content`; a handler returning `undefined` means the same. */
export function noContent(): Result {
  return new Result(204, 'empty', undefined);
}

/** A redirect with `Location`: 302 by default, 303 after a form post, 301/307/308 as needed. */
export function redirect(location: string, status: 301 | 302 | 303 | 307 | 308 = 302): Result {
  return new Result(status, 'empty', undefined, { Location: location });
}

/**
 * Two uses, one name. As a template tag, `html\`<h1>${title}</h1>\`` builds `Html` with every
 * value escaped (see core/response/html.ts). Called, `html(markup, status, headers)` is an HTML
 * response whose markup is `Html`: from the tag, or `trustedHtml(string)` for markup you trust.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html;
export function html(markup: Html, status?: number, headers?: Record<string, string>): Result;
export function html(first: TemplateStringsArray | Html, ...rest: unknown[]): Html | Result {
  if (isTemplate(first)) return htmlTemplate(first, ...(rest as HtmlValue[]));
  const [status = 200, headers] = rest as [number | undefined, Record<string, string> | undefined];
  // A plain string (from JavaScript, or past a cast) is text, so it cannot become markup by accident.
  const markup = first instanceof Html ? first.toString() : escapeHtml(String(first));
  return new Result(status, 'html', markup, headers);
}

function isTemplate(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && Object.hasOwn(value, 'raw');
}

/** A plain-text response. */
export function text(body: string, status = 200, headers?: Record<string, string>): Result {
  return new Result(status, 'text', body, headers);
}

/**
 * The second argument of every handler: the result helpers, plus `header()` to add response
 * headers whatever the handler returns.
 */
export class Reply {
  /** Headers added with `header()`, sent with the response (null until the first one). */
  headers: Record<string, string> | null = null;

  /** Adds a response header, e.g. `res.header('Link', '</posts?offset=10>; rel="next"')`. */
  header(name: string, value: string): this {
    (this.headers ??= new NullObject() as Record<string, string>)[name] = value;
    return this;
  }

  // The helpers again as methods, taking the free functions' own parameters so the two cannot drift.

  /** `json()`: `res.json(body, status, headers)`. */
  json(...args: Parameters<typeof json>): Result {
    return json(...args);
  }

  /** `created()`: `res.created(location, body)`. */
  created(...args: Parameters<typeof created>): Result {
    return created(...args);
  }

  /** `noContent()`. */
  noContent(): Result {
    return noContent();
  }

  /** `redirect()`: `res.redirect(location, status)`. */
  redirect(...args: Parameters<typeof redirect>): Result {
    return redirect(...args);
  }

  /**
   * `html()`: `res.html(markup, status, headers)`, markup from the `html` tag or `trustedHtml()` (a string is
   * escaped).
   */
  html(markup: Html, status?: number, headers?: Record<string, string>): Result {
    return html(markup, status, headers);
  }

  /** `text()`: `res.text(body, status, headers)`. */
  text(...args: Parameters<typeof text>): Result {
    return text(...args);
  }
}
