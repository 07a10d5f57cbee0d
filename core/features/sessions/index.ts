// `sevenfold/sessions`: cookies that remember a visitor, sealed or kept in a store, flash messages and the
// signed-in guard, written on sevenfold's public API as any app's hooks would be.
export {
  flash,
  flashes,
  MAX_COOKIE_BYTES,
  session,
  sessionOf,
  type SessionData,
  type SessionHook,
  type SessionOf,
  type SessionOptions,
} from './session.js';
export { memorySessionStore, type MemorySessionStoreOptions, type SessionStore } from './store.js';
export type { Flash } from './flash.js';
export { localPath, signedIn, type SignedInOptions } from './signed-in.js';
