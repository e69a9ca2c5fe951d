/**
 * The result envelope of `execute` (spec 4.18: "the result envelope of execute: not shown"; the mock's
 * choice, schema in `contract/agent/execute.json`). A completed script answers the envelope; a script
 * that failed answers an `AgentFailure` (`script_error`, `limit_exceeded`, `busy`...) carrying the same
 * report under `execution`, so the logs and calls made before the failure are never lost.
 */
import type { AgentFailure } from '../types.ts';
import type { ExecutionLimits } from './limits.ts';

export type LogLevel = 'log' | 'info' | 'warn' | 'error';

/** One captured `console` line: its arguments, strings as-is and other values as JSON, joined by a space. */
export interface ExecuteLog {
  readonly level: LogLevel;
  readonly text: string;
}

/** One `call(...)` the script made (as the pool records it; the envelope summarises them). */
export interface ExecuteCall {
  readonly operationId: string;
  /** False when the operation failed (the script saw a thrown Error); `failure` says why. */
  readonly ok: boolean;
  /** Milliseconds from the call reaching the host to its answer; null when the execution ended first. */
  readonly ms: number | null;
  readonly failure?: AgentFailure;
}

/** What a preview of the return value left out: totals, and where (the first 20 places). */
export interface ResultCut {
  readonly items: number;
  readonly characters: number;
  readonly keys: number;
  readonly at: readonly {
    /** JSON pointer into the return value. */
    readonly pointer: string;
    readonly unit: 'items' | 'characters' | 'keys';
    readonly kept: number;
    readonly total: number;
  }[];
}

/** Where a long export resumes: the last page cursor a call answered, with the input it belongs to. */
export interface ResumeHint {
  readonly operationId: string;
  /** The call's input with `cursor` set to the saved cursor: pass it unchanged to continue. */
  readonly input: unknown;
}

/** The calls an execution made, summarised: counts per operation and outcome, the failing ones in full. */
export interface CallsSummary {
  readonly total: number;
  readonly byOperation: readonly {
    readonly operationId: string;
    readonly ok: number;
    readonly failed: number;
    /** Calls still unanswered when the execution ended. */
    readonly unanswered: number;
  }[];
  /** The failing calls in full (the first `MAX_FAILED_CALLS`), with their position in call order. */
  readonly failed: readonly (ExecuteCall & { readonly index: number })[];
  /** Failing calls beyond those listed. */
  readonly failedNotListed: number;
}

/** What was cut at a limit, and the limit. */
export interface Truncations {
  /**
   * The return value's JSON exceeded `resultBytes`: `result` is a preview of it (valid JSON: arrays cut
   * by items, strings by characters), this reports the full size, what was cut and how to resume.
   */
  readonly result: {
    readonly limit: number;
    readonly unit: 'bytes';
    readonly size: number;
    readonly cut: ResultCut;
    readonly resume: ResumeHint | null;
    readonly message: string;
  } | null;
  /** Console output exceeded `logLines` or `logBytes`: `dropped` lines were not kept (a cut line counts). */
  readonly logs: {
    readonly limit: number;
    readonly unit: 'lines' | 'bytes';
    readonly dropped: number;
  } | null;
}

/** Everything an execution reports besides its value; present on success and on failure. */
export interface ExecutionReport {
  readonly logs: readonly ExecuteLog[];
  readonly calls: CallsSummary;
  readonly truncated: Truncations;
  readonly limits: ExecutionLimits;
  /** Wall time of the execution (not of waiting in the queue). */
  readonly durationMs: number;
}

/** The envelope of a completed script. */
export interface ExecuteResult extends ExecutionReport {
  /** The script's return value (JSON; `undefined` becomes null), or its preview when truncated. */
  readonly result: unknown;
}

/** A failed execution: the failure, with the report of what happened before it. */
export type ExecuteFailure = AgentFailure & { readonly execution: ExecutionReport };

/** The report of an execution that never ran (refused before it reached a worker). */
export function emptyReport(limits: ExecutionLimits): ExecutionReport {
  return {
    logs: [],
    calls: summariseCalls([]),
    truncated: { result: null, logs: null },
    limits,
    durationMs: 0,
  };
}

/** Failing calls listed in full; beyond, counted. */
export const MAX_FAILED_CALLS = 10;
/** Operations counted one by one; beyond, the rest are counted under `(other operations)`. */
const MAX_OPERATIONS = 20;

export function summariseCalls(calls: readonly ExecuteCall[]): CallsSummary {
  const counts = new Map<string, { ok: number; failed: number; unanswered: number }>();
  const failed: (ExecuteCall & { index: number })[] = [];
  let failedNotListed = 0;
  calls.forEach((call, index) => {
    const name =
      counts.has(call.operationId) || counts.size < MAX_OPERATIONS ? call.operationId : '(other operations)';
    const entry = counts.get(name) ?? { ok: 0, failed: 0, unanswered: 0 };
    counts.set(name, entry);
    if (call.ok) entry.ok += 1;
    else if (call.ms === null) entry.unanswered += 1;
    else {
      entry.failed += 1;
      if (failed.length < MAX_FAILED_CALLS) failed.push({ ...call, index });
      else failedNotListed += 1;
    }
  });
  return {
    total: calls.length,
    byOperation: [...counts].map(([operationId, c]) => ({ operationId, ...c })),
    failed,
    failedNotListed,
  };
}
