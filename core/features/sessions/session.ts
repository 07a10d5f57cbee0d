// session(): a request's session kept in one encrypted, authenticated cookie, or in a store the cookie names by a
// sealed id; flash messages ride along in it.
import { hook, type Hook, type HookRequest, type HttpResponse, type StandardSchemaV1 } from 'sevenfold';
import { clearCookieLine, cookieLine, headerKey, type CookieOptions } from 'sevenfold/http';
import { flashesFrom, flashOf, NO_FLASHES, type Flash } from './flash.js';
import { open, seal, sealKeys } from './seal.js';
import { missingStoreMethod, newSessionId, storeKey, type SessionStore } from './store.js';

/** What a session holds: JSON values by name. Declare your app's fields by augmenting it, or give a schema. */
export interface SessionData {
  [field: string]: unknown;
}

/** What `session()` takes. */
export interface SessionOptions<S = undefined> {
  /** The secret the cookie is sealed with, 32 characters or more (from the environment, never from the code). */
  readonly secret?: string;
  /** Secrets for rotation: the first seals, every one opens; drop an old one once its cookies have expired. */
  readonly secrets?: readonly string[];
  /** The cookie's name; default `__Host-session` (HTTPS only, this host only, path `/`). */
  readonly name?: string;
  /** Seconds a session lives after it was last written; default 14 days. */
  readonly maxAge?: number;
  /** A Standard Schema (zod, valibot, arktype) the session must match: it types `of(req)`, and a cookie that no
   * longer matches (an older shape) is an empty session. */
  readonly schema?: S;
  /** The cookie's other attributes; default `{ secure: true, sameSite: 'Lax' }`, always `HttpOnly`. */
  readonly cookie?: Pick<CookieOptions, 'secure' | 'sameSite' | 'domain' | 'path' | 'partitioned'>;
  /**
   * Where sessions are kept instead of the cookie, which then holds only a sealed random id: a session can be
   * revoked (destroyed in the store) and hold more than 4 KB. Default: none, the session is in the cookie.
   */
  readonly store?: SessionStore;
  /**
   * The fields that say who the session is (default `['user']`): a change of any of them, as of which fields
   * the session has, gives it a new id (with a store) and forgets the old one, so a session id planted or
   * copied before someone signed in never becomes theirs.
   */
  readonly identity?: readonly string[];
}

/** The data a session of this schema holds. */
export type SessionOf<S> = S extends StandardSchemaV1
  ? Partial<StandardSchemaV1.InferOutput<S>>
  : SessionData;

/** The hook `session()` makes, with `of(req)` to read the request's session with the schema's type. */
export interface SessionHook<S = undefined> extends Hook {
  /** The request's session (the same object as `sessionOf(req)`), typed by the schema. */
  of(req: object): SessionOf<S>;
  /**
   * Gives the request's session a new id when its response is written (with a store; without one every write
   * is a new seal anyway), forgetting the old one: call it when privileges change, such as signing in.
   */
  regenerate(req: object): void;
}

/** A browser keeps a cookie of 4096 bytes, name and attributes included (RFC 6265bis §5.6). */
export const MAX_COOKIE_BYTES = 4096;
const DEFAULT_MAX_AGE = 14 * 24 * 60 * 60;
const MIN_SECRET = 32;
const OPTIONS: ReadonlySet<string> = new Set([
  'secret',
  'secrets',
  'name',
  'maxAge',
  'schema',
  'cookie',
  'store',
  'identity',
]);

/**
 * A request's session: its data, the messages it carried and those left for the next page, and what it was
 * when read (its JSON, its fields' names, its id with a store, whether the cookie was sent).
 */
interface Loaded {
  readonly data: SessionData;
  readonly flashes: readonly Flash[];
  next?: Flash[];
  /** The session's JSON as read; `loaded` is the same, or `''` when the cookie must be written again. */
  readonly original: string;
  readonly loaded: string;
  readonly fields: string;
  /** Its identity fields' values as read, as JSON. */
  readonly identity: string;
  readonly sent: boolean;
  /** Whether anything read or changed the session while the request was handled. */
  touched?: boolean;
  readonly id?: string | undefined;
  regenerate?: boolean;
}

/** Each request's session, by request: what `session()` read, for the handler and its own `onSend`. */
const SESSIONS = new WeakMap<object, Loaded>();

/** The fields `signedIn()` guards read who is signed in from: identity fields of every session. */
const IDENTITY = new Set<string>();

/** Makes `field` an identity field of every session (`signedIn()` calls it with its key). */
export function identityField(field: string): void {
  IDENTITY.add(field);
}

