/**
 * Cursors of `query.search.actions`: opaque, bound to the exact input, tamper-evident, keyset-based.
 *
 * A cursor is `<payload>.<mac>`, both base64url. The payload carries the window resolved on the first
 * page (so a relative range does not slide while an agent pages) and the last (createdAt, actionId)
 * seen; the next page starts strictly after that key in the listing order (createdAt descending, then
 * actionId ascending). Actions ingested while an agent pages therefore neither repeat nor push others
 * out of reach: a new action newer than the key is simply not on the remaining pages, an older one is
 * met once in its place.
 *
 * The MAC is HMAC-SHA-256 under a per-engine secret over the organization, the canonical JSON of the
 * input without its cursor, and the payload: a cursor altered in any byte, replayed with another
 * input, or carried to another organization is refused.
 */

import { canonicalJson } from '../../engine/moderation/canonical.ts';
import type { Window } from '../../engine/records/dates.ts';
import { fromBase64Url, hmacSha256, sameBytes, sha256, toBase64Url } from './hmac.ts';

export interface CursorPosition {
  readonly window: Window;
  /** createdAt (epoch ms) and actionId of the last item of the page. */
  readonly lastTime: number;
  readonly lastId: string;
}

export type CursorCheck =
  | { readonly ok: true; readonly position: CursorPosition }
  | { readonly ok: false; readonly reason: 'malformed' | 'other_input' };

const utf8 = new TextEncoder();
const utf8Decode = new TextDecoder('utf-8', { fatal: true });

/** The secret of an engine, derived from its seed (no `Math.random`/`Date.now` inside the engine). */
export function cursorSecret(material: string): Uint8Array {
  return sha256(utf8.encode(`cca-kit agent cursor v1\n${material}`));
}

/** What the MAC covers besides the payload: whose listing and of which input. */
function binding(organizationId: string, input: Readonly<Record<string, unknown>>): string {
  const { cursor: _ignored, ...rest } = input;
  return `${organizationId}\n${canonicalJson(rest)}\n`;
}

function mac(secret: Uint8Array, bound: string, payload: string): Uint8Array {
  return hmacSha256(secret, utf8.encode(`${bound}${payload}`));
}

export function encodeCursor(
  secret: Uint8Array,
  organizationId: string,
  input: Readonly<Record<string, unknown>>,
  position: CursorPosition,
): string {
  const payload = toBase64Url(
    utf8.encode(
      JSON.stringify([1, position.window.from, position.window.to, position.lastTime, position.lastId]),
    ),
  );
  return `${payload}.${toBase64Url(mac(secret, binding(organizationId, input), payload).subarray(0, 16))}`;
}

/**
 * Checks a cursor against the input it came with. `other_input` is a well-formed cursor of this
 * engine whose MAC does not hold for this input (or organization); `malformed` is anything else.
 * Both are refused as invalid input naming `cursor`: the difference only makes the message useful.
 */
export function decodeCursor(
  secret: Uint8Array,
  organizationId: string,
  input: Readonly<Record<string, unknown>>,
  cursor: string,
): CursorCheck {
  const dot = cursor.indexOf('.');
  if (dot < 0) return { ok: false, reason: 'malformed' };
  const payload = cursor.slice(0, dot);
  const tag = fromBase64Url(cursor.slice(dot + 1));
  const bytes = fromBase64Url(payload);
  if (tag === undefined || bytes === undefined || tag.length !== 16)
    return { ok: false, reason: 'malformed' };
  const position = parsePayload(bytes);
  if (position === undefined) return { ok: false, reason: 'malformed' };
  if (!sameBytes(tag, mac(secret, binding(organizationId, input), payload).subarray(0, 16))) {
    return { ok: false, reason: 'other_input' };
  }
  return { ok: true, position };
}

function parsePayload(bytes: Uint8Array): CursorPosition | undefined {
  let value: unknown;
  try {
    value = JSON.parse(utf8Decode.decode(bytes));
  } catch {
    return undefined;
  }
  if (!Array.isArray(value) || value.length !== 5 || value[0] !== 1) return undefined;
  const [, from, to, lastTime, lastId] = value as unknown[];
  if (typeof from !== 'number' || typeof to !== 'number' || typeof lastTime !== 'number') return undefined;
  if (
    typeof lastId !== 'string' ||
    !Number.isFinite(from) ||
    !Number.isFinite(to) ||
    !Number.isFinite(lastTime)
  )
    return undefined;
  return { window: { from, to }, lastTime, lastId };
}
