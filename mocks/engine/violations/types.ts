/** The violation log and its records (served as JSON by `GET /__mock/violations`). */
import type { IssueLocation } from '../../../src/contract/index.ts';
import type { EngineInterceptor } from '../interceptors.ts';

/**
 * - `invalid-request`: a parameter or the body broke the operation's schema or a rule the handler
 *   checks (`fullFilter` with `filter`, `from` after `to`, a custom-field value of the wrong type), or a
 *   moderation batch item was rejected as invalid.
 * - `malformed-request`: the request could not be matched or read as the contract requires (unknown
 *   path or method, malformed JSON, wrong content type, body too large or missing, no `X-API-Key`).
 * - `precision-loss`: an id in the path matched nothing but is what a known id becomes after a round
 *   trip through a double; `intendedId` names it.
 * - `undeclared-parameter` (a warning): a query parameter the operation does not declare (`page=2` on
 *   the action list, `pagesize=5`). The answer is what the service gives: the parameter is ignored.
 * - `hint` (information): a valid request that often means something else than intended (a date-only
 *   `to` is midnight, not the end of that day; a timestamp without a zone).
 */
export type ViolationKind =
  | 'invalid-request'
  | 'malformed-request'
  | 'precision-loss'
  | 'undeclared-parameter'
  | 'hint';

/**
 * `error`: the request broke the contract (the first three kinds); `warning`: it was answered as the
 * service would, but the client sent something the contract does not have; `info`: a hint.
 */
export type ViolationSeverity = 'error' | 'warning' | 'info';

/** The severity of each kind. */
export const SEVERITY_OF: Readonly<Record<ViolationKind, ViolationSeverity>> = {
  'invalid-request': 'error',
  'malformed-request': 'error',
  'precision-loss': 'error',
  'undeclared-parameter': 'warning',
  hint: 'info',
};

export interface ViolationIssue {
  readonly location: IssueLocation | 'transport';
  /** A JSON pointer in the body (`/records/3/score`), or the parameter or header name. */
  readonly pointer: string;
  /** A human path: `pageSize`, `records[3].score`. */
  readonly field: string;
  /**
   * The JSON Schema keyword (`maximum`, `required`...), `precision-loss`, the engine error code,
   * `rejected` (a check of the handler: `fullFilter` with `filter`, `from` after `to`), `undeclared`, or
   * the hint's name (`date-only-to`, `timestamp-without-zone`).
   */
  readonly keyword: string;
  readonly message: string;
  /** The rule of the catalog (`contract/rules.json`, docs/rules.md) the request broke or should mind. */
  readonly rule: string | null;
  /** What to do instead, when there is more to say than the message. */
  readonly hint?: string;
}

/** The offending request, without secrets: key and token header values are replaced. */
export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  /** The body text, cut at the log's `maxBodyChars`; null when the request had none. */
  readonly body: string | null;
  readonly bodyTruncated: boolean;
}

export interface Violation {
  /** 1, 2, 3... in arrival order; never reused, not even after `clear()`. */
  readonly seq: number;
  /** When, on the engine clock (ISO 8601). */
  readonly at: string;
  readonly kind: ViolationKind;
  readonly severity: ViolationSeverity;
  /** The operation the request was for; null when it matched none. */
  readonly operationId: string | null;
  /** The status the mock answered. */
  readonly status: number;
  readonly issues: readonly ViolationIssue[];
  /** For `precision-loss`: the known id the client meant (the first, if several fit). Else null. */
  readonly intendedId: string | null;
  readonly request: RecordedRequest;
}

export interface ViolationFilter {
  readonly kind?: ViolationKind;
  /** This severity or a graver one (`warning` lists errors and warnings). */
  readonly severity?: ViolationSeverity;
  readonly operationId?: string;
  /** Only violations with a greater `seq` (poll with the last seq you saw). */
  readonly since?: number;
}

export interface ViolationLogStats {
  readonly capacity: number;
  /** Recorded since start (or since the engine was created), including those dropped or cleared. */
  readonly total: number;
  /** Currently held. */
  readonly retained: number;
  /** Pushed out of the ring buffer by newer ones. */
  readonly dropped: number;
}

/** The violation log (`createViolationLog` in `./log.ts`). */
export interface ViolationLog extends EngineInterceptor {
  readonly kind: 'violation-log';
  list(filter?: ViolationFilter): readonly Violation[];
  /** Empties the log; returns how many entries it held. */
  clear(): number;
  stats(): ViolationLogStats;
}
