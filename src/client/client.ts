import { Pool } from 'undici';
import { RateLimiter, RequestBudget } from './limits.ts';
import type { Auth, ClientResult, Exchange, Keys, QueryValue, RequestSpec } from './types.ts';

export interface ClientOptions {
  /** Base URL of the deployment, e.g. `https://api.example.com` (a path prefix is kept). */
  readonly baseUrl: string;
  readonly keys: Keys;
  /** Requests per second across the whole run; default unlimited. */
  readonly maxRps?: number;
  /** Total requests the run may send; default 100 000. */
  readonly maxRequests?: number;
  /** Per-request timeout in ms; default 15 000. */
  readonly timeoutMs?: number;
  /** Keep-alive connections to the origin; default 8. */
  readonly connections?: number;
}

/** State shared by every view of one client: the pool, the limiter, the budget, the sequence. */
interface Shared {
  readonly pool: Pool;
  readonly origin: string;
  readonly prefix: string;
  readonly keys: Keys;
  readonly limiter: RateLimiter;
  readonly budget: RequestBudget;
  readonly timeoutMs: number;
  seq: number;
}

function appendQuery(params: URLSearchParams, name: string, value: QueryValue): void {
  if (value === undefined || value === null) return;
  params.append(name, String(value));
}

/** Builds the path-and-query part of a URL, percent-encoding the query. */
export function buildPathAndQuery(path: string, query: RequestSpec['query']): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) {
    if (Array.isArray(value)) for (const v of value as readonly QueryValue[]) appendQuery(params, name, v);
    else appendQuery(params, name, value as QueryValue);
  }
  const qs = params.toString();
  return qs === '' ? path : `${path}?${qs}`;
}

