// Flash messages: what one answer leaves for the next page a person sees, once, kept in the session's cookie.

/** A message `flash()` left for the next request: its kind (`notice`, `alert`…) and its text. */
export interface Flash {
  readonly type: string;
  readonly message: string;
}

/** No messages: what a request without any sees. */
export const NO_FLASHES: readonly Flash[] = Object.freeze([]);

// A type is a word a view can use as a class name; a message is text a person reads, bounded so that a
// session's cookie stays under the 4 KB a browser keeps.
const TYPE = /^[A-Za-z][A-Za-z0-9_-]{0,31}$/;
const MAX_MESSAGE = 500;

/** A checked flash message, or the TypeError that says what is wrong with it. */
export function flashOf(type: string, message: string): Flash {
  if (typeof type !== 'string' || !TYPE.test(type))
    throw new TypeError(
      `flash(req, type, message): type must be a word such as 'notice' or 'alert', got ${JSON.stringify(type)}`,
    );
  if (typeof message !== 'string' || message.length === 0 || message.length > MAX_MESSAGE)
    throw new TypeError(`flash(req, type, message): message must be text of 1 to ${MAX_MESSAGE} characters`);
  return Object.freeze({ type, message });
}

/** The flash messages a sealed session carried, kept only if they are well-formed (a cookie is input). */
export function flashesFrom(value: unknown): readonly Flash[] {
  if (!Array.isArray(value)) return NO_FLASHES;
  const kept: Flash[] = [];
  for (const item of value.slice(0, 20)) {
    try {
      kept.push(flashOf((item as Flash)?.type, (item as Flash)?.message));
    } catch {
      // A message the app could not have written is dropped, never shown.
    }
  }
  return Object.freeze(kept);
}
