/** The shapes of a targeted fault: what a test asks for (`FaultInput`) and what the mock shows (`FaultView`). */

/**
 * One fault: which requests it answers (an operation, optionally only with a key, a path or a body)
 * and what it does to the next `times` of them. At least one of `status`, `drop`, `failCase` and
 * `delayMs`; `delayMs` may come with any of the others (the answer is late, then it is the fault's).
 */
export interface FaultInput {
  /** The operationId (`getAction`, `submitModerationCase`...). */
  readonly operation: string;
  /** Only requests presenting this key in `X-API-Key`. */
  readonly key?: string;
  /** Only requests to this path (without the query); `*` stands for any run of characters: `/v0/action/*`. */
  readonly path?: string;
  /** Only requests whose JSON body holds these values (objects compared field by field, the rest exactly). */
  readonly body?: Readonly<Record<string, unknown>>;
  /** Answer this status (one the operation declares, 400..599) with the spec's error body. */
  readonly status?: number;
  /** Hold the answer this long (ms of wall time, 0..60000). */
  readonly delayMs?: number;
  /** Drop the connection: no answer at all (node destroys the socket, MSW answers a network error). */
  readonly drop?: boolean;
  /** Moderation submissions: answer the 202 as usual, and the case then ends as `failed`. */
  readonly failCase?: boolean;
  /** The `failureCode` of a failed case (with `failCase`). Default `EVALUATION_TIMEOUT`. */
  readonly failureCode?: string;
  /** How many matching requests it answers (default 1); null: every one, until removed or reset. */
  readonly times?: number | null;
}

/** A fault as the mock holds it, with its counters. */
export interface FaultView {
  /** `f1`, `f2`... in the order they were added (numbering restarts at reset). */
  readonly id: string;
  readonly operation: string;
  readonly key: string | null;
  readonly path: string | null;
  readonly body: Readonly<Record<string, unknown>> | null;
  readonly status: number | null;
  readonly delayMs: number | null;
  readonly drop: boolean;
  readonly failCase: boolean;
  readonly failureCode: string | null;
  /** As given; null: every matching request. */
  readonly times: number | null;
  /** Requests it answered so far. */
  readonly fired: number;
  /** Requests it will still answer; null when unlimited; 0 once spent (it stays listed, doing nothing). */
  readonly remaining: number | null;
  /** What it does, for people: `getAction (path /v0/action/*) → 500, 2 times` (the counters are apart). */
  readonly description: string;
}

/** The request as the fault hook sees it: routed, authenticated and validated. */
export interface FaultRequest {
  readonly operationId: string;
  readonly key: string;
  readonly pathname: string;
  readonly body: unknown;
}
