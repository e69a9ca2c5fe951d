/**
 * The must sentences that became live laws (they were catalogued mock-only): each law passes on the
 * clean mock with checks made, and fails, naming its rule, on the mock with the matching fault planted.
 */
import { describe, expect, it } from 'vitest';
import type { Law } from '../src/conformance/kit/law.ts';
import { runConformance } from '../src/conformance/runner.ts';
import { readKeyOnWriteRoutes } from '../suites/laws/auth.ts';
import { ingestionIdentity } from '../suites/laws/ingestion-identity.ts';
import { moderationExternalIdPerOrganization } from '../suites/laws/moderation-organizations.ts';
import { readsAgree } from '../suites/laws/reads-agree.ts';
import { fullFilterNoRespondedDefault } from '../suites/laws/responded-default.ts';
import { MUTANTS, TWO_AD_POLICY_MUTANTS } from '../suites/mutations/faults.ts';
import { runMutant } from '../suites/mutations/harness.ts';
import { withHook } from '../suites/mutations/hook.ts';
import { mockKeys, startMockTarget } from '../suites/target.ts';

const CASES: readonly { readonly law: Law; readonly rule: string; readonly mutants: readonly string[] }[] = [
  {
    law: fullFilterNoRespondedDefault,
    rule: 'LIST-FULLFILTER-NO-RESPONDED-DEFAULT',
    mutants: ['fullfilter-keeps-responded-default'],
  },
  { law: ingestionIdentity, rule: 'ID-INGEST-EXTERNALID-RETRIES', mutants: ['ingest-resend-new-records'] },
  {
    law: ingestionIdentity,
    rule: 'ID-INGEST-RECORD-IDENTITY',
    mutants: ['ingest-identity-ignores-serverId', 'ingest-identity-ignores-platform'],
  },
  // Met first on a blind deployment, which the suite let pass: both now fail the run there too.
  { law: readKeyOnWriteRoutes, rule: 'AUTH-READ-KEY-WRITE-ROUTE-403', mutants: ['scope-after-lookup'] },
  { law: readsAgree, rule: 'DETAIL-READS-AGREE', mutants: ['search-user-ids-as-numbers'] },
];

describe('must sentences checked live', () => {
  for (const { law, rule, mutants } of CASES) {
    it(`${rule}: ${law.id} passes on the clean mock, with checks`, async () => {
      const running = await startMockTarget({ seed: 42 });
      try {
        const report = await runConformance(
          { target: running.target, seed: 3, runs: 3, only: [law.id] },
          { laws: [law] },
        );
        const outcome = report.laws.find((l) => l.lawId === law.id)?.outcome;
        expect(outcome, JSON.stringify(outcome)).toMatchObject({ kind: 'passed' });
        expect(outcome?.kind === 'passed' ? outcome.checks : 0).toBeGreaterThan(0);
      } finally {
        await running.close();
      }
    });
    for (const id of mutants) {
      it(`${rule}: ${law.id} fails on the planted fault ${id}`, async () => {
        const mutant = MUTANTS.find((m) => m.id === id);
        expect(mutant?.expect).toContain(rule);
        if (mutant === undefined) return;
        const result = await runMutant(mutant, { seed: 3, runs: 3, targeted: true });
        expect(result.failedRules).toContain(rule);
      });
    }
  }
});

describe('ORG-MODERATION-EXTERNALID-PER-ORGANIZATION: one externalId from two organizations', () => {
  const law = moderationExternalIdPerOrganization;
  /** The mock with its second organization switched to ad_policy, so that it has a second Write key. */
  async function run(hooked: boolean) {
    const [mutant] = TWO_AD_POLICY_MUTANTS;
    const running = await startMockTarget({
      seed: 42,
      ...(hooked && mutant !== undefined
        ? { wrap: (engine) => withHook(engine, mutant.hook(mockKeys(engine))) }
        : {}),
    });
    try {
      const engine = running.engine;
      const other = engine?.admin.listOrganizations().find((o) => o.moderationMode !== 'ad_policy');
      if (engine === undefined || other === undefined) throw new Error('the mock has no second organization');
      engine.admin.setModerationMode(other.id, 'ad_policy');
      const keys = mockKeys(engine);
      expect(keys.otherOrgWrite).toBeTypeOf('string');
      const report = await runConformance(
        { target: { ...running.target, keys }, seed: 3, runs: 3, only: [law.id] },
        { laws: [law] },
      );
      return report.laws.find((l) => l.lawId === law.id);
    } finally {
      await running.close();
    }
  }

  it('is not run, with the reason, when CCA_OTHER_ORG_WRITE_KEY is absent (the default mock has one ad_policy organization)', async () => {
    const running = await startMockTarget({ seed: 42 });
    try {
      const report = await runConformance(
        { target: running.target, seed: 3, runs: 3, only: [law.id] },
        { laws: [law] },
      );
      const outcome = report.laws.find((l) => l.lawId === law.id)?.outcome;
      expect(outcome).toMatchObject({
        kind: 'not-run',
        reason: expect.stringMatching(/CCA_OTHER_ORG_WRITE_KEY/),
      });
    } finally {
      await running.close();
    }
  });

  it('passes on the clean mock, with checks', async () => {
    const outcome = (await run(false))?.outcome;
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ kind: 'passed' });
    expect(outcome?.kind === 'passed' ? outcome.checks : 0).toBeGreaterThan(0);
  });

  it('fails on the planted fault moderation-externalid-global (409 across organizations)', async () => {
    const result = await run(true);
    expect(result?.failures.map((f) => f.ruleId)).toContain('ORG-MODERATION-EXTERNALID-PER-ORGANIZATION');
  });
});
