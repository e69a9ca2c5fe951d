/**
 * The request journal: every exchange of the REST engine (as an interceptor) and of the other
 * transports that hand theirs in (`record`, the MCP endpoint), kept in a ring buffer (default 500
 * entries; the oldest goes first) with bodies cut at `maxBodyBytes` (default 32 KiB), so memory stays
 * bounded. Keys are never shown: secret headers are masked, and every key the mock knows or saw
 * presented is masked in headers, bodies and paths, whenever an entry is read.
 *
 * Recording is on every request's path, so it only keeps references: the request's headers, the
 * answer's header record and bytes (never mutated after they are built), numbers for the time. The
 * masking, the ISO time and the summary object are made when an entry is read (the dashboard, the
 * HAR export), which is rare next to the traffic. Only the secret headers' values are looked at when
 * recording, so a presented key is remembered for masking the other entries.
 *
 * Admin requests (`/__mock/...`) are not journaled: the dashboard polls them, and they are not the
 * client's traffic.
 */
import type { AdminApi } from '../admin/api.ts';
import { keyOfValue, knownKeyValues } from '../auth/index.ts';
import type { EngineRequest, RequestHeaders } from '../exchange.ts';
import type { InterceptorHost } from '../interceptors.ts';
import { positiveInteger, Ring } from '../ring.ts';
import { SECRET_HEADERS } from '../secret-headers.ts';
import { createSecretMask, MASKED, MIN_SECRET_LENGTH } from '../secret-mask.ts';
import type { KeyProfile } from '../types.ts';
import { violationLogOf } from '../violations/registry.ts';
import { journalAttachments } from './registry.ts';
import type {
  Journal,
  JournalBody,
  JournalEntry,
  JournalExchange,
  JournalFilter,
  JournalSummary,
  JournalViolation,
} from './types.ts';
import { violationsOf } from './violations.ts';

export const DEFAULT_JOURNAL_CAPACITY = 500;
export const DEFAULT_JOURNAL_MAX_BODY_BYTES = 32 * 1024;
export { MASKED } from '../secret-mask.ts';
export type { Journal } from './types.ts';

export interface JournalOptions {
  /** Exchanges kept (ring buffer). Default 500. */
  readonly capacity?: number;
  /** Bytes kept of each request and response body. Default 32 KiB. */
  readonly maxBodyBytes?: number;
  /**
   * A monotonic millisecond clock for durations, on `performance.now()`'s timebase (the engine stamps a
   * request's arrival with it). Default `performance.now`.
   */
  readonly now?: () => number;
}

type RawBody = JournalExchange['requestBody'];

interface KeptBody {
  readonly value: Uint8Array | string | readonly Uint8Array[] | null;
  readonly truncated: boolean;
  readonly bytes: number;
}

type HeaderPairs = readonly (readonly [string, string])[];

/** An exchange as recorded: references and numbers; `summaryOf` and `entryView` make the rest. */
interface Stored {
  readonly seq: number;
  readonly interface: JournalSummary['interface'];
  /** The mock clock's time (ms) at the answer. */
  readonly at: number;
  readonly durationMs: number;
  readonly method: string;
  /** The path and query, or the URL to take them from when read. */
  readonly target: string | URL;
  readonly operation: string | null;
  readonly organizationId: string | null;
  readonly keyProfile: KeyProfile | null;
  readonly status: number;
  readonly violations: readonly JournalViolation[];
  readonly fault: string | null;
  readonly requestHeaders: RequestHeaders | HeaderPairs;
  readonly requestBody: KeptBody;
  readonly responseHeaders: Readonly<Record<string, string>> | HeaderPairs;
  readonly responseBody: KeptBody;
  /** Made at the first read (the path with this exchange's key masked; other keys at each read). */
  summary: JournalSummary | undefined;
}

