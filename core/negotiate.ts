import Negotiator from 'negotiator';

/**
 * The first of `available` media types that an `Accept` header prefers, or `false` when it
 * takes none of them. No `Accept` header means anything goes, so the first type wins.
 */
export function preferredType(
  accept: string | string[] | undefined,
  available: readonly string[],
): string | false {
  const header = Array.isArray(accept) ? accept.join(', ') : accept;
  return new Negotiator({ headers: { accept: header } }).mediaType(available) ?? false;
}
