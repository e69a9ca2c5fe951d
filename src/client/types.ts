/** Types of the conformance client: key roles, request specs, recorded exchanges and results. */

/** Which configured key a request carries. The value never leaves the client. */
export type KeyRole =
  | 'read'
  | 'write'
  | 'ingest'
  | 'otherOrgRead'
  /** A Write key of another organization, also in `ad_policy` mode (moderation ids per organization). */
  | 'otherOrgWrite'
  | 'noModerationWrite'
  | 'expired'
  | 'revoked'
  /** A Read-and-write key of the read key's organization (agent interface: execute with writes). */
  | 'readWrite';

/** Environment variable holding each key; curl repro commands reference these, never the value. */
export const KEY_ENV: Readonly<Record<KeyRole, string>> = {
  read: 'CCA_READ_KEY',
  write: 'CCA_WRITE_KEY',
  ingest: 'CCA_INGEST_KEY',
  otherOrgRead: 'CCA_OTHER_ORG_READ_KEY',
  otherOrgWrite: 'CCA_OTHER_ORG_WRITE_KEY',
  noModerationWrite: 'CCA_NO_MODERATION_WRITE_KEY',
  expired: 'CCA_EXPIRED_KEY',
  revoked: 'CCA_REVOKED_KEY',
  readWrite: 'CCA_READ_WRITE_KEY',
};

export const KEY_ROLES: readonly KeyRole[] = [
  'read',
  'write',
  'ingest',
  'otherOrgRead',
  'otherOrgWrite',
  'noModerationWrite',
  'expired',
  'revoked',
  'readWrite',
];

/**
 * Keys every full run needs: a law that cannot run without one makes the run `not-checked`. The
 * other roles are optional (only the user can give them for a live target): their laws are reported
 * not run, and the verdict does not change.
 */
export const REQUIRED_KEY_ROLES: readonly KeyRole[] = ['read', 'write', 'ingest'];

/** Key values by role; a role left out, `undefined` or `''` has no key (so `process.env.X` can be passed as is). */
export type Keys = Partial<Record<KeyRole, string | undefined>>;

/**
 * How a request authenticates: a configured key by role, a literal value (only for deliberately
 * invalid keys such as malformed or unknown ones), or no `X-API-Key` header at all.
 */
export type Auth = KeyRole | { readonly literal: string } | 'none';

export type QueryValue = string | number | boolean | bigint | null | undefined;

export interface RequestSpec {
  readonly method: string;
  /** Path with parameters already substituted, starting with `/`. */
  readonly path: string;
  /** Query parameters; `undefined` and `null` values are omitted. Arrays repeat the name. */
  readonly query?: Readonly<Record<string, QueryValue | readonly QueryValue[]>>;
  readonly auth: Auth;
  /** JSON body, serialised with `JSON.stringify`. */
  readonly json?: unknown;
  /** Exact body bytes (takes precedence over `json`); send ids above 2^53 as written. */
  readonly rawBody?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** Label for reports (the operationId when known). */
  readonly operationId?: string;
  /** The body framed `Transfer-Encoding: chunked`, without Content-Length (HTTP/1.1 framing every server must read). */
  readonly chunked?: boolean;
  /** The request line's target in absolute form (`GET http://host/path HTTP/1.1`), which every HTTP/1.1 server must accept. */
  readonly absoluteTarget?: boolean;
}

/** One request as recorded for repro: everything but the key value. */
export interface Exchange {
  readonly seq: number;
  readonly operationId?: string;
  readonly method: string;
  readonly url: string;
  readonly auth: Auth;
  /** Request headers other than `X-API-Key`. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The request line's target when it is not the URL's path and query (an absolute-form target). */
  readonly requestTarget?: string;
  status?: number;
  durationMs?: number;
}

export interface NetworkError {
  readonly code: string;
  readonly message: string;
}

export type Headers = Readonly<Record<string, string>>;

/** A 2xx answer. `body` is the parsed JSON (undefined when not JSON); `raw` the exact text. */
export interface OkResult<T = unknown> {
  readonly kind: 'http';
  readonly ok: true;
  readonly status: number;
  readonly body: T;
  readonly raw: string;
  readonly headers: Headers;
  readonly exchange: Exchange;
  /** Set when the body is not valid JSON. */
  readonly jsonError?: string;
}

/** A non-2xx answer: `error` is the parsed error body (undefined when not JSON). */
export interface ErrorResult {
  readonly kind: 'http';
  readonly ok: false;
  readonly status: number;
  readonly error: unknown;
  readonly raw: string;
  readonly headers: Headers;
  readonly exchange: Exchange;
  readonly jsonError?: string;
}

/** No HTTP answer at all: refused connection, reset, timeout. */
export interface NetworkResult {
  readonly kind: 'network';
  readonly ok: false;
  readonly status: 0;
  readonly error: NetworkError;
  readonly raw: '';
  readonly exchange: Exchange;
}

export type HttpResult<T = unknown> = OkResult<T> | ErrorResult;
export type ClientResult<T = unknown> = HttpResult<T> | NetworkResult;

/** The parsed body whatever the status: `body` for 2xx, `error` otherwise. */
export function bodyOf(result: ClientResult): unknown {
  if (result.kind === 'network') return undefined;
  return result.ok ? result.body : result.error;
}
