// Conditional GET (RFC 9110 §13): If-None-Match and If-Modified-Since read strictly, so that what cannot be
// read is never taken for a match.
import type { RequestHeaders } from 'sevenfold';
import { fingerprint } from './fingerprint.js';

/**
 * The weak entity-tag of a body of type `type`: `W/"<length>-<hash>"` of its bytes (text as UTF-8), so the same
 * bytes sent as text or as bytes get the same tag, and the same bytes as another type do not.
 */
export function weakTag(body: string | Uint8Array, type = ''): string {
  return `W/"${fingerprint(body, type)}"`;
}

/**
 * The opaque part of one entity-tag (`W/"x"` and `"x"` both give `"x"`), or `undefined` when `tag` is not one:
 * weak comparison (§8.8.3.2) is equality of these.
 */
export function opaqueTag(tag: string): string | undefined {
  const from = tag.startsWith('W/') ? 2 : 0;
  return quotedEnd(tag, from) === tag.length ? tag.slice(from) : undefined;
}

/**
 * Whether an `If-None-Match` field value names `etag` (an entity-tag) by weak comparison, or is `*` (§13.1.2).
 * A field that is not a valid list of entity-tags (unquoted, unterminated, `*` in a list) matches nothing.
 */
export function noneMatchHas(field: string | readonly string[], etag: string): boolean {
  const value = typeof field === 'string' ? field : field.join(', ');
  const opaque = opaqueTag(etag);
  if (opaque === undefined) return false;
  const start = skipSpace(value, 0);
  if (value[start] === '*') return skipSpace(value, start + 1) === value.length;
  let matched = false;
  let i = start;
  // One pass over the field, with no list built: every member is checked, so one bad member spoils it all.
  while (i < value.length) {
    if (value[i] === ',') {
      i = skipSpace(value, i + 1);
      continue;
    }
    const from = value.startsWith('W/', i) ? i + 2 : i;
    const end = quotedEnd(value, from);
    if (end === -1) return false;
    if (!matched && end - from === opaque.length && value.startsWith(opaque, from)) matched = true;
    i = skipSpace(value, end);
    if (i < value.length && value[i] !== ',') return false;
  }
  return matched;
}

/** Where the quoted opaque-tag starting at `from` ends (just past its closing quote), or -1 (§8.8.3). */
function quotedEnd(text: string, from: number): number {
  if (text.charCodeAt(from) !== 0x22) return -1;
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    // etagc: visible ASCII but DQUOTE, and obs-text (bytes 0x80-0xFF as a header string holds them).
    if (c < 0x21 || c === 0x7f || c > 0xff) return -1;
  }
  return -1;
}

function skipSpace(text: string, i: number): number {
  while (i < text.length && (text[i] === ' ' || text[i] === '\t')) i++;
  return i;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const TIME = '(?<hour>\\d\\d):(?<minute>\\d\\d):(?<second>\\d\\d)';
// The three forms an HTTP-date may take (§5.6.7): IMF-fixdate, and the obsolete RFC 850 and asctime forms.
const FORMS = [
  `^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (?<day>\\d\\d) (?<month>[A-Z][a-z]{2}) (?<year>\\d{4}) ${TIME} GMT$`,
  `^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, (?<day>\\d\\d)-(?<month>[A-Z][a-z]{2})-(?<year>\\d\\d) ${TIME} GMT$`,
  `^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (?<month>[A-Z][a-z]{2}) (?<day>[ \\d]\\d) ${TIME} (?<year>\\d{4})$`,
].map((form) => new RegExp(form));

/** An HTTP-date as milliseconds since the epoch, or `undefined` when the text is not one. */
export function parseHttpDate(text: string): number | undefined {
  let parts: Record<string, string> | undefined;
  for (const form of FORMS) if ((parts = form.exec(text)?.groups) !== undefined) break;
  if (parts === undefined) return undefined;
  const month = MONTHS.indexOf(parts.month!);
  const day = Number(parts.day);
  const hour = Number(parts.hour);
  const minute = Number(parts.minute);
  const second = Number(parts.second);
  let year = Number(parts.year);
  // A two-digit year that would be more than 50 years ahead is in the past century (§5.6.7).
  if (parts.year!.length === 2) year += 2000 + year > new Date().getUTCFullYear() + 50 ? 1900 : 2000;
  if (month === -1 || hour > 23 || minute > 59 || second > 60) return undefined;
  const time = Date.UTC(year, month, day, hour, minute, Math.min(second, 59));
  // Date.UTC rolls 31 Feb over into March: such a date is not one.
  return new Date(time).getUTCDate() === day ? time : undefined;
}

/** What a representation is known by: its entity-tag, and when it last changed (milliseconds, whole seconds). */
export interface CurrentValidators {
  readonly etag?: string | undefined;
  readonly lastModified?: number | undefined;
}

/**
 * Whether a `GET` or `HEAD` may be answered `304 Not Modified` (RFC 9110 §13.2.2): `If-None-Match` when the
 * request has one (and `If-Modified-Since` is then ignored), else `If-Modified-Since` against `lastModified`.
 * Any other method, or fields that cannot be read, are never fresh.
 */
export function isFresh(
  req: { readonly method: string; readonly headers: RequestHeaders },
  current: CurrentValidators,
): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const noneMatch = req.headers['if-none-match'];
  if (noneMatch !== undefined) {
    // `*` asks whether the resource has any representation: the one being answered is.
    if (current.etag === undefined) return isStar(noneMatch);
    return noneMatchHas(noneMatch, current.etag);
  }
  const since = req.headers['if-modified-since'];
  // Two of them (an array) are not one date, and are ignored (§13.1.3).
  if (current.lastModified === undefined || typeof since !== 'string') return false;
  const date = parseHttpDate(since);
  return date !== undefined && current.lastModified <= date;
}

function isStar(field: string | readonly string[]): boolean {
  return typeof field === 'string' && field.trim() === '*';
}
