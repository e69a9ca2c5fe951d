/** Building WHATWG Responses: JSON with one content type, HTML for the docs page, CORS on every answer. */
import { SerialisedJson } from './types.ts';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/** Every response may be read cross-origin: a front end on another port calls the mock directly. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'allow, x-mock-error-code',
} as const;

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> | undefined,
  headOnly: boolean,
): Response {
  const init: ResponseInit = {
    status,
    headers: { 'content-type': JSON_CONTENT_TYPE, ...CORS_HEADERS, ...headers },
  };
  const noBody = headOnly || status === 204 || status === 304 || body === undefined;
  if (noBody) return new Response(null, init);
  const bytes = body instanceof SerialisedJson ? body.bytes() : encoder.encode(JSON.stringify(body));
  const response = new Response(bytes, init);
  SERIALISED.set(response, bytes);
  return response;
}

const encoder = new TextEncoder();
const SERIALISED = new WeakMap<Response, Uint8Array>();

/** The bytes of a body `jsonResponse` serialised, so an adapter can write them without reading the stream. */
export const serialisedBodyOf = (response: Response): Uint8Array | undefined => SERIALISED.get(response);

export function textResponse(status: number, text: string, contentType: string, headOnly: boolean): Response {
  return new Response(headOnly ? null : text, {
    status,
    headers: { 'content-type': contentType, ...CORS_HEADERS },
  });
}

/** The answer to a CORS preflight (an OPTIONS request carrying Access-Control-Request-Method). */
export function preflightResponse(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS_HEADERS,
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers': 'content-type, x-api-key, x-mock-admin-token, authorization',
      'access-control-max-age': '600',
    },
  });
}
