/**
 * The request journal: every exchange of the REST engine (as an interceptor) and of the other
 * transports that hand theirs in (`record`, the MCP endpoint), kept in a ring buffer (default 500
 * entries; the oldest goes first) with bodies cut at `maxBodyBytes` (default 32 KiB), so memory stays
 * bounded. Keys are never kept: secret headers are masked before anything is stored, and every key
 * the mock knows or saw presented is masked in bodies and paths whenever an entry is read.
 *
 * Admin requests (`/__mock/...`) are not journaled: the dashboard polls them, and they are not the
 * client's traffic.
 */
import type { AdminApi } from '../admin/api.ts';
import type { EngineRequest } from '../exchange.ts';
import type { EngineInterceptor, InterceptorHost } from '../interceptors.ts';
import { positiveInteger, Ring } from '../ring.ts';
import { SECRET_HEADERS } from '../secret-headers.ts';
import type { KeyProfile } from '../types.ts';
import { violationLogOf } from '../violations/registry.ts';
import { journalAttachments } from './registry.ts';
import type {
  JournalBody,
  JournalEntry,
  JournalExchange,
  JournalFilter,
  JournalStats,
  JournalSummary,
  JournalViolation,
} from './types.ts';
import { violationsOf } from './violations.ts';

export const DEFAULT_JOURNAL_CAPACITY = 500;
export const DEFAULT_JOURNAL_MAX_BODY_BYTES = 32 * 1024;
export const MASKED = '[masked]';

export interface JournalOptions {
  /** Exchanges kept (ring buffer). Default 500. */
  readonly capacity?: number;
  /** Bytes kept of each request and response body. Default 32 KiB. */
  readonly maxBodyBytes?: number;
  /** A monotonic millisecond clock for durations. Default `performance.now`. */
  readonly now?: () => number;
}

export interface Journal extends EngineInterceptor {
  readonly kind: 'journal';
  /** Records an exchange of another transport (the MCP endpoint); returns its summary. */
  record(exchange: JournalExchange): JournalSummary;
  /** Summaries (no bodies), oldest first. */
  list(filter?: JournalFilter): readonly JournalSummary[];
  /** One exchange with headers and bodies, keys masked. */
  get(seq: number): JournalEntry | undefined;
  /** Every retained exchange with headers and bodies, keys masked, oldest first (for the HAR export). */
  entries(filter?: JournalFilter): readonly JournalEntry[];
  /** Empties the journal; returns how many entries it held. */
  clear(): number;
  stats(): JournalStats;
}

/** Shorter strings are not searched for in bodies (a key is far longer; too many false matches). */
const MIN_SECRET_LENGTH = 8;
/** Presented key values remembered for masking (an attacker sending random keys cannot grow it). */
const MAX_PRESENTED = 256;

type RawBody = JournalExchange['requestBody'];

interface KeptBody {
  readonly value: Uint8Array | string | readonly Uint8Array[] | null;
  readonly truncated: boolean;
  readonly bytes: number;
}

interface Stored {
  readonly summary: JournalSummary;
  readonly requestHeaders: readonly (readonly [string, string])[];
  readonly requestBody: KeptBody;
  readonly responseHeaders: readonly (readonly [string, string])[];
  readonly responseBody: KeptBody;
}

/** The journal installed in the engine owning `admin`, if any (the admin routes find it here). */
export const journalOf = (admin: AdminApi): Journal | undefined => journalAttachments.of(admin);

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function textOf(value: Uint8Array | string | readonly Uint8Array[]): string {
  if (typeof value === 'string') return value;
  if (value instanceof Uint8Array) return decoder.decode(value);
  let out = '';
  const streaming = new TextDecoder();
  for (const chunk of value) out += streaming.decode(chunk, { stream: true });
  return out + streaming.decode();
}

/**
 * The body's first `max` bytes. Nothing is copied: an answer's bytes are never mutated after it is
 * built (pages are cached fragments), so the journal keeps views of them; copying a page per request
 * was most of the journal's cost (a 32 KiB allocation for every list answer).
 */
function keep(body: RawBody, max: number): KeptBody {
  if (body === null) return { value: null, truncated: false, bytes: 0 };
  if (typeof body === 'string') {
    if (body.length === 0) return { value: null, truncated: false, bytes: 0 };
    // A string of n UTF-16 units is at most 3n bytes: short ones are kept as they are.
    if (body.length * 3 <= max) return { value: body, truncated: false, bytes: utf8Length(body) };
    return keep(encoder.encode(body), max);
  }
  if (body instanceof Uint8Array) {
    return body.byteLength <= max
      ? { value: body, truncated: false, bytes: body.byteLength }
      : { value: body.subarray(0, max), truncated: true, bytes: body.byteLength };
  }
  let total = 0;
  const kept: Uint8Array[] = [];
  for (const chunk of body) {
    if (total < max) kept.push(total + chunk.byteLength <= max ? chunk : chunk.subarray(0, max - total));
    total += chunk.byteLength;
  }
  return { value: kept, truncated: total > max, bytes: total };
}