/** The names of a session's fields, in one order: a sign-in adds one, a sign-out removes one. */
const fieldsOf = (data: object): string => Object.keys(data).sort().join('\0');

/** The request's session, or a `TypeError` naming the fix on a route without `session()`. */
function loaded(req: object, call: string): Loaded {
  const state = SESSIONS.get(req);
  if (state === undefined) {
    const route = (req as { readonly route?: { readonly name?: unknown } }).route?.name;
    throw new TypeError(
      `${call}: ${typeof route === 'string' ? route : 'this route'} runs no session() hook; add session({ secret }) to its scope's or resource's hooks`,
    );
  }
  state.touched = true;
  return state;
}

/**
 * The request's session: change its fields and it is written with the response (`session.of(req)` gives it the
 * schema's type). On a route without `session()` it throws, naming the fix.
 */
export function sessionOf(req: object): SessionData {
  return loaded(req, 'sessionOf(req)').data;
}

/** The messages the previous response left for this request (shown once, then gone); none without a session. */
export function flashes(req: object): readonly Flash[] {
  const state = SESSIONS.get(req);
  if (state === undefined) return NO_FLASHES;
  state.touched = true;
  return state.flashes;
}

/**
 * Leaves a message for the next page this client sees, once: `flash(req, 'notice', 'Post created.')` before a
 * `303`. Kept in the session's cookie, so the route needs `session()`; a response that is an error leaves none.
 */
export function flash(req: object, type: string, message: string): void {
  const checked = flashOf(type, message);
  (loaded(req, 'flash(req, type, message)').next ??= []).push(checked);
}

/**
 * A session for the routes of a scope or a resource: `scope({ hooks: [session({ secret:
 * process.env.SESSION_SECRET })] }, posts)`. The session is one cookie sealed with AES-256-GCM (WebCrypto,
 * keys derived with HKDF from each secret), its expiry inside the seal; it is written only when the handler
 * changed it, and removed when emptied. A cookie that is tampered with, truncated, expired, sealed with a
 * secret not in the list, or of another shape than the schema is an empty session, never an error.
 */
