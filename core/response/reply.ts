// What handlers answer with: Result values (json, created, html, redirect…) and the Reply helper `res`.
import { escapeHtml, Html, htmlTemplate, type HtmlValue } from './html.js';
import { NullObject } from '../util/null-object.js';
import { headerKey, unsendableHeader } from '../util/headers.js';
import { clearCookieLine, cookieLine, type CookieOptions } from '../request/cookies.js';

/** How a result's body is serialised. */
export type ResultKind = 'json' | 'html' | 'text' | 'empty';

/**
 * A result as data: status, body and extra headers. Handlers return one (through the
 * helpers below) when a plain value, sent as `200` JSON, is not what they mean. Its type keeps the
 * status, the body and how it is sent, so an action with response schemas checks each at compile time.
 */
export class Result<S extends number = number, B = unknown, K extends ResultKind = ResultKind> {
  // The kind first: a mistaken answer is then compared with the declared result of its kind, and told what differs.
  declare readonly kind: K;
  declare readonly status: S;
  declare readonly body: B;
  declare readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(
    status: S,
    kind: K,
    body: B,
    headers: Readonly<Record<string, string>> | undefined = undefined,
  ) {
    this.status = status;
    this.kind = kind;
    this.body = body;
    this.headers = headers;
  }
}

/**
 * Where a handler's expected answers keep, for the types only, the statuses its action declares (no such
 * property exists).
 */
export declare const STATUSES: unique symbol;

/**
 * What `json()` answers: a `Result` of status `S`; inside a handler whose action declares statuses `D`, a
 * status it does not declare is refused at the argument (`D` is read from the handler's expected answers).
 */
export type JsonOf<S extends number, B, D extends number> = Result<S extends D ? S : never, B, 'json'> &
  (number extends D ? unknown : { readonly [STATUSES]?: D });

/** The status `json()` takes: any, or inside a handler one its action declares. */
export type StatusIn<S extends number, D extends number> = S extends D ? S : NoInfer<D>;

/** A JSON result with any status: `json({ ok: true }, 202)`. */
export function json<B, S extends number = 200, D extends number = number>(
  body: B,
  status: StatusIn<S, D> = 200 as StatusIn<S, D>,
  headers?: Record<string, string>,
): JsonOf<S, B, D> {
  return new Result(status, 'json', body, headers) as JsonOf<S, B, D>;
}

/** `201 Created` with a `Location` header and, when given, the created thing as JSON. */
export function created<B = undefined>(
  location: string,
  body?: B,
): Result<201, B, undefined extends B ? 'empty' | 'json' : 'json'> {
  return new Result(201, (body === undefined ? 'empty' : 'json') as 'json', body as B, {
    Location: location,
  });
}

/** `204 No Content`; a handler returning `undefined` means the same. */
export function noContent(): Result<204, undefined, 'empty'> {
  return new Result(204, 'empty', undefined);
}

/** A redirect with `Location`: 302 by default, 303 after a form post, 301/307/308 as needed. */
export function redirect<S extends 301 | 302 | 303 | 307 | 308 = 302>(
  location: string,
  status: S = 302 as S,
): Result<S, undefined, 'empty'> {
  return new Result(status, 'empty', undefined, { Location: location });
}

/**
 * Two uses, one name. As a template tag, `html\`<h1>${title}</h1>\`` builds `Html` with every
 * value escaped (see core/response/html.ts). Called, `html(markup, status, headers)` is an HTML
 * response whose markup is `Html`: from the tag, or `trustedHtml(string)` for markup you trust.
 */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): Html;
export function html<S extends number = 200>(
  markup: Html,
  status?: S,
  headers?: Record<string, string>,
): Result<S, string, 'html'>;
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

/** A plain-text result. */
export function text<S extends number = 200>(
  body: string,
  status: S = 200 as S,
  headers?: Record<string, string>,
): Result<S, string, 'text'> {
  return new Result(status, 'text', body, headers);
}

/**
 * The second argument of every handler: the result helpers, plus `header()` to add response
 * headers whatever the handler returns.
 */
export class Reply {
  /** Headers added with `header()`, sent with the response (null until the first one). */
  headers: Record<string, string> | null = null;
  /** The `Set-Cookie` lines added with `cookie()`, `clearCookie()` or `header('Set-Cookie', …)`, in order (null until the first). */
  cookies: string[] | null = null;

