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

/** One `call(...)` the script made, in the order made. */
export interface ExecuteCall {
  readonly operationId: string;
  /** False when the operation failed (the script saw a thrown Error); `failure` says why. */
  readonly ok: boolean;
  /** Milliseconds from the call reaching the host to its answer; null when the execution ended first. */
  readonly ms: number | null;
  readonly failure?: AgentFailure;
}

/** What was cut at a limit, and the limit. */
export interface Truncations {
  /** The return value's JSON exceeded `resultBytes`: `result` is null and `resultPreview` holds its start. */
  readonly result: { readonly limit: number; readonly unit: 'bytes'; readonly size: number } | null;
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
  readonly calls: readonly ExecuteCall[];
  readonly truncated: Truncations;
  readonly limits: ExecutionLimits;
  /** Wall time of the execution (not of waiting in the queue). */
  readonly durationMs: number;
}

/** The envelope of a completed script. */
export interface ExecuteResult extends ExecutionReport {
  /** The script's return value (JSON; `undefined` becomes null), or null when truncated. */
  readonly result: unknown;
  /** The first `resultBytes` bytes of the return value's JSON when it was truncated; otherwise null. */
  readonly resultPreview: string | null;
}

/** A failed execution: the failure, with the report of what happened before it. */
export type ExecuteFailure = AgentFailure & { readonly execution: ExecutionReport };

/** The report of an execution that never ran (refused before it reached a worker). */
export function emptyReport(limits: ExecutionLimits): ExecutionReport {
  return { logs: [], calls: [], truncated: { result: null, logs: null }, limits, durationMs: 0 };
}
