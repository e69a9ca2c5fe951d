import { describe, expect, it } from 'vitest';
import { submitCase } from './intake.ts';
import { sampleSubmission } from './sample.ts';
import type { LatencyOption } from './scheduler.ts';
import { createModerationState } from './state.ts';
import { activatePolicy, deactivatePolicy, listCases, readCaseStatus, stepCase } from './status.ts';

const ORG = 'org_1';

function setup(latency?: LatencyOption, unconfigured: string[] = []) {
  let now = 0;
  const clock = { now: () => now };
  const state = createModerationState({
    clock,
    seed: 'lifecycle',
    unconfiguredOrganizations: unconfigured,
    ...(latency === undefined ? {} : { latency }),
  });
  const submit = (overrides: Record<string, unknown> = {}) => {
    const outcome = submitCase(state, ORG, sampleSubmission(overrides), []);
    if (outcome.kind !== 'ack') throw new Error('expected an ack');
    return outcome.ack;
  };
  const status = (caseId: string) => readCaseStatus(state, ORG, caseId);
  return { state, submit, status, advance: (ms: number) => (now += ms) };
}

describe('moderation lifecycle on the engine clock', () => {
  it('lifecycle: pending → running (1 s) → completed (3 s) by default', () => {
    const { submit, status, advance } = setup();
    const ack = submit();
    expect(status(ack.caseId)).toEqual({
      caseId: ack.caseId,
      externalId: ack.externalId,
      analysisStatus: 'pending',
      evaluationId: ack.evaluationId,
    });
    advance(999);
    expect(status(ack.caseId)?.analysisStatus).toBe('pending');
    advance(1);
    expect(status(ack.caseId)?.analysisStatus).toBe('running');
    expect(status(ack.caseId)).not.toHaveProperty('decision');
    advance(2000);
    const done = status(ack.caseId);
    expect(done?.analysisStatus).toBe('completed');
    expect(done?.decision?.disposition).toBe('approve');
  });

  it('MOD-DECISION-ONLY-WHEN-COMPLETED: no decision before completion, failureCode only when failed', () => {
    const { submit, status, advance } = setup(300);
    const failing = submit({ externalId: 'f', title: 'boom [[fail]]' });
    expect(status(failing.caseId)).not.toHaveProperty('failureCode');
    advance(300);
    expect(status(failing.caseId)).toEqual({
      caseId: failing.caseId,
      externalId: 'f',
      analysisStatus: 'failed',
      evaluationId: failing.evaluationId,
      failureCode: 'EVALUATION_TIMEOUT',
    });
  });

  it('instant latency settles at intake; manual latency only moves when stepped', () => {
    const instant = setup('instant');
    expect(instant.status(instant.submit().caseId)?.analysisStatus).toBe('completed');

    const manual = setup('manual');
    const ack = manual.submit();
    manual.advance(1_000_000);
    expect(manual.status(ack.caseId)?.analysisStatus).toBe('pending');
    expect(stepCase(manual.state, ack.caseId)).toMatchObject({
      ok: true,
      status: { analysisStatus: 'running' },
    });
    expect(stepCase(manual.state, ack.caseId)).toMatchObject({
      ok: true,
      status: { analysisStatus: 'completed' },
    });
    expect(stepCase(manual.state, ack.caseId)).toEqual({ ok: false, reason: 'already_settled' });
    expect(stepCase(manual.state, 'mc_nope')).toEqual({ ok: false, reason: 'not_found' });
  });

  it('a step to running completes after the running span counted from the step', () => {
    const { state, submit, status, advance } = setup();
    const ack = submit();
    stepCase(state, ack.caseId);
    advance(1999);
    expect(status(ack.caseId)?.analysisStatus).toBe('running');
    advance(1);
    expect(status(ack.caseId)?.analysisStatus).toBe('completed');
  });

  it('MOD-ANALYSIS-STATUS-VALUES: with no active policy every read answers policy_not_configured', () => {
    const { state, submit, status, advance } = setup('instant', [ORG]);
    const ack = submit();
    advance(10_000);
    expect(status(ack.caseId)).toEqual({
      caseId: ack.caseId,
      externalId: ack.externalId,
      analysisStatus: 'policy_not_configured',
    });
    expect(stepCase(state, ack.caseId)).toEqual({ ok: false, reason: 'policy_not_configured' });
    activatePolicy(state, ORG, 'p1');
    expect(status(ack.caseId)?.analysisStatus).toBe('completed');
    deactivatePolicy(state, ORG);
    expect(status(ack.caseId)?.analysisStatus).toBe('policy_not_configured');
  });

  it('MOD-NO-FALLBACK-OLD-EVALUATION: after a policy change only the new evaluation is reported', () => {
    const { state, submit, status, advance } = setup();
    const ack = submit();
    advance(3000);
    expect(status(ack.caseId)?.analysisStatus).toBe('completed');
    activatePolicy(state, ORG, 'ad-policy-v2');
    const after = status(ack.caseId);
    expect(after?.analysisStatus).toBe('pending');
    expect(after?.evaluationId).not.toBe(ack.evaluationId);
    expect(after).not.toHaveProperty('decision');
    advance(1000);
    expect(status(ack.caseId)?.analysisStatus).toBe('running');
    advance(2000);
    expect(status(ack.caseId)).toMatchObject({
      analysisStatus: 'completed',
      evaluationId: after?.evaluationId,
    });
    const listed = listCases(state, ORG);
    expect(listed).toHaveLength(1);
    expect(listed[0]?.evaluations).toHaveLength(2);
    expect(listed[0]?.policyId).toBe('ad-policy-v2');
  });

  it('a duplicate after a policy change acknowledges the active evaluation', () => {
    const { state, submit } = setup();
    const first = submit();
    activatePolicy(state, ORG, 'v2');
    const again = submit();
    expect(again.status).toBe('duplicate');
    expect(again.caseId).toBe(first.caseId);
    expect(again.evaluationId).not.toBe(first.evaluationId);
  });
});
