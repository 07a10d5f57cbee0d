// Watching posts: the hub that streams their changes, and how a signed-in session's streams are named so that
// signing out ends them.
import { live, type Broker, type Live } from 'sevenfold/live';
import type { HandlerRequest } from 'sevenfold';
import { sessionOf } from 'sevenfold/sessions';
import { sessionSignedIn } from './auth.js';

/**
 * Milliseconds between the comment lines that keep an idle stream open: under the 30 s or more after which
 * proxies close a silent connection (serve-fetch.ts sets Bun's idle timeout above it).
 */
export const HEARTBEAT = 15_000;

/** The session field that names a signed-in session's streams: set by `POST /session`, ended by `DELETE`. */
export const STREAMS_TAG = 'streams';

/**
 * The streams' name for a signed-in session, `undefined` for anyone else. It is a random value of its own
 * (`newStreamsTag()`) kept in the session, not the session's id: the id is a credential the session hook keeps
 * to itself, and the tag travels through the broker (the database's `live_events` table with PostgreSQL).
 */
export function streamsTag(req: HandlerRequest<any, any, any, any>): string | undefined {
  if (sessionSignedIn(req) !== true) return undefined;
  const tag = sessionOf(req)[STREAMS_TAG];
  return typeof tag === 'string' ? tag : undefined;
}

/** A new name for a signed-in session's streams. */
export function newStreamsTag(): string {
  return crypto.randomUUID();
}

/**
 * The hub of watched posts: `GET /posts` and `GET /posts/:post_id` with `Accept: text/event-stream` stream the
 * changes `broker` carries (the store's: memory, or PostgreSQL's `LISTEN`/`NOTIFY` in deploy/live-broker.ts),
 * a signed-in session's streams tagged so that `changes.disconnect(tag)` ends them in every process.
 */
export function postsLive(broker?: Broker): Live {
  return live({ ...(broker === undefined ? {} : { broker }), tag: streamsTag, heartbeat: HEARTBEAT });
}
