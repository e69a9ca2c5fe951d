import { AsyncLocalStorage } from 'node:async_hooks';
import fc from 'fast-check';
import { isBudgetExhausted } from '../../client/limits.ts';
import type { Exchange } from '../../client/types.ts';
import { fingerprintOf } from './baseline.ts';
import type { LawContext } from './law.ts';
import type { CheckOutcome, Failed } from './outcome.ts';
import { toCurlSequence } from './repro.ts';

/**
 * A broken rule, thrown inside a check (and caught by `runProperty` / `runExamples`, which turn it
 * into a `Failed` outcome). `code` is short and stable: it feeds the baseline fingerprint.
 */
export class Violation extends Error {
  override readonly name = 'Violation';
  constructor(
    readonly ruleId: string,
    readonly code: string,
    message: string,
    readonly counterexample?: unknown,
    public exchanges: readonly Exchange[] = [],
  ) {
    super(message);
  }
}

/**
 * Thrown inside a re-run (see `withRulesAlreadyFailed`) when a law keeps tripping over a rule already
 * recorded as failed for too long: the law cannot go on past that failure, so the rest of its rules
 * are charged as not run, blocked by it.
 */
export class BlockedByFailure extends Error {
  override readonly name = 'BlockedByFailure';
  constructor(readonly ruleId: string) {
    super(`cannot go on past the failure of ${ruleId}`);
  }
}

/** The rules already recorded as failed in the current re-run of a law, and its bounds. */
interface Tolerance {
  readonly failed: ReadonlySet<string>;
  readonly deadline: number;
  hits: number;
}

/** At most this many tolerated violations per re-run: a law looping on one stops instead. */
const MAX_TOLERATED = 500;

const tolerance = new AsyncLocalStorage<Tolerance>();

/**
 * Runs `body` (a re-run of a law) with `failed` recorded as failed: `violate` for one of them returns
 * instead of throwing, so the law goes on to check its other rules. Past `budgetMs`, or after too
 * many tolerated violations, `violate` throws `BlockedByFailure` instead (a law that loops or polls
 * until a condition that failed would otherwise never end).
 */
export function withRulesAlreadyFailed<T>(
  failed: ReadonlySet<string>,
  budgetMs: number,
  body: () => Promise<T>,
): Promise<T> {
  return tolerance.run({ failed, deadline: performance.now() + budgetMs, hits: 0 }, body);
}

/**
 * Throws a `Violation`. Inside a re-run where `ruleId` is already recorded as failed, returns instead
 * (the caller's later assertions then check the law's other rules; anything that crashes because of
 * it charges them as not run).
 */
export function violate(ruleId: string, code: string, message: string, counterexample?: unknown): never {
  const store = tolerance.getStore();
  if (store?.failed.has(ruleId) === true) {
    store.hits += 1;
    if (store.hits > MAX_TOLERATED || performance.now() > store.deadline) throw new BlockedByFailure(ruleId);
    return undefined as never;
  }
  throw new Violation(ruleId, code, message, counterexample);
}

/** Makes a value JSON-safe for reports (bigint as string, no functions). */
export function jsonSafe(value: unknown): unknown {
  const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v));
  return text === undefined ? null : (JSON.parse(text) as unknown);
}

