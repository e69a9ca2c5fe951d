/**
 * `cca-kit record`: a recording proxy on loopback. Every exchange with the target is forwarded as it
 * is, scrubbed into a HAR entry at once, and the HAR 1.2 file is written when the recorder stops; the
 * written file is then searched for every key value and every scrubbed original, and deleted if one
 * is found. Bounded: request and response bodies (larger ones pass through unrecorded) and the number
 * of exchanges recorded.
 */
import { readFile, unlink, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Entry } from 'har-format';
import { entryOf, harOf } from '../har/har.ts';
import { DEFAULT_SCRUB_RULES, Scrubber, type ScrubRules } from '../har/scrub.ts';
import { findLeaks } from '../har/verify.ts';

export interface RecorderOptions {
  /** The deployment to record: an http(s) origin, with a path prefix if the API has one. */
  readonly target: string;
  readonly out: string;
  /** Default 0 (a free port). Always bound to 127.0.0.1. */
  readonly port?: number;
  readonly rules?: ScrubRules;
  /** Largest body recorded, in bytes (larger ones are proxied but not recorded). Default 8 MiB. */
  readonly maxBodyBytes?: number;
  /** Exchanges recorded at most (later ones are proxied only). Default 10000. */
  readonly maxExchanges?: number;
  /** Time-out of one forwarded request, ms. Default 30000. */
  readonly timeoutMs?: number;
}

export type RecordingResult =
  | { readonly ok: true; readonly path: string; readonly exchanges: number; readonly skipped: number }
  | { readonly ok: false; readonly reason: string; readonly exchanges: number };

export interface Recorder {
  /** Where clients send their requests instead of the target. */
  readonly url: string;
  readonly exchanges: () => number;
  /** Stops the proxy, writes and checks the file. */
  stop(): Promise<RecordingResult>;
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'accept-encoding',
  'upgrade',
  'proxy-connection',
]);
const RESPONSE_DROPPED = new Set([
  'content-encoding',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
]);

async function readBody(request: IncomingMessage, limit: number): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > limit) return 'too-large';
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function pairsOf(request: IncomingMessage): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i < request.rawHeaders.length; i += 2)
    out.push([request.rawHeaders[i] ?? '', request.rawHeaders[i + 1] ?? '']);
  return out;
}

/**
 * Starts the recording proxy.
 *
 * @example
 * const recorder = await startRecorder({ target: 'https://api.example.com', out: 'session.har' });
 * // point the app at recorder.url, use it, then:
 * const result = await recorder.stop(); // { ok: true, path, exchanges }
 */
export async function startRecorder(options: RecorderOptions): Promise<Recorder> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new RangeError(`--target must be an http or https URL (got ${options.target})`);
  const base = options.target.replace(/\/+$/, '');
  const maxBody = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const maxExchanges = options.maxExchanges ?? 10_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const scrubber = new Scrubber(options.rules ?? DEFAULT_SCRUB_RULES);
  const entries: Entry[] = [];
  const startedAt = Date.now();
  let skipped = 0;

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const started = Date.now();
    const body = await readBody(request, maxBody);
    if (body === 'too-large') {
      response.writeHead(413, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ success: false, error: `request body over the recorder limit of ${maxBody} bytes` }),
      );
      return;
    }
    const requestHeaders = pairsOf(request);
    const headers = new Headers();
    for (const [name, value] of requestHeaders)
      if (!HOP_BY_HOP.has(name.toLowerCase())) headers.append(name, value);
    const url = `${base}${request.url ?? '/'}`;
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && body.length > 0;
    let upstream: Response;
    try {
      upstream = await fetch(url, {
        method: request.method ?? 'GET',
        headers,
        ...(hasBody ? { body: new Uint8Array(body) } : {}),
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ success: false, error: `the target did not answer: ${(cause as Error).message}` }),
      );
      return;
    }
    const bytes = Buffer.from(await upstream.arrayBuffer());
    const responseHeaders: [string, string][] = [];
    upstream.headers.forEach((value, name) => {
      if (!RESPONSE_DROPPED.has(name)) responseHeaders.push([name, value]);
    });
    const outgoing: Record<string, string | string[]> = {};
    for (const [name, value] of responseHeaders) {
      const existing = outgoing[name];
      outgoing[name] =
        existing === undefined ? value : [...(Array.isArray(existing) ? existing : [existing]), value];
    }
    response.writeHead(upstream.status, upstream.statusText, outgoing);
    response.end(bytes);
    if (entries.length >= maxExchanges) {
      skipped += 1;
      return;
    }
    entries.push(
      entryOf(
        {
          startedAt: started,
          elapsedMs: Date.now() - started,
          method: request.method ?? 'GET',
          url,
          requestHeaders,
          requestBody: hasBody ? body.toString('utf8') : null,
          status: upstream.status,
          statusText: upstream.statusText,
          responseHeaders,
          responseBody: bytes.length > maxBody ? null : bytes.toString('utf8'),
          responseBytes: bytes.length,
        },
        scrubber,
      ),
    );
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((cause: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ success: false, error: `recorder: ${(cause as Error).message}` }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    exchanges: () => entries.length,
    async stop() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      const har = harOf(
        entries.map((entry) => scrubber.everywhere(entry)),
        options.target,
        startedAt,
        '0.1.0',
      );
      await writeFile(options.out, `${JSON.stringify(har, null, 2)}\n`, { mode: 0o600 });
      const leaks = findLeaks(await readFile(options.out, 'utf8'), scrubber.secrets(), scrubber.keys());
      if (leaks > 0) {
        await unlink(options.out);
        return {
          ok: false,
          reason: `${leaks} scrubbed value(s) or key(s) still appeared in the file; it was deleted`,
          exchanges: entries.length,
        };
      }
      return { ok: true, path: options.out, exchanges: entries.length, skipped };
    },
  };
}
