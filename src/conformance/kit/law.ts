import type { ConformanceClient } from '../../client/client.ts';
import type { KeyRole } from '../../client/types.ts';
import type { Contract } from '../../contract/contract.ts';
import type { McpEndpoint } from './mcp/endpoint.ts';
import type { CheckOutcome } from './outcome.ts';

/** What a law needs before it can run; missing needs make it `not-run` with the reason. */
export interface LawNeeds {
  readonly keys: readonly KeyRole[];
  /** The law creates objects (moderation cases, ingested records, custom-field values). */
  readonly writes?: boolean;
}

/** Everything a law gets from the runner. One context per law run. */
/** A write the run made to a record it did not create, and what became of the record. */
export interface ExistingWrite {
  /** What was written, e.g. `custom fields of action 00400001198`. */
  readonly record: string;
  readonly fields: readonly string[];
  /** True when every value was put back and read back equal. */
  readonly restored: boolean;
  /** What was not put back, or what no client can put back (a value's provenance). */
  readonly note: string;
}

export interface LawContext {
  readonly lawId: string;
  /** The law's rule ids (a crash inside a check is charged to the first). */
  readonly ruleIds: readonly string[];
  /** A client view whose request log belongs to this law. */
  readonly client: ConformanceClient;
  /** The agent interface (MCP) endpoint, with a client whose request log belongs to this law. */
  readonly mcp: McpEndpoint;
  readonly contract: Contract;
  readonly seed: number;
  /** Generated cases per property. */
  readonly runs: number;
  /** False: a failing case is reported as found, not shrunk (default true). */
  readonly shrink?: boolean;
  readonly runId: string;
  /** `cca-conform-<runId>-`: every external id the run creates starts with it. */
  readonly prefix: string;
  readonly allowWrites: boolean;
  /** Whether the run may write to records it did not create (custom fields of existing actions). */
  readonly customFieldWrites: boolean;
  /** Records a write to a record the run did not create, for the report's end. */
  noteExistingWrite(write: ExistingWrite): void;
  readonly moderationTimeoutMs: number;
  /** The target's "now" (epoch ms). */
  readonly now: () => number;
  /** Called between status polls (a mock advances its clock). */
  readonly poll: () => Promise<void>;
  /** Spec section of a rule (from the catalog), `?` when unknown. */
  section(ruleId: string): string;
  /** Run-wide memo (samples of ids fetched once and shared by laws). */
  memo<T>(key: string, compute: () => Promise<T>): Promise<T>;
  /** A fresh id with the run prefix: `cca-conform-<runId>-<label>-<n>`. */
  unique(label?: string): string;
}

/**
 * A conformance law: a check written once, run by `runConformance` (CLI) and by the vitest suites.
 *
 * @example
 * ```ts
 * export const listPageSize: Law = {
 *   id: 'paging.list-page-size', group: 'paging', title: 'data.length <= pageSize',
 *   ruleIds: ['LIST-PAGESIZE-BOUNDS'], needs: { keys: ['read'] },
 *   run: (ctx) => runProperty(ctx, fc.integer({ min: 1, max: 500 }), async (n) => { ... }),
 * };
 * ```
 */
export interface Law {
  readonly id: string;
  readonly group: string;
  readonly title: string;
  readonly ruleIds: readonly string[];
  readonly needs: LawNeeds;
  /**
   * The law spends most of its time waiting for the target (a processing delay, a time limit) and
   * reads nothing another law writes, nor writes anything another law reads but its own run-prefixed
   * records: the runner may go on with the next laws while it waits (see `runConformance`).
   * `'time-limit'`: what it waits for is a time limit of the target's own, measured on the wall
   * clock, and it never polls, so it may go on beside the others even when the laws' polls drive the
   * target's clock (a mock's); `true`: it polls, so with such a target it runs alone.
   */
  readonly waits?: true | 'time-limit';
  run(ctx: LawContext): Promise<CheckOutcome>;
}
