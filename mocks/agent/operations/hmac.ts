/**
 * HMAC-SHA-256 in plain TypeScript, synchronous: the engine also runs in a browser (MSW), so no
 * `node:crypto`, and signing a cursor must not cost an asynchronous round trip per page (WebCrypto's
 * `subtle.sign` is promise-based). Used only to make cursors tamper-evident. SHA-256 itself is the
 * engine's (`mocks/engine/sha256.ts`).
 */

import { sha256 } from '../../engine/sha256.ts';

export { sha256 };

const BLOCK = 64;

/** HMAC-SHA-256 (RFC 2104) of `message` under `key`. */
export function hmacSha256(key: Uint8Array, message: Uint8Array): Uint8Array {
  const k = key.length > BLOCK ? sha256(key) : key;
  const inner = new Uint8Array(BLOCK + message.length);
  const outer = new Uint8Array(BLOCK + 32);
  for (let i = 0; i < BLOCK; i++) {
    const byte = k[i] ?? 0;
    inner[i] = byte ^ 0x36;
    outer[i] = byte ^ 0x5c;
  }
  inner.set(message, BLOCK);
  outer.set(sha256(inner), BLOCK);
  return sha256(outer);
}

/** Equality of two byte strings in time that depends only on their lengths. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DECODE = new Map([...ALPHABET].map((ch, i) => [ch, i]));

/** Base64url without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] ?? 0) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let c = 0; c < chars; c++) out += ALPHABET[(n >> (18 - 6 * c)) & 63];
  }
  return out;
}

/** Decodes base64url without padding; undefined for any other character or an impossible length. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 6) / 8));
  let bits = 0;
  let value = 0;
  let k = 0;
  for (const ch of text) {
    const digit = DECODE.get(ch);
    if (digit === undefined) return undefined;
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[k++] = (value >> bits) & 0xff;
    }
  }
  // Non-zero leftover bits mean a second spelling of the same bytes: refused, so a cursor has one form.
  if ((value & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}