export function session<S = undefined>(options: SessionOptions<S>): SessionHook<S> {
  const call = 'session(options)';
  if (options === null || typeof options !== 'object')
    throw new TypeError(`${call}: options must be an object such as { secret: process.env.SESSION_SECRET }`);
  for (const key of Object.keys(options))
    if (!OPTIONS.has(key))
      throw new TypeError(`${call}: unknown option "${key}"; it takes ${[...OPTIONS].join(', ')}`);
  const secrets = secretsOf(options, call);
  const name = options.name ?? '__Host-session';
  const maxAge = options.maxAge ?? DEFAULT_MAX_AGE;
  const attributes: CookieOptions = {
    secure: true,
    sameSite: 'Lax',
    ...options.cookie,
    httpOnly: true,
    maxAge,
  };
  // Every attribute checked now, so a bad one fails at start-up rather than on the first sign-in.
  cookieLine(name, 'x', attributes);
  const schema = options.schema;
  if (
    schema !== undefined &&
    typeof (schema as Partial<StandardSchemaV1>)['~standard']?.validate !== 'function'
  )
    throw new TypeError(`${call}: schema must be a Standard Schema (zod, valibot, arktype)`);
  const keys = sealKeys(secrets, `session ${name}`);
  const identity = options.identity ?? ['user'];
  if (!Array.isArray(identity) || identity.some((field) => typeof field !== 'string'))
    throw new TypeError(`${call}: identity must be a list of field names, such as ['user']`);
  // Its own identity fields, and those a signedIn() guard reads (signedIn({ key: 'account' })).
  const identityOf = (data: SessionData): string =>
    JSON.stringify([...identity, ...IDENTITY].map((field) => data[field] ?? null));
  const store = options.store;
  if (store !== undefined) {
    const missing = missingStoreMethod(store);
    if (missing !== undefined)
      throw new TypeError(
        `${call}: store must have get, create, update and destroy (a SessionStore); it has no ${missing}`,
      );
  }

  /**
   * The session's JSON a cookie leads to (sealed in it, or kept under the id sealed in it), with its id. With a
   * store, a cookie may still hold the JSON itself: a visitor's messages alone, which cost the store nothing.
   */
  async function unseal(cookie: string): Promise<{ text: string; id?: string } | undefined> {
    const opened = await open(keys, cookie, name);
    if (opened === undefined || store === undefined || opened.startsWith('{'))
      return opened === undefined ? undefined : { text: opened };
    const text = await store.get(await storeKey(opened));
    return text === undefined ? undefined : { text, id: opened };
  }

  /** The session a cookie holds, or `undefined` for one that cannot be trusted, has expired or was destroyed. */
  async function read(
    cookie: string,
  ): Promise<{ data: SessionData; flashes: readonly Flash[]; id?: string } | undefined> {
    const found = await unseal(cookie);
    if (found === undefined) return undefined;
    let payload: { d?: unknown; e?: unknown; f?: unknown };
    try {
      payload = JSON.parse(found.text) as typeof payload;
    } catch {
      return undefined;
    }
    if (typeof payload.e !== 'number' || payload.e <= Date.now()) return undefined;
    const data = payload.d;
    if (data === null || typeof data !== 'object' || Array.isArray(data)) return undefined;
    if (schema !== undefined && !matches(schema as StandardSchemaV1, data)) return undefined;
    // With a store, a cookie holds a session itself only for a visitor's messages: one holding fields (sealed
    // before the store, say) could never be revoked, so it is no session.
    if (store !== undefined && found.id === undefined && Object.keys(data).length > 0) return undefined;
    return {
      data: Object.assign(Object.create(null), data) as SessionData,
      flashes: flashesFrom(payload.f),
      id: found.id,
    };
  }

  function onRequest(req: HookRequest): void | Promise<void> {
    const cookie = req.cookies[name];
    if (cookie === undefined) {
      const data = Object.create(null) as SessionData;
      const empty = { original: '{}', loaded: '{}', fields: '', identity: identityOf(data), sent: false };
      SESSIONS.set(req, { data, flashes: NO_FLASHES, ...empty });
      return;
    }
    return read(cookie).then((found) => {
      const data = found?.data ?? (Object.create(null) as SessionData);
      const original = JSON.stringify(data);
      // A cookie that could not be read is removed by the next response, as an emptied session is; one that
      // carried messages is written again without them, as they are shown now.
      const loaded = found === undefined || found.flashes.length > 0 ? '' : original;
      const flashes = found?.flashes ?? NO_FLASHES;
      const fields = fieldsOf(data);
      SESSIONS.set(req, {
        data,
        flashes,
        original,
        loaded,
        fields,
        identity: identityOf(data),
        sent: true,
        id: found?.id,
      });
    });
  }

  /**
   * The cookie's value for this session's JSON: the JSON sealed, or, with a store, the id it is kept under
   * sealed; `undefined` when the session was destroyed by another request meanwhile (it stays destroyed). A
   * session not kept before, whose fields or identity changed (signing in, as another person, or out) or
   * that asked to, gets a new id and its old one is forgotten, so an id planted or copied before sign-in is
   * worth nothing. A session that holds nothing but messages is sealed in the cookie even with a store.
   */
  async function sealed(
    state: Loaded,
    session: SessionData,
    text: string,
    expires: number,
    regenerate: boolean,
  ) {
    if (store === undefined) return seal(keys, text, name);
    let id = state.id;
    if (Object.keys(session).length === 0) {
      if (id !== undefined && !(await store.destroy(await storeKey(id)))) return undefined;
      return seal(keys, text, name);
    }
    const same = state.fields === fieldsOf(session) && state.identity === identityOf(session);
    if (id !== undefined && !regenerate && same) {
      if (!(await store.update(await storeKey(id), text, expires))) return undefined;
    } else {
      if (id !== undefined && !(await store.destroy(await storeKey(id)))) return undefined;
      id = newSessionId();
      await store.create(await storeKey(id), text, expires);
    }
    return seal(keys, id, name);
  }

  /** Forgets an emptied session kept in the store; the answer then removes its cookie. */
  async function forget(state: Loaded): Promise<void> {
    if (store !== undefined && state.id !== undefined) await store.destroy(await storeKey(state.id));
  }

  function onSend(req: HookRequest, out: HttpResponse): HttpResponse | void | Promise<HttpResponse> {
    const state = SESSIONS.get(req);
    // A request refused before the hook read its cookie, or a server failure (its work half done), sends nothing;
    // nor does one whose handling never looked at the session (a stylesheet, a health check): its response
    // depends on no cookie, stays as cacheable as it was, and leaves the messages for a page that shows them.
    if (state === undefined || out.status >= 500 || state.touched !== true) return;
    // A page made without a session differs from one made with it, so a shared cache must tell them apart too.
    if (state.sent) privately(out);
    else varyOnCookie(out.headers);
    // A refusal, thrown or returned, leaves the session as the request found it and leaves no messages: a
    // handler that signs someone in, then refuses, signs no one in.
    const refused = out.status >= 400;
    const session = refused
      ? (Object.assign(Object.create(null), JSON.parse(state.original)) as SessionData)
      : state.data;
    const text = refused ? state.original : JSON.stringify(session);
    const next = refused ? undefined : state.next;
    const regenerate = !refused && state.regenerate === true;
    if (text === state.loaded && next === undefined && !regenerate) return;
    if (text === '{}' && next === undefined) {
      if (!state.sent) return;
      const clear = unstored(withCookies(out, [clearCookieLine(name, attributes)]));
      return state.id === undefined ? clear : forget(state).then(() => clear);
    }
    if (!refused && schema !== undefined && !matches(schema as StandardSchemaV1, session))
      throw new TypeError(
        `session(): the session does not match its schema; set only the fields it declares`,
      );
    const expires = Date.now() + maxAge * 1000;
    const payload = { d: session, e: expires, ...(next === undefined ? {} : { f: next }) };
    return sealed(state, session, JSON.stringify(payload), expires, regenerate).then((value) => {
      // Destroyed meanwhile: the browser keeps whatever cookie it has (an id another answer gave it, or a dead one).
      if (value === undefined) return out;
      const line = cookieLine(name, value, attributes);
      if (new TextEncoder().encode(line).byteLength > MAX_COOKIE_BYTES)
        throw new RangeError(
          `session(): the sealed session is ${line.length} bytes, over the ${MAX_COOKIE_BYTES} a browser keeps; keep ids in it, not records, or give session() a store`,
        );
      return unstored(withCookies(out, [line]));
    });
  }

  return Object.freeze({
    ...hook('session', { onRequest, onSend }),
    of: (req: object) => loaded(req, 'session.of(req)').data as SessionOf<S>,
    regenerate(req: object) {
      loaded(req, 'session.regenerate(req)').regenerate = true;
    },
  });
}

