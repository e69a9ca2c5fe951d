/** The request journal and its records (served as JSON by `GET /__mock/journal`). */
import type { EngineInterceptor } from '../interceptors.ts';
import type { KeyProfile } from '../types.ts';
import type { ViolationKind, ViolationSeverity } from '../violations/types.ts';

/** Which interface the exchange came through. */
export type JournalInterface = 'rest' | 'mcp';

/** A contract violation of the request, as the violation log recorded it. */
export interface JournalViolation {
  /** The violation log's kind (`invalid-request`, `malformed-request`, `undeclared-parameter`, `hint`...). */
  readonly kind: ViolationKind;
  /** `error` (the client broke the contract), `warning` (answered, but not in the contract), `info` (a hint). */
  readonly severity: ViolationSeverity;
  /** The rule of `contract/rules.json` the request broke or should mind; null when the log names none. */
  readonly rule: string | null;
  /** The JSON Schema keyword or engine error code (`maximum`, `MALFORMED_JSON`...). */
  readonly keyword: string;
  /** Where: `pageSize`, `records[3].score`, `X-API-Key`; '' for the request as a whole. */
  readonly field: string;
  readonly message: string;
  /** What to change, when the log gives a hint; else null. */
  readonly hint: string | null;
}

/** One line of the journal: what the list shows, without bodies. */
export interface JournalSummary {
  /** 1, 2, 3... in answer order; never reused, not even after `clear()`. */
  readonly seq: number;
  readonly interface: JournalInterface;
  /** When it was answered, on the engine clock (ISO 8601). */
  readonly at: string;
  /** Time from arrival to answer in ms (wall time, as measured by the process). */
  readonly durationMs: number;
  readonly method: string;
  /** Path and query as sent. */
  readonly path: string;
  /** The operationId (REST) or the JSON-RPC method and tool (`tools/call search_actions`); null if none. */
  readonly operation: string | null;
  /** The organization of the key presented, when the mock knows the key. Never the key itself. */
  readonly organizationId: string | null;
  /** The profile of the key presented, when the mock knows the key; null when none or unknown. */
  readonly keyProfile: KeyProfile | null;
  /** The status answered; 0 when the connection was dropped (chaos or a fault). */
  readonly status: number;
  readonly violations: readonly JournalViolation[];
  /** The id of the targeted fault that answered (`f1`...; `GET /__mock/faults` has it), else null. */
  readonly fault: string | null;
}

/** A body as the journal keeps it. */
export interface JournalBody {
  /** The text, keys masked; cut at the journal's `maxBodyBytes`. Null when there was none or it was not read. */
  readonly text: string | null;
  readonly truncated: boolean;
  /** Size in bytes of the whole body (0 when none). */
  readonly bytes: number;
}

/** One exchange with its headers and bodies (keys masked). */
export interface JournalEntry extends JournalSummary {
  readonly request: {
    readonly headers: readonly (readonly [string, string])[];
    readonly body: JournalBody;
  };
  readonly response: {
    readonly headers: readonly (readonly [string, string])[];
    readonly body: JournalBody;
  };
}

export interface JournalFilter {
  /** An exact status (`400`) or a class (`4xx`). */
  readonly status?: string;
  /** Entries with a violation of this rule id (or this keyword, for violations without a rule). */
  readonly rule?: string;
  readonly operation?: string;
  readonly organizationId?: string;
  readonly interface?: JournalInterface;
  /** Only entries with a greater `seq` (poll with the last seq you saw). */
  readonly since?: number;
  /** Only entries with at least one violation. */
  readonly violationsOnly?: boolean;
}

export interface JournalStats {
  readonly capacity: number;
  readonly maxBodyBytes: number;
  /** Recorded since the journal was created, including those dropped or cleared. */
  readonly total: number;
  readonly retained: number;
  /** Pushed out of the ring buffer by newer ones. */
  readonly dropped: number;
}

/** What a transport hands the journal for one exchange (`journal.record`). */
export interface JournalExchange {
  readonly interface: JournalInterface;
  readonly durationMs: number;
  readonly method: string;
  readonly path: string;
  readonly operation: string | null;
  /**
   * The key the client presented, used only to find its organization and profile; the journal never
   * keeps it (header values are masked before anything is stored).
   */
  readonly key: string | null;
  readonly status: number;
  readonly requestHeaders: Iterable<readonly [string, string]>;
  readonly requestBody: Uint8Array | string | readonly Uint8Array[] | null;
  readonly responseHeaders: Iterable<readonly [string, string]>;
  readonly responseBody: Uint8Array | string | readonly Uint8Array[] | null;
  readonly violations?: readonly JournalViolation[];
}

/** The request journal (`createJournal` in `./journal.ts`). */
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
