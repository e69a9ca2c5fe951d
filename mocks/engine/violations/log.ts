/**
 * The violation log: an engine interceptor that records every contract violation of incoming requests
 * in a ring buffer (default 1000 entries; the oldest is dropped first), so that a client's test suite
 * can assert it sent only valid requests: every 4xx the client caused, with the rule it broke;
 * undeclared query parameters as warnings; hints on values that often mean something else. Nothing
 * is recorded for clean requests, and the pipeline pays little on them (a lookup per query parameter).
 */
import {
  matchOperation,
  operations,
  type ValidationIssue,
  validateSchema,
} from '../../../src/contract/index.ts';
import { keyOfValue, knownKeyValues } from '../auth/index.ts';
import { ERROR_CODE_HEADER } from '../errors.ts';
import type { EngineRequest } from '../exchange.ts';
import type { InterceptorHost, ResultEvent } from '../interceptors.ts';
import { positiveInteger, Ring } from '../ring.ts';
import { SECRET_HEADERS } from '../secret-headers.ts';
import { createSecretMask } from '../secret-mask.ts';
import { atLeast, ViolationError } from './expect.ts';
import { findKnownId, ID_PATH_PARAMETERS } from './known-ids.ts';
import { notesOf } from './notes.ts';
import { doubleRoundTripPreimages } from './precision.ts';
import { aliasResolverOf, registerViolationLog } from './registry.ts';
import { FIXED_RULES, RULE_OF_CODE, ruleOfField, ruleOfRejection } from './rule-of.ts';
import {
  type RecordedRequest,
  SEVERITY_OF,
  type Violation,
  type ViolationIssue,
  type ViolationKind,
  type ViolationLog,
  type ViolationSeverity,
} from './types.ts';

export type { ViolationLog } from './types.ts';

export const DEFAULT_VIOLATION_CAPACITY = 1000;
export const DEFAULT_MAX_BODY_CHARS = 4096;

export interface ViolationLogOptions {
  /** Entries kept (ring buffer). Default 1000. */
  readonly capacity?: number;
  /** Request body characters kept per entry. Default 4096. */
  readonly maxBodyChars?: number;
  /**
   * Other ids the client may have been served, mapped to the engine's id (chaos `--chaos-big-ids`
   * serves aliases). Consulted by the precision-loss check. Default: the chaos interceptor's aliases.
   */
  readonly aliases?: (servedId: string) => string | undefined;
  /**
   * What a recorded violation does besides being listed: `'record'` (default) nothing; `'throw'`
   * raises a `ViolationError` (rule, message, request) as an uncaught error as soon as the request is
   * answered, which fails the running vitest or jest test run; a function is called with it.
   * Only violations of `throwOn` severity or graver count (default `warning`: not hints).
   */
  readonly onViolation?: 'record' | 'throw' | ((violation: Violation) => void);
  readonly throwOn?: ViolationSeverity;
}

/** Engine error codes that mean the request itself broke the contract (not a key or state problem). */
const MALFORMED_CODES: ReadonlySet<string> = new Set([
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'BAD_PATH_ENCODING',
  'KEY_MISSING',
  'BODY_TOO_LARGE',
  'BODY_REQUIRED',
  'UNSUPPORTED_MEDIA_TYPE',
  'MALFORMED_JSON',
]);

export const REDACTED = '[redacted]';

/** A versioned REST path (`/v0/...`): unknown paths elsewhere (`/favicon.ico`) are not client calls. */
const VERSIONED_PATH = /^\/v\d+(?:\/|$)/;

/** Enough to name the intended id and a few others that print alike. */
const MAX_INTENDED = 4;

/**
 * Creates a violation log; install it with `createEngine({ interceptors: [log] })` (one engine per log).
 *
 * @example
 * const log = createViolationLog({ capacity: 200 });
 * const engine = createEngine({ interceptors: [log] });
 * await engine.handle(new Request('http://mock/v0/action/list?pageSize=0', { headers: { 'x-api-key': key } }));
 * log.list()[0]?.issues[0]?.pointer; // 'pageSize'
 */
