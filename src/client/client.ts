import { ClientUsageError } from './errors.ts';
import { RateLimiter, RequestBudget } from './limits.ts';
import { type FetchLike, fetchTransport, type Transport } from './transport.ts';
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
  /**
   * The `fetch` to send with; default `globalThis.fetch`, read at each call (so MSW and test stubs
   * intercept the client like any other code).
   */
  readonly fetch?: FetchLike;
  /** Another transport altogether (the conformance runner's keep-alive pool); overrides `fetch`. */
  readonly transport?: Transport;
}

/** State shared by every view of one client: the transport, the limiter, the budget, the sequence. */
interface Shared {
  readonly transport: Transport;
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

function parseJson(raw: string): { value: unknown; error?: string } {
  if (raw === '') return { value: undefined, error: 'empty body' };
  try {
    return { value: JSON.parse(raw) };
  } catch (error) {
    return { value: undefined, error: error instanceof Error ? error.message : String(error) };
  }
}

/** The code of a failure without an HTTP answer: the system code (`ECONNREFUSED`) or the error name. */
function networkCode(error: unknown): string {
  const err = error as { code?: unknown; name?: unknown; cause?: { code?: unknown } };
  if (typeof err.code === 'string') return err.code;
  // fetch rejects with `TypeError: fetch failed` whose cause carries the system code.
  if (typeof err.cause?.code === 'string') return err.cause.code;
  return typeof err.name === 'string' ? err.name : 'NETWORK';
}

function networkMessage(error: unknown): string {
  const err = error as { message?: unknown; cause?: { message?: unknown } };
  const message = typeof err.message === 'string' ? err.message : String(error);
  const cause = typeof err.cause?.message === 'string' ? err.cause.message : undefined;
  return cause === undefined || message.includes(cause) ? message : `${message}: ${cause}`;
}

/**
 * A small HTTP client for the service on the Fetch API (so MSW, browsers and Node intercept it
 * alike). Every answer comes back as data (`ClientResult`), including network failures; the raw text
 * is kept next to the parsed JSON so identity checks can look at the bytes. Every request is recorded
 * without the key value. Rejects only on misuse (a `ClientUsageError`) or an exhausted budget.
 *
 * @example
 * ```ts
 * import { ConformanceClient } from 'cca-kit/client';
 *
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
      transport: options.transport ?? fetchTransport(options.fetch),
      origin: url.origin,
      prefix: url.pathname.replace(/\/+$/, ''),
      keys: options.keys,
      limiter: new RateLimiter(options.maxRps ?? 0),
      budget: new RequestBudget(options.maxRequests ?? 100_000),
      timeoutMs: options.timeoutMs ?? 15_000,
      seq: 0,
    };
  }

  /** A view sharing transport, limiter and budget, with its own request log (one per law). */
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
    if (key === undefined || key === '') {
      throw new ClientUsageError(
        'NO_KEY',
        `no key configured for role "${auth}" (pass keys: { ${auth}: ... })`,
      );
    }
    return key;
  }

  #record(exchange: Exchange): void {
    this.#log.push(exchange);
    if (this.#parent !== undefined) this.#parent.#record(exchange);
  }

  /**
   * Sends one request. Rejects only on misuse (`ClientUsageError`: no key for the role) or when the run
   * budget is exhausted (`BudgetExhaustedError`); every answer, and every network failure, is data.
   */
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
      // The framing the transport adds, so a reproduction sends the same bytes.
      headers: spec.chunked === true ? { ...headers, 'transfer-encoding': 'chunked' } : { ...headers },
      ...(body === undefined ? {} : { body }),
      ...(spec.absoluteTarget === true ? { requestTarget: shared.origin + pathAndQuery } : {}),
    };
    this.#record(exchange);
    await shared.limiter.acquire();
    const started = performance.now();
    try {
      const res = await shared.transport.send({
        method: spec.method,
        url: shared.origin + pathAndQuery,
        headers: key === undefined ? headers : { ...headers, 'x-api-key': key },
        body,
        signal: AbortSignal.timeout(spec.timeoutMs ?? shared.timeoutMs),
        ...(spec.chunked === true ? { chunked: true } : {}),
        ...(spec.absoluteTarget === true ? { absoluteTarget: true } : {}),
      });
      const raw = res.text;
      exchange.status = res.status;
      exchange.durationMs = performance.now() - started;
      const parsed = parseJson(raw);
      const common = {
        kind: 'http' as const,
        status: res.status,
        raw,
        headers: res.headers,
        exchange,
        ...(parsed.error === undefined ? {} : { jsonError: parsed.error }),
      };
      if (res.status >= 200 && res.status < 300) return { ...common, ok: true, body: parsed.value as T };
      return { ...common, ok: false, error: parsed.value };
    } catch (error) {
      exchange.durationMs = performance.now() - started;
      const failure = { code: networkCode(error), message: networkMessage(error) };
      return { kind: 'network', ok: false, status: 0, error: failure, raw: '', exchange };
    }
  }

  /** Closes the transport's keep-alive connections, if it holds any (no-op on scoped views). */
  async close(): Promise<void> {
    if (this.#parent === undefined) await this.#shared.transport.close?.();
  }
}
