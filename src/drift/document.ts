/**
 * Reading the documents drift compares: the live one from `{base_url}/docs/json` (spec 9.4) or a file,
 * and the base (the bundled contract or a file). Every way a document can be unusable is a value naming
 * what is wrong, never a throw: unreachable, too large, not JSON, not OpenAPI, an unsupported version,
 * a `$ref` that does not resolve.
 */
import { open } from 'node:fs/promises';
import { danglingRefs, isRecord } from './walk.ts';

export type DocumentProblem =
  | 'unreachable'
  | 'too-large'
  | 'not-json'
  | 'not-openapi'
  | 'unsupported-version';

export type DocumentResult =
  | {
      readonly ok: true;
      readonly source: string;
      readonly document: Record<string, unknown>;
      readonly version: string;
    }
  | {
      readonly ok: false;
      readonly source: string;
      readonly problem: DocumentProblem;
      readonly message: string;
    };

export interface ReadLimits {
  /** Largest document read, in bytes. */
  readonly maxBytes: number;
  /** Time allowed for fetching the live document, in milliseconds. */
  readonly timeoutMs: number;
}

export const DEFAULT_READ_LIMITS = {
  maxBytes: 16 * 1024 * 1024,
  timeoutMs: 15_000,
} as const satisfies ReadLimits;

const fail = (source: string, problem: DocumentProblem, message: string): DocumentResult => ({
  ok: false,
  source,
  problem,
  message: `${source}: ${message}`,
});

/** Checks parsed JSON is an OpenAPI 3.0 or 3.1 document the diff can read. */
export function checkDocument(source: string, parsed: unknown): DocumentResult {
  if (!isRecord(parsed)) return fail(source, 'not-openapi', 'not OpenAPI: the JSON is not an object');
  if (typeof parsed['swagger'] === 'string')
    return fail(
      source,
      'unsupported-version',
      `Swagger ${parsed['swagger']} is not supported: drift reads OpenAPI 3.0 and 3.1`,
    );
  const version = parsed['openapi'];
  if (typeof version !== 'string')
    return fail(source, 'not-openapi', 'not OpenAPI: no "openapi" version field');
  if (!/^3\.[01]\.\d+$/.test(version))
    return fail(
      source,
      'unsupported-version',
      `OpenAPI ${version} is not supported: drift reads 3.0.x and 3.1.x`,
    );
  if (!isRecord(parsed['info']))
    return fail(source, 'not-openapi', `not valid OpenAPI ${version}: no "info" object`);
  if (!isRecord(parsed['paths']))
    return fail(source, 'not-openapi', `not valid OpenAPI ${version}: no "paths" object`);
  for (const [route, item] of Object.entries(parsed['paths'])) {
    if (!route.startsWith('/'))
      return fail(
        source,
        'not-openapi',
        `not valid OpenAPI ${version}: path ${JSON.stringify(route)} does not start with /`,
      );
    if (!isRecord(item))
      return fail(source, 'not-openapi', `not valid OpenAPI ${version}: path item ${route} is not an object`);
  }
  const dangling = danglingRefs(parsed);
  if (dangling.length > 0)
    return fail(source, 'not-openapi', `not valid OpenAPI ${version}: unresolved ${dangling.join('; ')}`);
  return { ok: true, source, document: parsed, version };
}

export function parseDocument(source: string, text: string): DocumentResult {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    return fail(source, 'not-json', `not JSON (${(cause as Error).message})`);
  }
  return checkDocument(source, parsed);
}

/** Reads a file, at most `maxBytes`. */
export async function readDocumentFile(
  path: string,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<DocumentResult> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (cause) {
    return fail(
      path,
      'unreachable',
      `cannot read the file (${(cause as NodeJS.ErrnoException).code ?? (cause as Error).message})`,
    );
  }
  try {
    const { size } = await handle.stat();
    if (size > limits.maxBytes)
      return fail(path, 'too-large', `${size} bytes, over the limit of ${limits.maxBytes}`);
    return parseDocument(path, await handle.readFile('utf8'));
  } catch (cause) {
    return fail(path, 'unreachable', `cannot read the file (${(cause as Error).message})`);
  } finally {
    await handle.close();
  }
}

/** The live document's URL: `{base_url}/docs/json`, keeping any path prefix of the base URL. */
export function liveDocumentUrl(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, '')}/docs/json`;
  return url;
}

/** Fetches the live document, bounded in time and size. */
export async function fetchLiveDocument(
  baseUrl: string,
  limits: ReadLimits = DEFAULT_READ_LIMITS,
): Promise<DocumentResult> {
  let url: URL;
  try {
    url = liveDocumentUrl(baseUrl);
  } catch {
    return fail(baseUrl, 'unreachable', 'not a URL');
  }
  const source = url.href;
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return fail(source, 'unreachable', `unsupported protocol ${url.protocol}`);
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, { headers: { accept: 'application/json' }, signal, redirect: 'follow' });
  } catch (cause) {
    const reason = signal.aborted ? `no answer within ${limits.timeoutMs} ms` : describeFetchError(cause);
    return fail(source, 'unreachable', `unreachable (${reason})`);
  }
  if (!response.ok) {
    await response.body?.cancel();
    return fail(source, 'unreachable', `answered HTTP ${response.status}, not the document`);
  }
  const declared = Number.parseInt(response.headers.get('content-length') ?? '', 10);
  if (Number.isFinite(declared) && declared > limits.maxBytes) {
    await response.body?.cancel();
    return fail(source, 'too-large', `${declared} bytes, over the limit of ${limits.maxBytes}`);
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  const reader = response.body?.getReader();
  try {
    for (;;) {
      const next = reader === undefined ? { done: true as const } : await reader.read();
      if (next.done) break;
      total += next.value.byteLength;
      if (total > limits.maxBytes) {
        await reader?.cancel().catch(() => undefined);
        return fail(source, 'too-large', `over the limit of ${limits.maxBytes} bytes`);
      }
      chunks.push(next.value);
    }
  } catch (cause) {
    const reason = signal.aborted ? 'timeout' : describeFetchError(cause);
    return fail(source, 'unreachable', `the answer broke off (${reason})`);
  }
  return parseDocument(source, Buffer.concat(chunks).toString('utf8'));
}

function describeFetchError(cause: unknown): string {
  if (cause instanceof Error) {
    const inner = cause.cause;
    if (inner instanceof Error) return `${inner.message}`;
    return cause.message;
  }
  return String(cause);
}
