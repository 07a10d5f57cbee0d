// fresh(): Rails' `fresh_when`, a 304 decided from what a handler knows before it renders.
import { Result, type Reply, type RequestHeaders } from 'sevenfold';
import { isFresh, weakTag } from './conditional.js';

/** What a handler knows its representation by before rendering it, for `fresh()`. */
export interface Validators {
  /**
   * What changes whenever the representation does: a version, an update time, or a list of them
   * (`[post.updatedAt, user.id]`), hashed into a weak `ETag`. An action that answers HTML and JSON gives each its
   * own (`['html', post.updatedAt]`), as caches tell representations apart by their tags.
   */
  readonly etag?: ValidatorPart | readonly ValidatorPart[];
  /** When the representation last changed (a `Date`, milliseconds, or a date string): sent as `Last-Modified`. */
  readonly lastModified?: Date | number | string;
}

/** One part of an `etag` validator. */
export type ValidatorPart = string | number | Date;

const NOT_MODIFIED = new Result(304, 'empty', undefined);

/**
 * Before the work of rendering: `304 Not Modified` when the client holds the current representation (its
 * `If-None-Match` names `etag`, or, without one, its `If-Modified-Since` is not before `lastModified`), else
 * `undefined`, and the response will carry `ETag` and `Last-Modified` (set on `res`). So
 * `return fresh(req, res, { etag: post.updatedAt }) ?? render(post)` renders only for a client that needs it.
 */
export function fresh(
  req: { readonly method: string; readonly headers: RequestHeaders },
  res: Reply,
  validators: Validators,
): Result<304, undefined, 'empty'> | undefined {
  if (
    validators === null ||
    typeof validators !== 'object' ||
    (validators.etag ?? validators.lastModified) === undefined
  )
    throw new TypeError('fresh(req, res, validators): give validators { etag, lastModified }, one or both');
  const tag = validators.etag === undefined ? undefined : weakTag(validatorText(validators.etag), 'fresh');
  const lastModified = validators.lastModified === undefined ? undefined : secondsOf(validators.lastModified);
  if (tag !== undefined) res.header('ETag', tag);
  if (lastModified !== undefined) res.header('Last-Modified', new Date(lastModified).toUTCString());
  return isFresh(req, { etag: tag, lastModified })
    ? (NOT_MODIFIED as Result<304, undefined, 'empty'>)
    : undefined;
}

function validatorText(value: ValidatorPart | readonly ValidatorPart[]): string {
  if (!Array.isArray(value)) return partText(value as ValidatorPart);
  // A separator no part can hold keeps ['a,b'] and ['a', 'b'] apart.
  return value.map(partText).join('\u0000');
}

function partText(part: ValidatorPart): string {
  if (part instanceof Date) return String(checkedTime(part.getTime(), 'etag'));
  if (typeof part === 'string' || (typeof part === 'number' && Number.isFinite(part))) return String(part);
  throw new TypeError(`fresh(): etag must be a string, a finite number, a Date or a list of them`);
}

/**
 * A last-modified time in whole seconds, as an HTTP-date holds it, and never later than now (RFC 9110
 * §8.8.2.1).
 */
function secondsOf(value: Date | number | string): number {
  const time =
    value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  return Math.floor(Math.min(checkedTime(time, 'lastModified'), Date.now()) / 1000) * 1000;
}

function checkedTime(time: number, name: string): number {
  if (!Number.isFinite(time)) throw new TypeError(`fresh(): ${name} is not a valid date`);
  return time;
}