  /**
   * Adds a response header, e.g. `res.header('Link', '</posts?offset=10>; rel="next"')`. A list header given
   * again (`Link`, `Vary`, `Cache-Control`…) gets both values joined with `, `; `Set-Cookie` is sent once per
   * value, as a line of its own; any other header is replaced. An array adds each of its values.
   */
  header(name: string, value: string | readonly string[]): this {
    if (Array.isArray(value)) {
      for (const one of value) this.header(name, one);
      return this;
    }
    const lower = name.toLowerCase();
    if (lower === 'set-cookie') {
      // A line is checked as it is added, so the handler's own call is the one that fails, on every adapter.
      if (typeof value !== 'string' || unsendableHeader({}, [value]) !== undefined)
        throw new TypeError(
          `res.header('Set-Cookie', value): the value must be a string of visible characters, with no CR, LF or other control character`,
        );
      (this.cookies ??= []).push(value);
      return this;
    }
    const headers = (this.headers ??= new NullObject() as Record<string, string>);
    const key = headerKey(headers, lower);
    if (key !== undefined && LIST_HEADERS.has(lower)) headers[key] = `${headers[key]}, ${value as string}`;
    else {
      if (key !== undefined) delete headers[key];
      headers[name] = value as string;
    }
    return this;
  }

  /**
   * Sets a cookie: `res.cookie('theme', 'dark', { maxAge: 31536000 })`. `HttpOnly`, `SameSite=Lax` and `Path=/`
   * unless the options say otherwise; the value is percent-encoded (`req.cookies` decodes it). A bad name or
   * attribute, or one browsers would drop (a `__Host-` cookie that is not `secure`), throws a `TypeError`.
   */
  cookie(name: string, value: string, options?: CookieOptions): this {
    (this.cookies ??= []).push(cookieLine(name, value, options));
    return this;
  }

  /** Removes a cookie from the browser: give the `path` and `domain` it was set with (`Path=/` by default). */
  clearCookie(name: string, options?: CookieOptions): this {
    (this.cookies ??= []).push(clearCookieLine(name, options));
    return this;
  }

  // The helpers again as methods, calling the free functions so the two cannot drift; each keeps their types.

  /** `json()`: `res.json(body, status, headers)`. */
  json<B, S extends number = 200, D extends number = number>(
    body: B,
    status?: StatusIn<S, D>,
    headers?: Record<string, string>,
  ): JsonOf<S, B, D> {
    return json<B, S, D>(body, status, headers);
  }

  /** `created()`: `res.created(location, body)`. */
  created<B = undefined>(location: string, body?: B) {
    return created<B>(location, body);
  }

  /** `noContent()`. */
  noContent(): Result<204, undefined, 'empty'> {
    return noContent();
  }

  /** `redirect()`: `res.redirect(location, status)`. */
  redirect<S extends 301 | 302 | 303 | 307 | 308 = 302>(
    location: string,
    status?: S,
  ): Result<S, undefined, 'empty'> {
    return redirect(location, status);
  }

  /**
   * `html()`: `res.html(markup, status, headers)`, markup from the `html` tag or `trustedHtml()` (a string is
   * escaped).
   */
  html<S extends number = 200>(
    markup: Html,
    status?: S,
    headers?: Record<string, string>,
  ): Result<S, string, 'html'> {
    return html(markup, status, headers);
  }

  /** `text()`: `res.text(body, status, headers)`. */
  text<S extends number = 200>(
    body: string,
    status?: S,
    headers?: Record<string, string>,
  ): Result<S, string, 'text'> {
    return text(body, status, headers);
  }
}

// The fields whose values are comma-separated lists (RFC 9110 §5.3), so a second value joins the first.
const LIST_HEADERS: ReadonlySet<string> = new Set([
  'link',
  'vary',
  'cache-control',
  'allow',
  'via',
  'content-language',
  'content-encoding',
  'www-authenticate',
  'proxy-authenticate',
  'server-timing',
  'accept-patch',
  'accept-ranges',
  'access-control-allow-headers',
  'access-control-allow-methods',
  'access-control-expose-headers',
  'timing-allow-origin',
]);
