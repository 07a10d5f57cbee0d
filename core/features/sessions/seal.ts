// Authenticated encryption of small payloads with WebCrypto (AES-256-GCM, keys from HKDF), on every runtime.

/** The keys of a list of secrets: the first seals, every one opens (rotation). */
export interface SealKeys {
  readonly keys: Promise<readonly CryptoKey[]>;
}

const VERSION = 'v1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });

/** AES-GCM keys derived with HKDF-SHA-256 from each secret, for `purpose` (a different purpose, different keys). */
export function sealKeys(secrets: readonly string[], purpose: string): SealKeys {
  const keys = Promise.all(
    secrets.map(async (secret) => {
      const material = await crypto.subtle.importKey('raw', encoder.encode(secret), 'HKDF', false, [
        'deriveKey',
      ]);
      return crypto.subtle.deriveKey(
        {
          name: 'HKDF',
          hash: 'SHA-256',
          salt: encoder.encode('sevenfold seal v1'),
          info: encoder.encode(purpose),
        },
        material,
        { name: 'AES-GCM', length: 256 },
        false,
        ['encrypt', 'decrypt'],
      );
    }),
  );
  // A rejection is seen by whoever awaits the keys; this keeps it from being reported as unhandled meanwhile.
  keys.catch(() => {});
  return { keys };
}

/** `text` sealed with the first key, bound to `context` (the same context must open it): `v1.` + base64url. */
export async function seal(keys: SealKeys, text: string, context: string): Promise<string> {
  const [key] = await keys.keys;
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(context) },
      key!,
      encoder.encode(text),
    ),
  );
  const bytes = new Uint8Array(IV_BYTES + sealed.byteLength);
  bytes.set(iv);
  bytes.set(sealed, IV_BYTES);
  return VERSION + toBase64Url(bytes);
}

/**
 * The text a `seal()` made with any of the keys and this `context`, or `undefined` for anything else: another
 * format, bad base64url, too short, tampered with, truncated, sealed with a secret not in the list.
 */
export async function open(keys: SealKeys, sealed: string, context: string): Promise<string | undefined> {
  if (!sealed.startsWith(VERSION)) return undefined;
  const bytes = fromBase64Url(sealed.slice(VERSION.length));
  if (bytes === undefined || bytes.byteLength < IV_BYTES + TAG_BYTES) return undefined;
  const iv = bytes.subarray(0, IV_BYTES);
  const data = bytes.subarray(IV_BYTES);
  const additionalData = encoder.encode(context);
  for (const key of await keys.keys) {
    try {
      const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData }, key, data);
      return decoder.decode(plain);
    } catch {
      // Not this key's (or not valid UTF-8, which no seal() makes): the next key may open it.
    }
  }
  return undefined;
}

/** `bytes` as base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]!);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
