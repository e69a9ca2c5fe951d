/** Building answers: JSON with one content type, HTML for the docs page, CORS on every answer. */
import type { EngineAnswer } from './exchange.ts';
import { SerialisedJson } from './types.ts';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
export const HTML_CONTENT_TYPE = 'text/html; charset=utf-8';

/** Every response may be read cross-origin: a front end on another port calls the mock directly. */
const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'allow, x-mock-error-code',
} as const;

/** The headers of almost every answer, built once: most handlers add none. */
const JSON_HEADERS: Readonly<Record<string, string>> = { 'content-type': JSON_CONTENT_TYPE, ...CORS_HEADERS };

const encoder = new TextEncoder();

export function jsonResponse(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> | undefined,
  headOnly: boolean,
): EngineAnswer {
  const all = headers === undefined ? JSON_HEADERS : { ...JSON_HEADERS, ...headers };
  const noBody = headOnly || status === 204 || status === 304 || body === undefined;
  if (noBody) return { kind: 'answer', status, headers: all, body: null };
  const bytes = body instanceof SerialisedJson ? body.chunks : encoder.encode(JSON.stringify(body));
  return { kind: 'answer', status, headers: all, body: bytes };
}

export function textResponse(
  status: number,
  text: string,
  contentType: string,
  headOnly: boolean,
): EngineAnswer {
  return {
    kind: 'answer',
    status,
    headers: { 'content-type': contentType, ...CORS_HEADERS },
    body: headOnly ? null : text,
  };
}

const PREFLIGHT: EngineAnswer = {
  kind: 'answer',
  status: 204,
  headers: {
    ...CORS_HEADERS,
    'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
    'access-control-allow-headers': 'content-type, x-api-key, x-mock-admin-token, authorization',
    'access-control-max-age': '600',
  },
  body: null,
};

/** The answer to a CORS preflight (an OPTIONS request carrying Access-Control-Request-Method). */
export const preflightResponse = (): EngineAnswer => PREFLIGHT;
