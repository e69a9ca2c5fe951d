/**
 * Reading a JSON request body: the size limit (413), the content type (415) and the JSON itself (400),
 * in that order. The body is read only as far as the limit: past it, the rest is left unread.
 */
import { type EngineError, errors } from './errors.ts';
import type { EngineRequest } from './exchange.ts';

export type BodyRead =
  | { readonly ok: true; readonly text: string; readonly value: unknown; readonly present: boolean }
  /** `text`: the body as read, when it was read whole but refused (malformed JSON), for the observers. */
  | { readonly ok: false; readonly error: EngineError; readonly text?: string };

/** Deeper JSON than this is refused (400): no legitimate request nests this far, and recursion has limits. */
export const MAX_JSON_DEPTH = 64;

const NO_BODY: BodyRead = { ok: true, text: '', value: undefined, present: false };

export function isJsonMediaType(contentType: string | null): boolean {
  if (contentType === null) return false;
  const mediaType = contentType.split(';', 1)[0]?.trim().toLowerCase() ?? '';
  return (
    mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'))
  );
}

/**
 * Nesting depth of JSON text, counted outside strings; stops counting past `limit`. A text with no
 * more opening brackets than `limit` cannot be deeper, and counting them (`indexOf` runs natively)
 * spares most bodies the walk over every character.
 */
function exceedsDepth(text: string, limit: number): boolean {
  if (openingsAtMost(text, '{', limit) + openingsAtMost(text, '[', limit) <= limit) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
  }
  return false;
}

/** How many times `bracket` occurs in `text`, counted up to `limit + 1`. */
function openingsAtMost(text: string, bracket: string, limit: number): number {
  let count = 0;
  for (let at = text.indexOf(bracket); at >= 0 && count <= limit; at = text.indexOf(bracket, at + 1)) count++;
  return count;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads and parses the JSON body of a request for `operationId`. A request without a body (or with
 * an empty one) gives `present: false`; the caller decides whether the operation needs one. The admin
 * API passes `requireJsonContentType = false` so `curl -d '{...}'` works without a header.
 */
export async function readJsonBody(
  request: EngineRequest,
  operationId: string,
  maxBytes: number,
  requireJsonContentType = true,
): Promise<BodyRead> {
  const declaredLength = request.headers.get('content-length');
  if (
    declaredLength !== null &&
    /^\d+$/.test(declaredLength) &&
    Number.parseInt(declaredLength, 10) > maxBytes
  ) {
    request.body?.discard();
    return { ok: false, error: errors.bodyTooLarge(maxBytes) };
  }
  if (request.body === null) return NO_BODY;
  const contentType = request.headers.get('content-type');
  if (requireJsonContentType && contentType !== null && !isJsonMediaType(contentType)) {
    request.body.discard();
    return { ok: false, error: errors.unsupportedMediaType(operationId, contentType) };
  }
  let bytes: Uint8Array | 'too-large';
  try {
    bytes = await request.body.read(maxBytes);
  } catch {
    return { ok: false, error: errors.malformedJson(operationId, 'the body could not be read') };
  }
  if (bytes === 'too-large') return { ok: false, error: errors.bodyTooLarge(maxBytes) };
  if (bytes.byteLength === 0) return NO_BODY;
  if (requireJsonContentType && contentType === null)
    return { ok: false, error: errors.unsupportedMediaType(operationId, contentType) };
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, error: errors.malformedJson(operationId, 'the body is not valid UTF-8') };
  }
  if (text.trim() === '') return { ok: false, error: errors.malformedJson(operationId, 'the body is blank') };
  if (exceedsDepth(text, MAX_JSON_DEPTH)) {
    return {
      ok: false,
      error: errors.malformedJson(operationId, `nesting deeper than ${MAX_JSON_DEPTH} levels`),
      text,
    };
  }
  try {
    const value: unknown = JSON.parse(text);
    if (MAYBE_OUT_OF_RANGE.test(text) && hasNonFinite(value))
      return {
        ok: false,
        error: errors.malformedJson(
          operationId,
          'a number out of the range of a double (RFC 8259 section 6)',
        ),
        text,
      };
    return { ok: true, text, value, present: true };
  } catch (cause) {
    const detail = cause instanceof SyntaxError ? cause.message : 'unparseable';
    return { ok: false, error: errors.malformedJson(operationId, detail), text };
  }
}

/**
 * A JSON number beyond a double's range parses as Infinity, which no later step can carry (canonical
 * JSON, the store's log): such a body is refused as the client sent it. Only a body with a long
 * exponent or a long run of digits can hold one, so the walk runs for those alone.
 */
const MAYBE_OUT_OF_RANGE = /[eE][+-]?\d{3}|\d{300}/;

function hasNonFinite(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  if (Array.isArray(value)) return value.some(hasNonFinite);
  if (value !== null && typeof value === 'object') return Object.values(value).some(hasNonFinite);
  return false;
}
