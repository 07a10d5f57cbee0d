// negotiate(): one action's representations by media type, the one Accept prefers sent with Vary.
import { preferredType } from '../request/accept.js';
import { addVary } from '../util/headers.js';
import { Html } from './html.js';
import { Result } from './reply.js';

/**
 * One action's representations by media type, the server's preference first:
 * `{ 'application/json': () => post, 'text/html': () => showPage(post) }`. Each gives a `Result`,
 * `Html` (sent as `text/html`), or a value (sent as JSON).
 */
export type Representations = Readonly<Record<string, () => unknown>>;

/** The result a representation's value is sent as: a `Result` itself, `Html` a page, nothing a 204, else JSON. */
export type ResultOfRepresentation<T> =
  T extends Result<any, any, any>
    ? T
    : T extends Html
      ? Result<200, string, 'html'>
      : [T] extends [undefined | void]
        ? Result<204, undefined, 'empty'>
        : Result<200, T, 'json'>;

/**
 * What `negotiate()` answers, typed by its representations, so that an action with response schemas checks
 * the JSON one against them and lets the page through.
 */
export type Negotiated<R extends Representations> = {
  [K in keyof R]: ResultOfRepresentation<ReturnType<R[K]>>;
}[keyof R];

/**
 * Answers with the representation the client's `Accept` prefers, with `Vary: Accept` so caches
 * keep them apart. No header, `*\/*`, or nothing acceptable: the first one (a server may send
 * a default rather than 406, RFC 9110 §12.5.1).
 */
export function negotiate<const R extends Representations>(
  req: { readonly headers: { readonly accept?: string | string[] | undefined } },
  representations: R,
): Negotiated<R> {
  const types = Object.keys(representations);
  if (types.length === 0) throw new TypeError('negotiate() needs at least one representation');
  const chosen = preferredType(req.headers.accept, types) || types[0]!;
  return varyOnAccept(asResult(representations[chosen]!(), chosen)) as Negotiated<R>;
}

function asResult(out: unknown, type: string): Result {
  if (out instanceof Result) return out;
  if (out instanceof Html) return new Result(200, 'html', out.toString());
  if (out === undefined) return new Result(204, 'empty', undefined);
  if (type === 'text/html')
    throw new TypeError('a text/html representation must give Html (the html tag) or a Result');
  return new Result(200, 'json', out);
}

/** The result with `Accept` added to its `Vary` header. */
export function varyOnAccept(result: Result): Result {
  const headers: Record<string, string> = { ...result.headers };
  addVary(headers, 'Accept');
  return new Result(result.status, result.kind, result.body, headers);
}
