/**
 * The messages between the main thread (pool, registry, engine) and a sandbox worker (QuickJS). Only
 * plain data crosses: the script, JSON text of values, failures as data.
 */
import type { AgentFailure, OperationDescriptor, OperationSpec } from '../types.ts';
import type { LogLevel, ResultCut, Truncations } from './envelope.ts';
import type { ExecutionLimits } from './limits.ts';

/** What `spec()` serves inside the sandbox; built once from the registry and given to each worker. */
export interface Catalog {
  readonly list: readonly OperationDescriptor[];
  readonly specs: Readonly<Record<string, OperationSpec>>;
}

/** `workerData` of a sandbox worker. */
export interface WorkerSetup {
  readonly catalog: Catalog;
  /** Maximum of the worker's WebAssembly memory in bytes (memoryBytes + headroom). */
  readonly wasmMaxBytes: number;
  /** The limits executions will run under (the warm-up uses the same memory and stack). */
  readonly limits: ExecutionLimits;
}

export type ToWorker =
  | {
      readonly type: 'run';
      readonly runId: number;
      readonly script: string;
      readonly limits: ExecutionLimits;
      /** Epoch milliseconds after which the script is interrupted. */
      readonly deadline: number;
    }
  | {
      readonly type: 'settle';
      readonly runId: number;
      readonly callId: number;
      readonly outcome:
        | { readonly ok: true; readonly json: string }
        | { readonly ok: false; readonly failure: AgentFailure; readonly message: string };
    };

/** How a run ended, as the worker saw it. */
export type RunEnd =
  | {
      readonly ok: true;
      /** The return value's JSON, or a preview's when it did not fit in resultBytes (`cut` set). */
      readonly resultJson: string;
      /** Bytes of the full value's JSON (walked when it did not fit, not built). */
      readonly size: number;
      readonly cut: ResultCut | null;
    }
  | { readonly ok: false; readonly failure: AgentFailure };

export type FromWorker =
  | { readonly type: 'ready' }
  /** Boot failed (the WebAssembly module did not load): the pool reports it and stops. */
  | { readonly type: 'boot-failed'; readonly message: string }
  | {
      readonly type: 'call';
      readonly runId: number;
      readonly callId: number;
      readonly operationId: string;
      readonly inputJson: string;
    }
  | { readonly type: 'log'; readonly runId: number; readonly level: LogLevel; readonly text: string }
  | {
      readonly type: 'done';
      readonly runId: number;
      readonly end: RunEnd;
      readonly truncated: Truncations;
      /** The worker's state is suspect (a host stack overflow, a failed dispose): replace it. */
      readonly recycle: boolean;
    };