function secretsOf(options: SessionOptions<unknown>, call: string): readonly string[] {
  if ((options.secret === undefined) === (options.secrets === undefined))
    throw new TypeError(`${call}: give secret, or secrets (a list, the first one sealing), not both`);
  const secrets = options.secrets ?? [options.secret];
  if (!Array.isArray(secrets) || secrets.length === 0)
    throw new TypeError(`${call}: secrets must be a non-empty list of strings`);
  for (const secret of secrets)
    if (typeof secret !== 'string' || secret.length < MIN_SECRET)
      throw new TypeError(
        `${call}: a secret must be a string of ${MIN_SECRET} characters or more, e.g. from \`openssl rand -base64 32\``,
      );
  return Object.freeze([...(secrets as string[])]);
}

/** Whether `value` matches a Standard Schema that answers at once (one that answers with a promise never does). */
function matches(schema: StandardSchemaV1, value: unknown): boolean {
  const result = schema['~standard'].validate(value);
  return !('then' in result) && result.issues === undefined;
}

// Answers that depend on a session are kept out of shared caches (a proxy, a CDN), as Rails does.
/**
 * Marks in place an answer made for a request that carried a session: `Vary: Cookie`, and `Cache-Control:
 * private` unless it already keeps shared caches out (a `public` one becomes `private`).
 */
export function privately(out: HttpResponse): void {
  const headers = out.headers as Record<string, string>;
  varyOnCookie(headers);
  const cache = headerKey(headers, 'cache-control');
  if (cache === undefined) headers['Cache-Control'] = 'private';
  else if (!/\b(private|no-store)\b/i.test(headers[cache]!))
    headers[cache] = /\bpublic\b/i.test(headers[cache]!)
      ? headers[cache]!.replace(/\bpublic\b/i, 'private')
      : `private, ${headers[cache]}`;
}

/** Adds `Cookie` to `Vary` (once; `*` covers it), under the name the headers already use for it. */
function varyOnCookie(headers: Record<string, string>): void {
  const vary = headerKey(headers, 'vary');
  if (vary === undefined) headers['Vary'] = 'Cookie';
  else if (!/(^|,)\s*(cookie|\*)\s*(,|$)/i.test(headers[vary]!)) headers[vary] = `${headers[vary]}, Cookie`;
}

/** An answer that sets or clears a session cookie: no cache may keep it, or it would hand the cookie on. */
export function unstored(out: HttpResponse): HttpResponse {
  const headers: Record<string, string> = { ...out.headers };
  const cache = headerKey(headers, 'cache-control');
  if (cache !== undefined) delete headers[cache];
  headers['Cache-Control'] = 'private, no-store';
  return { ...out, headers };
}

/** The response with `lines` added to its Set-Cookie lines. */
function withCookies(out: HttpResponse, lines: readonly string[]): HttpResponse {
  return { ...out, cookies: out.cookies === undefined ? lines : [...out.cookies, ...lines] };
}