function headerRecord(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseJson(raw: string): { value: unknown; error?: string } {
  if (raw === '') return { value: undefined, error: 'empty body' };
  try {
    return { value: JSON.parse(raw) };
  } catch (error) {
    return { value: undefined, error: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * A small HTTP client for the service on undici's keep-alive `Pool`. Every answer comes back as
 * data (`ClientResult`), including network failures; the raw text is kept next to the parsed JSON
 * so identity checks can look at the bytes. Every request is recorded without the key value.
 *
 * @example
 * ```ts
 * const client = new ConformanceClient({ baseUrl: 'http://127.0.0.1:4010', keys: { read: process.env.CCA_READ_KEY } });
 * const res = await client.request({ method: 'GET', path: '/v0/action/list', query: { pageSize: 10 }, auth: 'read' });
 * if (res.ok) console.log(res.status, res.raw.length);
 * else if (res.kind === 'network') console.error(res.error.code);
 * await client.close();
 * ```
 */
export class ConformanceClient {
  readonly #shared: Shared;
  readonly #log: Exchange[] = [];
  readonly #parent: ConformanceClient | undefined;

  /** `view` is internal: `scoped()` passes the state it shares with its parent. */
  constructor(
    options: ClientOptions,
    view?: { readonly shared: Shared; readonly parent: ConformanceClient },
  ) {
    if (view !== undefined) {
      this.#shared = view.shared;
      this.#parent = view.parent;
      return;
    }
    const url = new URL(options.baseUrl);
    this.#parent = undefined;
    this.#shared = {
      pool: new Pool(url.origin, { connections: options.connections ?? 8, pipelining: 1 }),
      origin: url.origin,
      prefix: url.pathname.replace(/\/+$/, ''),
      keys: options.keys,
      limiter: new RateLimiter(options.maxRps ?? 0),
      budget: new RequestBudget(options.maxRequests ?? 100_000),
      timeoutMs: options.timeoutMs ?? 15_000,
      seq: 0,
    };
  }

  /** A view sharing pool, limiter and budget, with its own request log (one per law). */
  scoped(): ConformanceClient {
    return new ConformanceClient({ baseUrl: this.baseUrl, keys: {} }, { shared: this.#shared, parent: this });
  }

  get baseUrl(): string {
    return this.#shared.origin + this.#shared.prefix;
  }

  /** Requests sent so far by the whole run. */
  get requestsUsed(): number {
    return this.#shared.budget.used;
  }

  get requestsRemaining(): number {
    return this.#shared.budget.remaining;
  }

  /** Requests recorded by this view, oldest first. */
  get log(): readonly Exchange[] {
    return this.#log;
  }

  /** Key values this client holds, for redaction by reporters. */
  get secrets(): readonly string[] {
    return Object.values(this.#shared.keys).filter((k): k is string => typeof k === 'string' && k !== '');
  }

  hasKey(role: Exclude<Auth, 'none' | { literal: string }>): boolean {
    const key = this.#shared.keys[role];
    return typeof key === 'string' && key !== '';
  }

  #keyValue(auth: Auth): string | undefined {
    if (auth === 'none') return undefined;
    if (typeof auth === 'object') return auth.literal;
    const key = this.#shared.keys[auth];
    if (key === undefined || key === '') throw new Error(`no key configured for role "${auth}"`);
    return key;
  }

  #record(exchange: Exchange): void {
    this.#log.push(exchange);
    if (this.#parent !== undefined) this.#parent.#record(exchange);
  }

  /** Sends one request. Throws only on misuse (missing key) or when the run budget is exhausted. */
  async request<T = unknown>(spec: RequestSpec): Promise<ClientResult<T>> {
    const shared = this.#shared;
    const key = this.#keyValue(spec.auth);
    const body = spec.rawBody ?? (spec.json === undefined ? undefined : JSON.stringify(spec.json));
    const headers: Record<string, string> = { accept: 'application/json', ...spec.headers };
    if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
      headers['content-type'] = 'application/json';
    }
    const pathAndQuery = shared.prefix + buildPathAndQuery(spec.path, spec.query);
    shared.budget.take();
    shared.seq += 1;
    const exchange: Exchange = {
      seq: shared.seq,
      ...(spec.operationId === undefined ? {} : { operationId: spec.operationId }),
      method: spec.method,
      url: shared.origin + pathAndQuery,
      auth: spec.auth,
      headers: { ...headers },
      ...(body === undefined ? {} : { body }),
    };
    this.#record(exchange);
    await shared.limiter.acquire();
    const started = performance.now();
    try {
      const res = await shared.pool.request({
        method: spec.method as 'GET',
        path: pathAndQuery,
        headers: key === undefined ? headers : { ...headers, 'x-api-key': key },
        body: body ?? null,
        signal: AbortSignal.timeout(spec.timeoutMs ?? shared.timeoutMs),
      });
      const raw = await res.body.text();
      exchange.status = res.statusCode;
      exchange.durationMs = performance.now() - started;
      const parsed = parseJson(raw);
      const common = {
        kind: 'http' as const,
        status: res.statusCode,
        raw,
        headers: headerRecord(res.headers),
        exchange,
        ...(parsed.error === undefined ? {} : { jsonError: parsed.error }),
      };
      if (res.statusCode >= 200 && res.statusCode < 300)
        return { ...common, ok: true, body: parsed.value as T };
      return { ...common, ok: false, error: parsed.value };
    } catch (error) {
      exchange.durationMs = performance.now() - started;
      const err = error as { code?: unknown; name?: unknown; message?: unknown };
      const code =
        typeof err.code === 'string' ? err.code : typeof err.name === 'string' ? err.name : 'NETWORK';
      const message = typeof err.message === 'string' ? err.message : String(error);
      return { kind: 'network', ok: false, status: 0, error: { code, message }, raw: '', exchange };
    }
  }

  /** Closes the keep-alive connections (no-op on scoped views). */
  async close(): Promise<void> {
    if (this.#parent === undefined) await this.#shared.pool.close();
  }
}
