/**
 * The moderation lifecycle on the engine clock: pending → running → completed | failed.
 *
 * Nothing runs in the background. Each evaluation records when the clock moves it on (`nextAt`) and
 * `settle(evaluation, now)` applies every move that is due; reads and admin calls settle first. So
 * advancing the engine clock (`/__mock/clock/advance`) is all it takes to move cases, in the browser
 * as in node, and a test drives the lifecycle without sleeping.
 */
import type { Evaluation, EvaluationView, Outcome } from './types.ts';

/**
 * `instant`: completed (or failed) at intake. `manual`: moves only when stepped (admin step).
 * A number: completes that many ms after intake, running after a third of it.
 * An object: both times explicitly.
 */
export type LatencyOption =
  | 'instant'
  | 'manual'
  | number
  | { readonly runningAfterMs: number; readonly completedAfterMs: number };

/** `null` times mean the clock never moves the evaluation on (manual mode). */
export interface Latency {
  readonly runningAfterMs: number | null;
  readonly completedAfterMs: number | null;
}

/** Defaults a person can watch: running after 1 s, completed after 3 s. */
export const DEFAULT_LATENCY = { runningAfterMs: 1000, completedAfterMs: 3000 } as const satisfies Latency;

/**
 * Normalises the latency option once, at state creation.
 *
 * @example
 * normalizeLatency(600) // { runningAfterMs: 200, completedAfterMs: 600 }
 * @throws RangeError on negative, non-finite or inverted times.
 */
export function normalizeLatency(option: LatencyOption = DEFAULT_LATENCY): Latency {
  if (option === 'instant') return { runningAfterMs: 0, completedAfterMs: 0 };
  if (option === 'manual') return { runningAfterMs: null, completedAfterMs: null };
  const latency =
    typeof option === 'number'
      ? { runningAfterMs: Math.round(option / 3), completedAfterMs: option }
      : option;
  const { runningAfterMs, completedAfterMs } = latency;
  if (!isDuration(runningAfterMs) || !isDuration(completedAfterMs) || runningAfterMs > completedAfterMs) {
    throw new RangeError(
      `moderation latency must be 'instant', 'manual', a number of ms >= 0, or {runningAfterMs <= completedAfterMs}; got ${JSON.stringify(option)}`,
    );
  }
  return latency;
}

function isDuration(value: number): boolean {
  return Number.isFinite(value) && value >= 0;
}

/** A new evaluation, pending. With no policy workflow (`workflowId` null) it never moves. */
export function createEvaluation(
  evaluationId: string,
  workflowId: string | null,
  createdAt: number,
  outcome: Outcome,
  latency: Latency,
): Evaluation {
  const nextAt =
    workflowId === null || latency.runningAfterMs === null ? null : createdAt + latency.runningAfterMs;
  return { evaluationId, workflowId, createdAt, outcome, phase: { name: 'pending', nextAt } };
}

/** Time from running to settled. */
function runningSpan(latency: Latency): number | null {
  if (latency.runningAfterMs === null || latency.completedAfterMs === null) return null;
  return latency.completedAfterMs - latency.runningAfterMs;
}

/** Applies every move that is due at `now`. Idempotent; the clock never goes back. */
export function settle(evaluation: Evaluation, now: number, latency: Latency): void {
  const phase = evaluation.phase;
  if (phase.name === 'pending' && phase.nextAt !== null && now >= phase.nextAt) {
    const span = runningSpan(latency);
    evaluation.phase = {
      name: 'running',
      startedAt: phase.nextAt,
      nextAt: span === null ? null : phase.nextAt + span,
    };
  }
  const after = evaluation.phase;
  if (after.name === 'running' && after.nextAt !== null && now >= after.nextAt) {
    evaluation.phase = { name: 'settled' };
  }
}

/**
 * Moves one evaluation one state on (admin step): pending → running → completed | failed. Returns
 * false when it is already settled. After a step to running the clock completes it after the usual
 * running span, counted from now.
 */
export function step(evaluation: Evaluation, now: number, latency: Latency): boolean {
  settle(evaluation, now, latency);
  const phase = evaluation.phase;
  if (phase.name === 'settled') return false;
  if (phase.name === 'running') {
    evaluation.phase = { name: 'settled' };
    return true;
  }
  const span = runningSpan(latency);
  evaluation.phase = { name: 'running', startedAt: now, nextAt: span === null ? null : now + span };
  return true;
}

/** What a status read shows of an evaluation (settle it first). */
export function viewOf(evaluation: Evaluation): EvaluationView {
  const phase = evaluation.phase;
  if (phase.name === 'pending') return { analysisStatus: 'pending' };
  if (phase.name === 'running') return { analysisStatus: 'running', startedAt: phase.startedAt };
  return evaluation.outcome;
}