/** UTF-8 length of a string without encoding it. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Creates a journal; install it with `createEngine({ interceptors: [violationLog, journal] })`, after
 * the violation log (it picks up the violations the log recorded for each request).
 *
 * @example
 * const journal = createJournal({ capacity: 200 });
 * const engine = createEngine({ interceptors: [createViolationLog(), journal] });
 * await engine.handle(new Request('http://mock/v0/action/list?pageSize=0', { headers: { 'x-api-key': key } }));
 * journal.list()[0]?.status; // 400
 */
export function createJournal(options: JournalOptions = {}): Journal {
  const capacity = positiveInteger('capacity', options.capacity ?? DEFAULT_JOURNAL_CAPACITY);
  const maxBodyBytes = positiveInteger(
    'maxBodyBytes',
    options.maxBodyBytes ?? DEFAULT_JOURNAL_MAX_BODY_BYTES,
  );
  const now = options.now ?? (() => performance.now());
  const ring = new Ring<Stored>(capacity);
  let total = 0;
  let host: InterceptorHost | undefined;
  const presented = new Set<string>();
  /** When each request arrived (by the transport's request object). */
  const started = new WeakMap<EngineRequest, number>();
  /** What the pipeline knew of a request, from its result until the answer. */
  const results = new WeakMap<
    EngineRequest,
    { operationId: string | null; rawBody: string; violations: readonly JournalViolation[] }
  >();
  let violationsSeen = 0;
  /** The body of a request that failed validation (its result event carries none). */
  const invalidBodies = new WeakMap<EngineRequest, string>();

  const remember = (key: string): void => {
    if (key.length < MIN_SECRET_LENGTH || presented.has(key)) return;
    if (presented.size >= MAX_PRESENTED) {
      const oldest = presented.values().next().value;
      if (oldest !== undefined) presented.delete(oldest);
    }
    presented.add(key);
  };

  const maskHeaders = (pairs: Iterable<readonly [string, string]>): (readonly [string, string])[] => {
    const out: (readonly [string, string])[] = [];
    for (const [name, value] of pairs) {
      const lower = name.toLowerCase();
      if (!SECRET_HEADERS.has(lower)) {
        out.push([lower, value]);
        continue;
      }
      const scheme = /^(\S+)\s+(\S+)$/.exec(value);
      if (lower !== 'cookie' && lower !== 'set-cookie') remember(scheme?.[2] ?? value);
      out.push([lower, scheme !== null && lower === 'authorization' ? `${scheme[1]} ${MASKED}` : MASKED]);
    }
    return out;
  };

  /** Every key the mock knows or saw presented, longest first (a key inside another is masked whole). */
  const secrets = (): string[] => {
    const all = new Set(presented);
    if (host !== undefined) for (const key of host.state.keys.byKey.keys()) all.add(key);
    return [...all].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
  };

  const mask = (text: string, known: readonly string[]): string => {
    let out = text;
    for (const secret of known) if (out.includes(secret)) out = out.split(secret).join(MASKED);
    return out;
  };

  const bodyView = (kept: KeptBody, known: readonly string[]): JournalBody => ({
    text: kept.value === null ? null : mask(textOf(kept.value), known),
    truncated: kept.truncated,
    bytes: kept.bytes,
  });

  const summaryView = (summary: JournalSummary, known: readonly string[]): JournalSummary => {
    const path = mask(summary.path, known);
    return path === summary.path ? summary : { ...summary, path };
  };

  const entryView = (stored: Stored, known: readonly string[]): JournalEntry => ({
    ...summaryView(stored.summary, known),
    request: {
      headers: stored.requestHeaders.map(([n, v]) => [n, mask(v, known)] as const),
      body: bodyView(stored.requestBody, known),
    },
    response: {
      headers: stored.responseHeaders.map(([n, v]) => [n, mask(v, known)] as const),
      body: bodyView(stored.responseBody, known),
    },
  });

  const matches = (summary: JournalSummary, filter: JournalFilter): boolean => {
    if (filter.since !== undefined && summary.seq <= filter.since) return false;
    if (filter.interface !== undefined && summary.interface !== filter.interface) return false;
    if (filter.operation !== undefined && summary.operation !== filter.operation) return false;
    if (filter.organizationId !== undefined && summary.organizationId !== filter.organizationId) return false;
    if (filter.violationsOnly === true && summary.violations.length === 0) return false;
    if (filter.status !== undefined) {
      const status = String(summary.status);
      const wanted = filter.status.toLowerCase();
      if (/^[1-5]xx$/.test(wanted) ? status[0] !== wanted[0] : status !== wanted) return false;
    }
    if (
      filter.rule !== undefined &&
      !summary.violations.some(
        (v) => v.rule === filter.rule || (v.rule === null && v.keyword === filter.rule),
      )
    )
      return false;
    return true;
  };

  const each = (visit: (stored: Stored) => void): void => {
    for (const stored of ring) visit(stored);
  };

  const profileOf = (
    key: string | null,
  ): { organizationId: string | null; keyProfile: KeyProfile | null } => {
    const record = key === null || host === undefined ? undefined : host.state.keys.byKey.get(key);
    return record === undefined
      ? { organizationId: null, keyProfile: null }
      : { organizationId: record.organizationId, keyProfile: record.profile };
  };

  const record = (exchange: JournalExchange): JournalSummary => {
    total += 1;
    const requestHeaders = maskHeaders(exchange.requestHeaders);
    const summary: JournalSummary = {
      seq: total,
      interface: exchange.interface,
      at: new Date(host?.clock.now() ?? 0).toISOString(),
      durationMs: Math.max(0, Math.round(exchange.durationMs * 10) / 10),
      method: exchange.method,
      path: exchange.key === null ? exchange.path : mask(exchange.path, [exchange.key]),
      operation: exchange.operation,
      ...profileOf(exchange.key),
      status: exchange.status,
      violations: exchange.violations ?? [],
    };
    const stored: Stored = {
      summary,
      requestHeaders,
      requestBody: keep(exchange.requestBody, maxBodyBytes),
      responseHeaders: maskHeaders(exchange.responseHeaders),
      responseBody: keep(exchange.responseBody, maxBodyBytes),
    };
    ring.push(stored);
    return summary;
  };

  const isAdmin = (request: EngineRequest): boolean => request.url.pathname.startsWith('/__mock/');

  const journal: Journal = {
    kind: 'journal',
    attach(engineHost) {
      host = engineHost;
      journalAttachments.set(engineHost.admin, journal);
    },
    onRequest(request) {
      if (!isAdmin(request)) started.set(request, now());
      return undefined;
    },
    onRequestIssues(event) {
      invalidBodies.set(event.request, event.rawBody);
    },
    onResult(event) {
      if (isAdmin(event.request) || host === undefined) return undefined;
      // The violation log ran just before (it is installed first) and synchronously: what it recorded
      // since the last look belongs to this request. `stats()` is O(1); the list is read only then.
      let violations: readonly JournalViolation[] = [];
      const log = violationLogOf(host.admin);
      const logged = log?.stats().total ?? 0;
      if (log !== undefined && logged > violationsSeen) {
        violations = violationsOf(log.list({ since: violationsSeen }));
        violationsSeen = logged;
      }
      const rawBody = event.rawBody === '' ? (invalidBodies.get(event.request) ?? '') : event.rawBody;
      results.set(event.request, { operationId: event.operationId, rawBody, violations });
      return undefined;
    },
    onAnswer({ request, handled, response }) {
      if (isAdmin(request)) return;
      const start = started.get(request);
      const known = results.get(handled);
      record({
        interface: 'rest',
        durationMs: start === undefined ? 0 : now() - start,
        method: request.method,
        path: `${request.url.pathname}${request.url.search}`,
        operation: known?.operationId ?? null,
        key: handled.headers.get('x-api-key'),
        status: response.kind === 'drop' ? 0 : response.status,
        requestHeaders: request.headers.entries(),
        requestBody: known === undefined || known.rawBody === '' ? null : known.rawBody,
        responseHeaders: response.kind === 'drop' ? [] : Object.entries(response.headers),
        responseBody: response.kind === 'drop' ? null : response.body,
        violations: known?.violations ?? [],
      });
    },
    record,
    list(filter = {}) {
      const known = secrets();
      const out: JournalSummary[] = [];
      each((stored) => {
        if (matches(stored.summary, filter)) out.push(summaryView(stored.summary, known));
      });
      return out;
    },
    get(seq) {
      let found: Stored | undefined;
      each((stored) => {
        if (stored.summary.seq === seq) found = stored;
      });
      return found === undefined ? undefined : entryView(found, secrets());
    },
    entries(filter = {}) {
      const known = secrets();
      const out: JournalEntry[] = [];
      each((stored) => {
        if (matches(stored.summary, filter)) out.push(entryView(stored, known));
      });
      return out;
    },
    clear: () => ring.clear(),
    stats: () => ({ capacity, maxBodyBytes, total, retained: ring.size, dropped: ring.dropped }),
  };
  return journal;
}
