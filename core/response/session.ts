// session(): req.session kept in one encrypted, authenticated cookie, or in a store the cookie names by a sealed id.
import type { StandardSchemaV1 } from '../schema/standard.js';
import { clearCookieLine, setCookieLine, type CookieOptions } from './set-cookie.js';
import { withCookies } from './render.js';
import { privately, unstored } from './private-answer.js';
import { NullObject } from '../util/null-object.js';
import { flashesFrom, NO_FLASHES, type Flash } from './flash.js';
import { open, seal, sealKeys } from '../util/seal.js';
import type { Answer, Hook, HookRequest } from '../define/hooks.js';
import { missingStoreMethod, newSessionId, storeKey, type SessionStore } from './session-store.js';

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
}

/** The data a session of this schema holds. */
export type SessionOf<S> = S extends StandardSchemaV1
  ? Partial<StandardSchemaV1.InferOutput<S>>
  : SessionData;

/** The hook `session()` makes, with `of(req)` to read the request's session with the schema's type. */
export interface SessionHook<S = undefined> extends Hook {
  /** The request's session (the same object as `req.session`), typed by the schema. */
  of(req: { readonly session: unknown }): SessionOf<S>;
  /**
   * Gives the request's session a new id when its answer is written (with a store; without one every write is a
   * new seal anyway), forgetting the old one: call it when privileges change, such as signing in.
   */
  regenerate(req: { readonly session: unknown }): void;
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
]);

/** Where a request's session and what it was when read are kept, on the request itself. */
const STATE = Symbol('session.state');
type Held = HookRequest & {
  session: SessionData;
  flashes: readonly Flash[];
  readonly flashesNext?: readonly Flash[];
  [STATE]?: Loaded;
};

/** What a request's session was when read: its JSON, its fields' names, its id with a store, the cookie's presence. */
interface Loaded {
  loaded: string;
  fields: string;
  sent: boolean;
  id?: string | undefined;
  regenerate?: boolean;
}

/** The names of a session's fields, in one order: a sign-in adds one, a sign-out removes one. */
const fieldsOf = (data: object): string => Object.keys(data).sort().join('\0');

/** Whether `session()` read this request's cookie: what `res.flash()` needs to keep its messages. */
export function hasSession(req: object): boolean {
  return (req as Held)[STATE] !== undefined;
}

/**
 * `req.session` for the routes of a scope or a resource: `scope({ hooks: [session({ secret:
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
  setCookieLine(name, 'x', attributes);
  const schema = options.schema;
  if (
    schema !== undefined &&
    typeof (schema as Partial<StandardSchemaV1>)['~standard']?.validate !== 'function'
  )
    throw new TypeError(`${call}: schema must be a Standard Schema (zod, valibot, arktype)`);
  const keys = sealKeys(secrets, `session ${name}`);
  const store = options.store;
  if (store !== undefined) {
    const missing = missingStoreMethod(store);
    if (missing !== undefined)
      throw new TypeError(
        `${call}: store must have get, create, update and destroy (a SessionStore); it has no ${missing}`,
      );
  }

  /** The session's JSON a cookie leads to (sealed in it, or kept under the id sealed in it), with its id. */
  async function unseal(cookie: string): Promise<{ text: string; id?: string } | undefined> {
    const opened = await open(keys, cookie, name);
    if (opened === undefined || store === undefined)
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
    return {
      data: Object.assign(new NullObject(), data) as SessionData,
      flashes: flashesFrom(payload.f),
      id: found.id,
    };
  }

  function request(req: HookRequest): void | Promise<void> {
    const held = req as Held;
    const cookie = req.cookies[name];
    if (cookie === undefined) {
      held.session = new NullObject() as SessionData;
      held[STATE] = { loaded: '{}', fields: '', sent: false };
      return;
    }
    return read(cookie).then((found) => {
      held.session = found?.data ?? (new NullObject() as SessionData);
      held.flashes = found?.flashes ?? NO_FLASHES;
      // A cookie that could not be read is removed by the next answer, as an emptied session is; one that
      // carried messages is written again without them, as they are shown now.
      const loaded = found === undefined || found.flashes.length > 0 ? '' : JSON.stringify(found.data);
      held[STATE] = { loaded, fields: fieldsOf(held.session), sent: true, id: found?.id };
    });
  }

  /**
   * The cookie's value for this session's JSON: the JSON sealed, or, with a store, the id it is kept under
   * sealed; `undefined` when the session was destroyed by another request meanwhile (it stays destroyed). A
   * session not kept before, whose fields changed (signing in or out) or that asked to, gets a new id and its
   * old one is forgotten, so an id planted or copied before sign-in is worth nothing.
   */
  async function sealed(state: Loaded, session: SessionData, text: string, expires: number) {
    if (store === undefined) return seal(keys, text, name);
    let id = state.id;
    if (id !== undefined && !state.regenerate && state.fields === fieldsOf(session)) {
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

  function answer(req: HookRequest, out: Answer): Answer | void | Promise<Answer> {
    const held = req as Held;
    const state = held[STATE];
    // A request refused before the hook read its cookie, or a server failure (its work half done), sends nothing.
    if (state === undefined || out.status >= 500) return;
    if (state.sent) privately(out);
    const text = JSON.stringify(held.session);
    // Messages are left only by an answer that is not a refusal: a 303 after a write, a page.
    const next = out.status < 400 ? held.flashesNext : undefined;
    if (text === state.loaded && next === undefined && !state.regenerate) return;
    if (text === '{}' && next === undefined) {
      if (!state.sent) return;
      const clear = unstored(withCookies(out, [clearCookieLine(name, attributes)]));
      return state.id === undefined ? clear : forget(state).then(() => clear);
    }
    if (schema !== undefined && !matches(schema as StandardSchemaV1, held.session))
      throw new TypeError(
        `session(): req.session does not match its schema; set only the fields it declares`,
      );
    const expires = Date.now() + maxAge * 1000;
    const payload = { d: held.session, e: expires, ...(next === undefined ? {} : { f: next }) };
    return sealed(state, held.session, JSON.stringify(payload), expires).then((value) => {
      // Destroyed meanwhile: the browser keeps whatever cookie it has (an id another answer gave it, or a dead one).
      if (value === undefined) return out;
      const line = setCookieLine(name, value, attributes);
      if (new TextEncoder().encode(line).byteLength > MAX_COOKIE_BYTES)
        throw new RangeError(
          `session(): the sealed session is ${line.length} bytes, over the ${MAX_COOKIE_BYTES} a browser keeps; keep ids in it, not records, or give session() a store`,
        );
      return unstored(withCookies(out, [line]));
    });
  }

  return Object.freeze({
    kind: 'hook' as const,
    name: 'session',
    request,
    answer,
    of: (req: { readonly session: unknown }) => req.session as SessionOf<S>,
    regenerate(req: { readonly session: unknown }) {
      const state = (req as Held)[STATE];
      if (state === undefined)
        throw new TypeError(
          'session.regenerate(req): this request has no session; is session() among its hooks?',
        );
      state.regenerate = true;
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