export function createViolationLog(options: ViolationLogOptions = {}): ViolationLog {
  const capacity = positiveInteger('capacity', options.capacity ?? DEFAULT_VIOLATION_CAPACITY);
  const maxBodyChars = positiveInteger('maxBodyChars', options.maxBodyChars ?? DEFAULT_MAX_BODY_CHARS);
  const ring = new Ring<Violation>(capacity);
  let total = 0;
  let host: InterceptorHost | undefined;
  // Keys in a query string or a body are hidden as the journal hides them, before anything sees the
  // violation (the admin route, `onViolation`, a thrown `ViolationError`).
  const secretMask = createSecretMask(() => (host === undefined ? [] : knownKeyValues(host.state.keys)));
  const masked = (violation: Violation): Violation => {
    const text = JSON.stringify(violation);
    const known = secretMask.secrets().filter((secret) => text.includes(secret));
    return known.length === 0 ? violation : (JSON.parse(secretMask.mask(text, known)) as Violation);
  };
  /** Issues of a request, from onRequestIssues until its result is known. */
  const pending = new WeakMap<EngineRequest, { issues: readonly ValidationIssue[]; rawBody: string }>();

  const onViolation = options.onViolation ?? 'record';
  const throwOn = options.throwOn ?? 'warning';
  const react = (violation: Violation): void => {
    if (onViolation === 'record' || !atLeast(violation.severity, throwOn)) return;
    if (typeof onViolation === 'function') {
      onViolation(violation);
      return;
    }
    // Thrown outside the engine (which never throws): the request is still answered, and the test
    // runner reports the uncaught error against the test that was running.
    const error = new ViolationError([violation]);
    queueMicrotask(() => {
      throw error;
    });
  };

  const push = (entry: Omit<Violation, 'seq' | 'at'>): void => {
    total += 1;
    const at = new Date(host?.clock.now() ?? 0).toISOString();
    const violation = masked({ seq: total, at, ...entry });
    react(violation);
    ring.push(violation);
  };

  const recordRequest = (request: EngineRequest, rawBody: string): RecordedRequest => {
    const headers: Record<string, string> = {};
    for (const [name, value] of request.headers.entries()) {
      if (SECRET_HEADERS.has(name) && name !== 'cookie') secretMask.rememberHeaderValue(value);
      headers[name] = SECRET_HEADERS.has(name) ? REDACTED : value;
    }
    return {
      method: request.method,
      url: request.url.href,
      headers,
      body: rawBody === '' ? null : rawBody.slice(0, maxBodyChars),
      bodyTruncated: rawBody.length > maxBodyChars,
    };
  };

  const record = (
    kind: ViolationKind,
    event: ResultEvent,
    issues: readonly ViolationIssue[],
    intendedId: string | null = null,
  ): void => {
    push({
      kind,
      severity: SEVERITY_OF[kind],
      operationId: event.operationId,
      status: event.result.status,
      issues,
      intendedId,
      request: recordRequest(event.request, event.rawBody),
    });
  };

  /** The engine id behind an id the client was served under another name (chaos big ids), if any. */
  const aliases = (id: string): string | undefined =>
    options.aliases?.(id) ?? (host === undefined ? undefined : aliasResolverOf(host.admin)?.(id));

  /** A 404 on an id operation: was the id a known one after a round trip through a double? */
  const checkPrecisionLoss = (event: ResultEvent): void => {
    const operationId = event.operationId ?? '';
    const parameter = ID_PATH_PARAMETERS[operationId];
    if (parameter === undefined || host === undefined) return;
    const match = matchOperation(event.request.method, event.request.url.pathname);
    const sent = match.kind === 'match' ? match.pathParams[parameter.name] : undefined;
    const key = event.request.headers.get('x-api-key');
    const organizationId = key === null ? undefined : keyOfValue(host.state.keys, key)?.organizationId;
    if (sent === undefined || organizationId === undefined) return;
    const state = host.state;
    const known = (id: string): boolean => {
      if (findKnownId(state, organizationId, parameter.record, id)) return true;
      const original = aliases(id);
      return original !== undefined && findKnownId(state, organizationId, parameter.record, original);
    };
    const intended: string[] = [];
    for (const candidate of doubleRoundTripPreimages(sent)) {
      if (known(candidate)) intended.push(candidate);
      if (intended.length >= MAX_INTENDED) break;
    }
    const first = intended[0];
    if (first === undefined) return;
    const others = intended.length > 1 ? ` (or ${intended.slice(1, 4).join(', ')})` : '';
    record(
      'precision-loss',
      event,
      [
        {
          location: 'path',
          pointer: parameter.name,
          field: parameter.name,
          keyword: 'precision-loss',
          message:
            `path parameter ${parameter.name} ${JSON.stringify(sent)} matches no ${parameter.record} but is what ` +
            `the known id ${JSON.stringify(first)}${others} becomes after a round trip through a double: ` +
            'the client parsed the id as a number; ids are strings and must be sent back exactly (ID-STRING-PRESERVED)',
          rule: FIXED_RULES.precisionLoss,
        },
      ],
      first,
    );
  };

  /** A moderation batch answers 202 with rejected items: record the invalid ones, re-validated for pointers. */
  const checkBatchItems = (event: ResultEvent): void => {
    const results = (event.result.body as { results?: unknown } | null)?.results;
    if (!Array.isArray(results)) return;
    let cases: unknown;
    try {
      cases = (JSON.parse(event.rawBody) as { cases?: unknown }).cases;
    } catch {
      return;
    }
    if (!Array.isArray(cases)) return;
    const issues: ViolationIssue[] = [];
    results.forEach((item: unknown, index: number) => {
      const rejected = item as { status?: unknown; code?: unknown };
      if (rejected.status !== 'rejected' || rejected.code === undefined) return;
      const validation = validateSchema('ModerationSubmission', cases[index], 'body');
      if (validation.ok) return;
      for (const issue of validation.issues) {
        issues.push({
          location: 'body',
          pointer: `/cases/${index}${issue.pointer}`,
          field: issue.field === '' ? `cases[${index}]` : `cases[${index}].${issue.field}`,
          keyword: issue.keyword,
          message: `cases[${index}]: ${issue.message}`,
          rule: ruleOfField('submitModerationCase', issue.field),
        });
      }
    });
    if (issues.length > 0) record('invalid-request', event, issues);
  };

  const malformedIssue = (code: string, message: string): ViolationIssue => {
    const header = code === 'KEY_MISSING';
    return {
      location: header ? 'header' : 'transport',
      pointer: header ? 'X-API-Key' : '',
      field: header ? 'X-API-Key' : '',
      keyword: code,
      message,
      rule: RULE_OF_CODE[code] ?? null,
    };
  };

  /** A 400 or 422 a handler answered itself (a rule the schema alone cannot say). */
  const rejection = (event: ResultEvent): ViolationIssue => {
    const message = String((event.result.body as { error?: unknown } | null)?.error ?? event.result.status);
    const named = /(?:query parameter|Query parameter) '?([A-Za-z]+)'?/.exec(message)?.[1] ?? '';
    return {
      location: event.result.status === 422 ? 'body' : 'query',
      pointer: named,
      field: named,
      keyword: 'rejected',
      message,
      rule: ruleOfRejection(event.operationId, event.result.status, message),
    };
  };

  /** Undeclared query parameters (a warning) and hints, for a request that reached an operation. */
  const checkNotes = (event: ResultEvent): void => {
    const operation = event.operationId === null ? undefined : operations.get(event.operationId);
    if (operation === undefined || event.request.url.search === '') return;
    const notes = notesOf(operation, event.request.url.searchParams);
    if (notes.undeclared.length > 0) record('undeclared-parameter', event, notes.undeclared);
    if (notes.hints.length > 0) record('hint', event, notes.hints);
  };

  const log: ViolationLog = {
    kind: 'violation-log',
    attach(engineHost) {
      host = engineHost;
      registerViolationLog(engineHost.admin, log);
    },
    onRequestIssues(event) {
      pending.set(event.request, { issues: event.issues, rawBody: event.rawBody });
    },
    onResult(event) {
      const invalid = pending.get(event.request);
      if (invalid !== undefined) {
        pending.delete(event.request);
        const issues = invalid.issues.map((issue) => ({
          ...issue,
          rule: ruleOfField(event.operationId, issue.field),
        }));
        record('invalid-request', { ...event, rawBody: invalid.rawBody }, issues);
        checkNotes(event);
        return undefined;
      }
      const result = event.result;
      const code = 'code' in result && typeof result.code === 'string' ? result.code : undefined;
      if (code !== undefined && MALFORMED_CODES.has(code)) {
        const pathname = event.request.url.pathname;
        if (event.operationId !== null || VERSIONED_PATH.test(pathname)) {
          const message = (result.body as { error?: unknown } | null)?.error;
          record('malformed-request', event, [malformedIssue(code, String(message ?? code))]);
        }
        return undefined;
      }
      const handlerCode = result.headers?.[ERROR_CODE_HEADER];
      if (
        event.operationId !== null &&
        (handlerCode === 'INVALID_PARAMETERS' || handlerCode === 'INVALID_BODY')
      ) {
        record('invalid-request', event, [rejection(event)]);
      } else if (result.status === 404) checkPrecisionLoss(event);
      else if (event.operationId === 'submitModerationBatch' && result.status === 202) checkBatchItems(event);
      checkNotes(event);
      return undefined;
    },
    list(filter = {}) {
      const out: Violation[] = [];
      for (const entry of ring) {
        if (filter.kind !== undefined && entry.kind !== filter.kind) continue;
        if (filter.severity !== undefined && !atLeast(entry.severity, filter.severity)) continue;
        if (filter.operationId !== undefined && entry.operationId !== filter.operationId) continue;
        if (filter.since !== undefined && entry.seq <= filter.since) continue;
        out.push(entry);
      }
      return out;
    },
    clear: () => ring.clear(),
    stats: () => ({ capacity, total, retained: ring.size, dropped: ring.dropped }),
  };
  return log;
}
