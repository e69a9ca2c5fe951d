/**
 * Model-based test of the moderation slice (fc.commands): random sequences of submissions, clock
 * moves, policy activations and deactivations, checked after every step against a small model.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { submitCase } from './intake.ts';
import { sampleSubmission } from './sample.ts';
import { createModerationState, type ModerationState } from './state.ts';
import { activatePolicy, deactivatePolicy, readCaseStatus } from './status.ts';

const ORG = 'org_model';

interface ModelCase {
  readonly variant: string;
  readonly caseId: string;
  /** Engine time the reported evaluation started (intake, or the latest activation). */
  evaluationStart: number;
  evaluationId: string;
}

interface Model {
  now: number;
  policyActive: boolean;
  readonly cases: Map<string, ModelCase>;
}

interface Real {
  readonly state: ModerationState;
  readonly clock: { now: number };
}

/** Content variants: `fail` triggers a failed evaluation, the others complete. */
const submissionOf = (externalId: string, variant: string) =>
  sampleSubmission({ externalId, title: variant === 'fail' ? 'x [[fail]]' : `Title ${variant}` });

function expectedStatus(model: Model, modelCase: ModelCase): string {
  if (!model.policyActive) return 'policy_not_configured';
  const elapsed = model.now - modelCase.evaluationStart;
  if (elapsed < 1000) return 'pending';
  if (elapsed < 3000) return 'running';
  return modelCase.variant === 'fail' ? 'failed' : 'completed';
}

class Submit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly externalId: string,
    readonly variant: string,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    const outcome = submitCase(real.state, ORG, submissionOf(this.externalId, this.variant), []);
    const known = model.cases.get(this.externalId);
    if (known === undefined) {
      if (outcome.kind !== 'ack') throw new Error('a new externalId must be accepted');
      expect(outcome.ack.status).toBe('accepted');
      model.cases.set(this.externalId, {
        variant: this.variant,
        caseId: outcome.ack.caseId,
        evaluationStart: model.now,
        evaluationId: outcome.ack.evaluationId,
      });
    } else if (known.variant === this.variant) {
      expect(outcome).toMatchObject({ kind: 'ack', ack: { status: 'duplicate', caseId: known.caseId } });
      if (model.policyActive && outcome.kind === 'ack')
        expect(outcome.ack.evaluationId).toBe(known.evaluationId);
    } else {
      expect(outcome).toMatchObject({ kind: 'refused', refusal: { kind: 'conflict', caseId: known.caseId } });
    }
  }
  toString = () => `submit(${this.externalId}, ${this.variant})`;
}

class Advance implements fc.AsyncCommand<Model, Real> {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    model.now += this.ms;
    real.clock.now += this.ms;
  }
  toString = () => `advance(${this.ms})`;
}

class Activate implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    activatePolicy(real.state, ORG, 'v-next');
    model.policyActive = true;
    for (const modelCase of model.cases.values()) {
      const status = readCaseStatus(real.state, ORG, modelCase.caseId);
      expect(status?.evaluationId).not.toBe(modelCase.evaluationId);
      modelCase.evaluationStart = model.now;
      modelCase.evaluationId = status?.evaluationId ?? '';
    }
  }
  toString = () => 'activate';
}

class Deactivate implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    deactivatePolicy(real.state, ORG);
    model.policyActive = false;
  }
  toString = () => 'deactivate';
}

/** Reads every case and compares with the model (run after each command). */
class ReadAll implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    for (const modelCase of model.cases.values()) {
      const status = readCaseStatus(real.state, ORG, modelCase.caseId);
      const expected = expectedStatus(model, modelCase);
      expect(status?.analysisStatus).toBe(expected);
      expect(status?.decision !== undefined).toBe(expected === 'completed');
      expect(status?.failureCode !== undefined).toBe(expected === 'failed');
      if (expected === 'policy_not_configured') expect(status).not.toHaveProperty('evaluationId');
      else expect(status?.evaluationId).toBe(modelCase.evaluationId);
    }
  }
  toString = () => 'readAll';
}

describe('moderation slice against a model', () => {
  it('MOD-NO-FALLBACK-OLD-EVALUATION, MOD-DECISION-ONLY-WHEN-COMPLETED, MOD-EXACT-RESUBMIT-DUPLICATE: any sequence agrees with the model', async () => {
    const commands = [
      fc
        .tuple(fc.constantFrom('a', 'b', 'c'), fc.constantFrom('one', 'two', 'fail'))
        .map(([id, v]) => new Submit(id, v)),
      fc.integer({ min: 0, max: 2500 }).map((ms) => new Advance(ms)),
      fc.constant(new Activate()),
      fc.constant(new Deactivate()),
      fc.constant(new ReadAll()),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40 }), async (cmds) => {
        const clock = { now: 0 };
        const state = createModerationState({ clock: { now: () => clock.now }, seed: 'model' });
        const model: Model = { now: 0, policyActive: true, cases: new Map() };
        await fc.asyncModelRun(() => ({ model, real: { state, clock } }), [...cmds, new ReadAll()]);
      }),
      { numRuns: 150 },
    );
  });
});