function parseMaybe(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function failedFrom(
  ctx: LawContext,
  error: unknown,
  counterexample: unknown,
  path: string | undefined,
  exchanges: readonly Exchange[],
): Failed {
  const v =
    error instanceof Violation
      ? error
      : new Violation(
          ctx.ruleIds[0] ?? 'unknown',
          `error:${error instanceof Error ? error.name : 'unknown'}`,
          `check crashed: ${error instanceof Error ? error.message : String(error)}`,
        );
  const ruleId = v.ruleId;
  const shown = v.exchanges.length > 0 ? v.exchanges : exchanges;
  const last = shown.at(-1);
  // Example-based checks have no generated value: the request itself is the counterexample.
  const fallback =
    counterexample ??
    (last === undefined
      ? undefined
      : {
          request: `${last.method} ${last.url}`,
          ...(last.body === undefined ? {} : { body: parseMaybe(last.body) }),
          status: last.status,
        });
  return {
    kind: 'failed',
    ruleId,
    ...(v.code.startsWith('error:') ? { crashed: true } : {}),
    section: ctx.section(ruleId),
    message: v.message,
    counterexample: jsonSafe(v.counterexample ?? fallback),
    seed: ctx.seed,
    ...(path === undefined ? {} : { path }),
    repro: shown.length === 0 ? '# no request involved' : toCurlSequence(shown),
    fingerprint: fingerprintOf(ctx.lawId, ruleId, v.code),
  };
}

/**
 * The outcome of an error thrown by a law outside `runProperty`/`runExamples` (e.g. while fetching
 * the sample ids it needs): a budget error is not-run, anything else a failure with the last request.
 */
export function outcomeOfError(ctx: LawContext, error: unknown): CheckOutcome {
  if (isBudgetExhausted(error)) return { kind: 'not-run', ruleIds: ctx.ruleIds, reason: error.message };
  const shown =
    error instanceof Violation && error.exchanges.length > 0 ? error.exchanges : ctx.client.log.slice(-1);
  return failedFrom(ctx, error, undefined, undefined, shown);
}

/** Options of one property check. */
export interface PropertyOptions<T = unknown> {
  /** Overrides the run's `runs` (e.g. fewer for expensive properties). */
  readonly runs?: number;
  /** Shapes the counterexample for reports (e.g. `String` for an `fc.commands` sequence). */
  readonly format?: (value: unknown) => unknown;
  /**
   * Shrink a failing case (default true). A property whose every case waits for the target in real
   * time (moderation cases to finish) reports its first failing case instead: shrinking would re-run
   * it for minutes.
   */
  readonly shrink?: boolean;
  /**
   * Values tried before the generated ones (fast-check's `examples`): the cases most likely to show a
   * fault, chosen from what the target answered, so a small `runs` does not leave them to chance.
   */
  readonly examples?: readonly T[];
}

/**
 * Runs an async property with the run's seed. The predicate throws a `Violation` (or returns
 * normally). A failure is shrunk by fast-check and returned with the requests of the shrunk case.
 */
export async function runProperty<T>(
  ctx: LawContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: PropertyOptions<T> = {},
): Promise<CheckOutcome> {
  let lastExchanges: readonly Exchange[] = [];
  // The rule the first failing case broke: shrinking keeps only smaller cases that break the same
  // rule, so the report's counterexample shows that rule's failure, not another one met on the way.
  let firstRule: string | undefined;
  const property = fc.asyncProperty(arbitrary, async (value) => {
    const mark = ctx.client.log.length;
    try {
      await predicate(value);
    } catch (error) {
      const rule = error instanceof Violation ? error.ruleId : undefined;
      if (firstRule !== undefined && rule !== undefined && rule !== firstRule) return;
      firstRule ??= rule;
      lastExchanges = ctx.client.log.slice(mark);
      if (error instanceof Violation && error.exchanges.length === 0) error.exchanges = lastExchanges;
      throw error;
    }
  });
  const details = await fc.check(property, {
    seed: ctx.seed,
    numRuns: options.runs ?? ctx.runs,
    endOnFailure: options.shrink === false || ctx.shrink === false,
    ...(options.examples === undefined || options.examples.length === 0
      ? {}
      : { examples: options.examples.map((value): [T] => [value]) }),
  });
  if (!details.failed) return { kind: 'passed', ruleIds: ctx.ruleIds, checks: details.numRuns };
  if (isBudgetExhausted(details.errorInstance)) {
    return { kind: 'not-run', ruleIds: ctx.ruleIds, reason: details.errorInstance.message };
  }
  const raw = details.counterexample?.[0];
  const example = options.format === undefined || raw === undefined ? raw : options.format(raw);
  return failedFrom(
    ctx,
    details.errorInstance,
    example,
    details.counterexamplePath ?? undefined,
    lastExchanges,
  );
}

/**
 * Runs an example-based check (fixed requests, no generation). `body` returns how many checks it
 * made, or throws a `Violation`.
 */
export async function runExamples(ctx: LawContext, body: () => Promise<number>): Promise<CheckOutcome> {
  const mark = ctx.client.log.length;
  try {
    const checks = await body();
    return { kind: 'passed', ruleIds: ctx.ruleIds, checks };
  } catch (error) {
    if (isBudgetExhausted(error)) return { kind: 'not-run', ruleIds: ctx.ruleIds, reason: error.message };
    const exchanges = ctx.client.log.slice(mark);
    // Show the last request for single failures; stateful laws attach their own sequence.
    const shown =
      error instanceof Violation && error.exchanges.length > 0 ? error.exchanges : exchanges.slice(-1);
    return failedFrom(ctx, error, undefined, undefined, shown);
  }
}
