// Sessions kept on the server: the cookie carries only a sealed random id, so a session can be revoked.

import { toBase64Url } from './seal.js';

/**
 * Where `session({ store })` keeps sessions: a table in your database, a Redis hash, memory. Keys are
 * digests of the session ids (a copy of the store signs no one in); values are the session as JSON text, with
 * its expiry in milliseconds since the epoch (the hook checks it on every read; the store may purge after it).
 */
export interface SessionStore {
  /** The value kept under `key`, or `undefined` when there is none (never was, destroyed, purged). */
  get(key: string): Promise<string | undefined>;
  /** Keeps a new session (its key is fresh: 256 random bits). */
  create(key: string, value: string, expires: number): Promise<void>;
  /**
   * Replaces a session only if it is still kept, and says whether it was: one destroyed meanwhile (signed out
   * in another tab, revoked) must stay destroyed, so an update never creates.
   */
  update(key: string, value: string, expires: number): Promise<boolean>;
  /**
   * Forgets a session (sign-out, a new id, revocation) and says whether it was kept, in one step: a session
   * destroyed by another request meanwhile is not given a new id.
   */
  destroy(key: string): Promise<boolean>;
}

/** What `memorySessionStore()` takes. */
export interface MemorySessionStoreOptions {
  /** Sessions kept at most; past it the least recently used is forgotten first. Default 10 000. */
  readonly max?: number;
}

/**
 * Sessions in this process's memory: for development and tests. They end with the process and are not
 * shared between processes; a deployed app keeps them in its database (docs/sessions.md has PostgreSQL's).
 */
export function memorySessionStore(options: MemorySessionStoreOptions = {}): SessionStore & {
  /** How many sessions are kept now (expired ones not yet purged included). */
  readonly size: number;
} {
  const max = options.max ?? 10_000;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new TypeError(`memorySessionStore(options): max must be a whole number of 1 or more, got ${max}`);
  // A Map keeps insertion order and each use moves an entry to the end, so the first entry is the least
  // recently used: what goes first when full, never a session in use.
  const kept = new Map<string, { value: string; expires: number }>();
  const live = (key: string): { value: string; expires: number } | undefined => {
    const entry = kept.get(key);
    if (entry === undefined) return undefined;
    kept.delete(key);
    if (entry.expires <= Date.now()) return undefined;
    kept.set(key, entry);
    return entry;
  };
  return {
    get size() {
      return kept.size;
    },
    get: async (key) => live(key)?.value,
    async create(key, value, expires) {
      if (kept.size >= max) kept.delete(kept.keys().next().value!);
      kept.set(key, { value, expires });
    },
    async update(key, value, expires) {
      const entry = live(key);
      if (entry === undefined) return false;
      entry.value = value;
      entry.expires = expires;
      return true;
    },
    async destroy(key) {
      return live(key) !== undefined && kept.delete(key);
    },
  };
}

/** A new session id: 256 random bits, base64url. */
export function newSessionId(): string {
  return toBase64Url(crypto.getRandomValues(new Uint8Array(32)));
}

/** The key a session id is kept under: its SHA-256, base64url (the id itself never reaches the store). */
export async function storeKey(id: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(id));
  return toBase64Url(new Uint8Array(digest));
}

/** Whether `store` has the four methods a session store needs; the name of the first missing one otherwise. */
export function missingStoreMethod(store: unknown): string | undefined {
  if (store === null || typeof store !== 'object') return 'get';
  for (const method of ['get', 'create', 'update', 'destroy'] as const)
    if (typeof (store as Record<string, unknown>)[method] !== 'function') return method;
  return undefined;
}
