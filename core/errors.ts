// Errors that carry data and say what to do: HttpError at request time, RouteDefinitionError at definition.
import leven from 'leven';
/** Reason phrases for the statuses sevenfold produces or handlers commonly throw. */
export const STATUS_TITLES: Readonly<Record<number, string>> = Object.freeze({
  400: 'Bad Request',
  401: 'Unauthorized',
  402: 'Payment Required',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  411: 'Length Required',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  418: "I'm a Teapot",
  421: 'Misdirected Request',
  422: 'Unprocessable Content',
  423: 'Locked',
  424: 'Failed Dependency',
  425: 'Too Early',
  426: 'Upgrade Required',
  428: 'Precondition Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  451: 'Unavailable For Legal Reasons',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
});

/** A problem details object (RFC 9457), the body of every error response. */
export interface Problem {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly errors?: unknown;
}

export interface HttpErrorOptions {
  /** A short summary; defaults to the reason phrase of the status. */
  readonly title?: string;
  /** A URI naming the problem type; defaults to `about:blank`. */
  readonly type?: string;
  /** Machine-readable details, e.g. field errors: `{ title: ['is required'] }`. */
  readonly errors?: unknown;
  /** Extra response headers, e.g. `{ Allow: 'GET, HEAD' }` or `{ 'Retry-After': '5' }`. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly cause?: unknown;
}

/**
 * An error that is an HTTP answer: throw `new HttpError(404, 'no post "x"')` from a handler
 * and the client gets a problem+json response with that status and detail.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly title: string;
  readonly type: string;
  readonly detail: string | undefined;
  readonly errors: unknown;
  readonly headers: Readonly<Record<string, string>> | undefined;

  constructor(status: number, detail?: string, options: HttpErrorOptions = {}) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpError: status must be an integer from 400 to 599, got ${status}`);
    }
    const title = options.title ?? STATUS_TITLES[status] ?? (status < 500 ? 'Client Error' : 'Server Error');
    super(detail ?? title, options.cause === undefined ? undefined : { cause: options.cause });
    this.status = status;
    this.title = title;
    this.type = options.type ?? 'about:blank';
    this.detail = detail;
    this.errors = options.errors;
    this.headers = options.headers;
  }

  /** The problem details object this error is sent as. */
  toProblem(): Problem {
    const problem: { -readonly [K in keyof Problem]: Problem[K] } = {
      type: this.type,
      title: this.title,
      status: this.status,
    };
    if (this.detail !== undefined) problem.detail = this.detail;
    if (this.errors !== undefined) problem.errors = this.errors;
    return problem;
  }
}

/**
 * A mistake in a route definition, found when the table is built: the message names the
 * resource, the action and the fix.
 */
export class RouteDefinitionError extends Error {
  override readonly name = 'RouteDefinitionError';
  readonly resource: string | undefined;
  readonly action: string | undefined;

  constructor(message: string, where: { resource?: string; action?: string } = {}) {
    super(message);
    this.resource = where.resource;
    this.action = where.action;
  }
}

/** The closest of `candidates` to a mistyped `word`, as ` (did you mean "x"?)`, or ''. */
export function suggest(word: string, candidates: readonly string[]): string {
  let best = '';
  let distance = Math.max(2, Math.floor(word.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = leven(word.toLowerCase(), candidate);
    if (d < distance) [best, distance] = [candidate, d];
  }
  return best === '' ? '' : ` (did you mean "${best}"?)`;
}
