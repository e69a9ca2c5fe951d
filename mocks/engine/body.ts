/**
 * Reading a JSON request body: the size limit (413), the content type (415) and the JSON itself (400),
 * in that order. The stream is read chunk by chunk and cancelled as soon as it passes the limit.
 */
import { type EngineError, errors } from './errors.ts';

export type BodyRead =
  | { readonly ok: true; readonly text: string; readonly value: unknown; readonly present: boolean }
  | { readonly ok: false; readonly error: EngineError };

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

/** Reads the whole stream into bytes, or reports that it passed `maxBytes` (and cancels it). */
async function readBytes(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): Promise<Uint8Array | 'too-large'> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return 'too-large';
    }
    chunks.push(value);
  }
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Nesting depth of JSON text, counted outside strings; stops counting past `limit`. */
function exceedsDepth(text: string, limit: number): boolean {
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

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads and parses the JSON body of a request for `operationId`. A request without a body (or with
 * an empty one) gives `present: false`; the caller decides whether the operation needs one. The admin
 * API passes `requireJsonContentType = false` so `curl -d '{...}'` works without a header.
 */
export async function readJsonBody(
  request: Request,
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
    await request.body?.cancel().catch(() => undefined);
    return { ok: false, error: errors.bodyTooLarge(maxBytes) };
  }
  if (request.body === null) return NO_BODY;
  const contentType = request.headers.get('content-type');
  if (requireJsonContentType && contentType !== null && !isJsonMediaType(contentType)) {
    await request.body.cancel().catch(() => undefined);
    return { ok: false, error: errors.unsupportedMediaType(operationId, contentType) };
  }
  let bytes: Uint8Array | 'too-large';
  try {
    bytes = await readBytes(request.body, maxBytes);
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
    };
  }
  try {
    return { ok: true, text, value: JSON.parse(text), present: true };
  } catch (cause) {
    const detail = cause instanceof SyntaxError ? cause.message : 'unparseable';
    return { ok: false, error: errors.malformedJson(operationId, detail) };
  }
}