const NO_BODY: KeptBody = { value: null, truncated: false, bytes: 0 };
/** Names whose value is a secret to remember (cookies are masked but hold no key of the service). */
const REMEMBERED_HEADERS = [...SECRET_HEADERS].filter((name) => name !== 'cookie' && name !== 'set-cookie');

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
  if (body === null) return NO_BODY;
  if (typeof body === 'string') {
    if (body.length === 0) return NO_BODY;
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
  const secretMask = createSecretMask(() => (host === undefined ? [] : knownKeyValues(host.state.keys)));
  let violationsSeen = 0;
  /** Violations of a request from its result until its answer (only requests that have any). */
  const pendingViolations = new WeakMap<EngineRequest, readonly JournalViolation[]>();
  let pendingCount = 0;

  const maskHeaders = (pairs: Iterable<readonly [string, string]>): (readonly [string, string])[] => {
    const out: (readonly [string, string])[] = [];
    for (const [name, value] of pairs) {
      const lower = name.toLowerCase();
      if (!SECRET_HEADERS.has(lower)) {
        out.push([lower, value]);
        continue;
      }
      if (lower !== 'cookie' && lower !== 'set-cookie') secretMask.rememberHeaderValue(value);
      const scheme = /^(\S+)\s+(\S+)$/.exec(value);
      out.push([lower, scheme !== null && lower === 'authorization' ? `${scheme[1]} ${MASKED}` : MASKED]);
    }
    return out;
  };

  const pairsOf = (
    headers: RequestHeaders | Readonly<Record<string, string>> | HeaderPairs,
  ): Iterable<readonly [string, string]> => {
    if (Array.isArray(headers)) return headers as HeaderPairs;
    const entries = (headers as RequestHeaders).entries;
    return typeof entries === 'function'
      ? (headers as RequestHeaders).entries()
      : Object.entries(headers as Readonly<Record<string, string>>);
  };

  const secrets = (): string[] => secretMask.secrets();
  const mask = (text: string, known: readonly string[]): string => secretMask.mask(text, known);

  const bodyView = (kept: KeptBody, known: readonly string[]): JournalBody => ({
    text: kept.value === null ? null : mask(textOf(kept.value), known),
    truncated: kept.truncated,
    bytes: kept.bytes,
  });

  const summaryOf = (stored: Stored): JournalSummary => {
    if (stored.summary !== undefined) return stored.summary;
    const target =
      typeof stored.target === 'string' ? stored.target : `${stored.target.pathname}${stored.target.search}`;
    stored.summary = {
      seq: stored.seq,
      interface: stored.interface,
      at: new Date(stored.at).toISOString(),
      durationMs: stored.durationMs,
      method: stored.method,
      path: target,
      operation: stored.operation,
      organizationId: stored.organizationId,
      keyProfile: stored.keyProfile,
      status: stored.status,
      violations: stored.violations,
      fault: stored.fault,
    };
    return stored.summary;
  };

  const summaryView = (stored: Stored, known: readonly string[]): JournalSummary => {
    const summary = summaryOf(stored);
    const path = mask(summary.path, known);
    return path === summary.path ? summary : { ...summary, path };
  };

  const entryView = (stored: Stored, known: readonly string[]): JournalEntry => ({
    ...summaryView(stored, known),
    request: {
      headers: maskHeaders(pairsOf(stored.requestHeaders)).map(([n, v]) => [n, mask(v, known)] as const),
      body: bodyView(stored.requestBody, known),
    },
    response: {
      headers: maskHeaders(pairsOf(stored.responseHeaders)).map(([n, v]) => [n, mask(v, known)] as const),
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

  /** The path and query, with the exchange's own key masked now (it may be forgotten before a read). */
  const targetOf = (target: string | URL, key: string | null): string | URL => {
    if (key === null || key.length < MIN_SECRET_LENGTH) return target;
    // `href` is a string the URL already holds: nothing is built unless the key is in it.
    if (!(typeof target === 'string' ? target : target.href).includes(key)) return target;
    return mask(typeof target === 'string' ? target : `${target.pathname}${target.search}`, [key]);
  };

  /** One shape for every entry (written out, not spread: this runs for every request). */
  const store = (
    kind: JournalSummary['interface'],
    durationMs: number,
    method: string,
    target: string | URL,
    operation: string | null,
    key: string | null,
    status: number,
    violations: readonly JournalViolation[],
    requestHeaders: Stored['requestHeaders'],
    requestBody: KeptBody,
    responseHeaders: Stored['responseHeaders'],
    responseBody: KeptBody,
    fault: string | null,
  ): Stored => {
    total += 1;
    const record = key === null || host === undefined ? undefined : keyOfValue(host.state.keys, key);
    const stored: Stored = {
      seq: total,
      interface: kind,
      at: host?.clock.now() ?? 0,
      durationMs,
      method,
      target: targetOf(target, key),
      operation,
      organizationId: record === undefined ? null : record.organizationId,
      keyProfile: record === undefined ? null : record.profile,
      status,
      violations,
      fault,
      requestHeaders,
      requestBody,
      responseHeaders,
      responseBody,
      summary: undefined,
    };
    ring.push(stored);
    return stored;
  };

  const record = (exchange: JournalExchange): JournalSummary => {
    // Another transport's iterables may be read once only: copied now (this is not the REST path).
    const requestHeaders = [...exchange.requestHeaders];
    const responseHeaders = [...exchange.responseHeaders];
    for (const [name, value] of [...requestHeaders, ...responseHeaders]) {
      const lower = name.toLowerCase();
      if (SECRET_HEADERS.has(lower) && lower !== 'cookie' && lower !== 'set-cookie')
        secretMask.rememberHeaderValue(value);
    }
    const stored = store(
      exchange.interface,
      Math.max(0, Math.round(exchange.durationMs * 10) / 10),
      exchange.method,
      exchange.path,
      exchange.operation,
      exchange.key,
      exchange.status,
      exchange.violations ?? [],
      requestHeaders,
      keep(exchange.requestBody, maxBodyBytes),
      responseHeaders,
      keep(exchange.responseBody, maxBodyBytes),
      null,
    );
    return summaryOf(stored);
  };

  const isAdmin = (request: EngineRequest): boolean => request.url.pathname.startsWith('/__mock/');

  const journal: Journal = {
    kind: 'journal',
    attach(engineHost) {
      host = engineHost;
      journalAttachments.set(engineHost.admin, journal);
    },
    onResult(event) {
      if (host === undefined) return undefined;
      // The violation log ran just before (it is installed first) and synchronously: what it recorded
      // since the last look belongs to this request. `stats()` is O(1); the list is read only then.
      const log = violationLogOf(host.admin);
      if (log === undefined) return undefined;
      const logged = log.stats().total;
      if (logged > violationsSeen) {
        const violations = violationsOf(log.list({ since: violationsSeen }));
        violationsSeen = logged;
        if (!isAdmin(event.request)) {
          pendingViolations.set(event.request, violations);
          pendingCount += 1;
        }
      }
      return undefined;
    },
    onAnswer({ request, handled, response, operationId, rawBody, receivedAt, fault }) {
      if (isAdmin(request)) return;
      let violations: readonly JournalViolation[] = [];
      if (pendingCount > 0) {
        const pending = pendingViolations.get(handled);
        if (pending !== undefined) {
          pendingViolations.delete(handled);
          pendingCount -= 1;
          violations = pending;
        }
      }
      const headers = request.headers;
      let key: string | null = null;
      for (const name of REMEMBERED_HEADERS) {
        const value = headers.get(name);
        if (value === null) continue;
        if (name === 'x-api-key') key = value;
        secretMask.rememberHeaderValue(value);
      }
      const drop = response.kind === 'drop';
      if (!drop)
        for (const name in response.headers)
          if (SECRET_HEADERS.has(name) && name !== 'set-cookie')
            secretMask.rememberHeaderValue(response.headers[name] as string);
      store(
        'rest',
        Math.max(0, Math.round((now() - receivedAt) * 10) / 10),
        request.method,
        request.url,
        operationId,
        handled === request ? key : handled.headers.get('x-api-key'),
        drop ? 0 : response.status,
        violations,
        headers,
        rawBody === '' ? NO_BODY : keep(rawBody, maxBodyBytes),
        drop ? [] : response.headers,
        drop ? NO_BODY : keep(response.body, maxBodyBytes),
        fault,
      );
    },
    record,
    list(filter = {}) {
      const known = secrets();
      const out: JournalSummary[] = [];
      each((stored) => {
        if (matches(summaryOf(stored), filter)) out.push(summaryView(stored, known));
      });
      return out;
    },
    get(seq) {
      let found: Stored | undefined;
      each((stored) => {
        if (stored.seq === seq) found = stored;
      });
      return found === undefined ? undefined : entryView(found, secrets());
    },
    entries(filter = {}) {
      const known = secrets();
      const out: JournalEntry[] = [];
      each((stored) => {
        if (matches(summaryOf(stored), filter)) out.push(entryView(stored, known));
      });
      return out;
    },
    clear: () => ring.clear(),
    stats: () => ({ capacity, maxBodyBytes, total, retained: ring.size, dropped: ring.dropped }),
  };
  return journal;
}
