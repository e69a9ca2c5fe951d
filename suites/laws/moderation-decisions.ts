import fc from 'fast-check';
import { moderationSubmission } from '../../src/arbitraries/index.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { checkCaseRead, submitNew, TERMINAL } from './moderation-support.ts';
import { call } from './support.ts';

/**
 * Content an advertising-policy evaluation is likely to act on, one concern per case. A submission
 * drawn at random is almost always harmless, so the decisions a law sees are approvals: the shapes of
 * negative hits, their evidence and its locators (section 2.7) would never meet a check. Nothing is
 * presumed of the outcome: any disposition, any hits, or a failed evaluation all pass; only what the
 * status read shows must conform.
 */
const SENSITIVE: readonly {
  readonly concern: string;
  readonly change: (s: Record<string, unknown>) => Record<string, unknown>;
}[] = [
  {
    concern: 'a health claim in the title',
    change: (s) => ({ ...s, title: 'A guaranteed cure in one week' }),
  },
  {
    concern: 'a money claim in the copy',
    change: (s) => ({ ...s, copy: { body: 'Get rich quick with this one miracle trick.' } }),
  },
  {
    concern: 'an age-restricted product reaching minors',
    change: (s) => ({
      ...s,
      headline: 'Craft beer and online casino bonuses',
      targeting: { ...(s['targeting'] as Record<string, unknown>), ageMin: null },
    }),
  },
  {
    concern: 'an age-restricted product for adults only',
    change: (s) => ({
      ...s,
      headline: 'Fine wine, delivered',
      targeting: { ...(s['targeting'] as Record<string, unknown>), ageMin: 21 },
    }),
  },
  {
    concern: 'media its file name marks as flagged',
    change: (s) => ({
      ...s,
      media: [
        { url: 'https://cdn.example.org/ads/flagged-creative.jpg', type: 'image', position: 1 },
        { url: 'https://cdn.example.org/ads/flagged-clip.mp4', type: 'video', position: 2 },
      ],
    }),
  },
  {
    concern: 'no landing page and no destination',
    change: (s) => ({
      ...s,
      landingPageUrl: null,
      attachment: { ...(s['attachment'] as Record<string, unknown>), destinationUrl: null },
    }),
  },
];

function baseSubmission(ctx: LawContext): Record<string, unknown> {
  const [sample] = fc.sample(moderationSubmission({ externalIdPrefix: ctx.prefix }), {
    seed: ctx.seed,
    numRuns: 1,
  });
  return sample ?? {};
}

export const decisionsOfSensitiveContent: Law = {
  id: 'moderation.decisions-sensitive-content',
  group: 'moderation',
  title:
    'cases an ad-policy evaluation acts on (claims, age-restricted products, flagged media, no landing page) settle, and whatever they show conforms',
  ruleIds: [
    'MOD-SUBMIT-202',
    'MOD-NEW-CASE-PENDING',
    'MOD-ACK-ANALYSIS-PENDING',
    'MOD-ACK-EXTERNALID-ECHO',
    'MOD-GET-CASE-FROM-ACK',
    'ID-MODERATION-EXTERNALID-IMMUTABLE',
    'MOD-DECISION-ONLY-WHEN-COMPLETED',
    'MOD-ANALYSIS-STATUS-VALUES',
    'MOD-202-ACCEPTANCE-NOT-COMPLETION',
    'SCHEMA-MODERATION-CASE-STATUS',
    'SCHEMA-MODERATION-DECISION',
    'SCHEMA-MODERATION-HIT',
    'SCHEMA-MODERATION-EVIDENCE',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  waits: true,
  run: (ctx) =>
    runExamples(ctx, async () => {
      const base = baseSubmission(ctx);
      const cases: { caseId: string; externalId: string; concern: string }[] = [];
      for (const { concern, change } of SENSITIVE) {
        const externalId = ctx.unique('sens');
        const { caseId } = await submitNew(ctx, { ...change(base), externalId });
        cases.push({ caseId, externalId, concern });
      }
      const deadline = performance.now() + ctx.moderationTimeoutMs;
      let checks = 0;
      await Promise.all(
        cases.map(async ({ caseId, externalId, concern }) => {
          const read = async () =>
            checkCaseRead(
              ctx,
              await call(ctx, 'getModerationCase', { auth: 'read', path: { caseId } }),
              caseId,
              externalId,
            );
          let status = await read();
          checks++;
          while (!TERMINAL.has(status)) {
            if (performance.now() > deadline)
              violate(
                'MOD-202-ACCEPTANCE-NOT-COMPLETION',
                'sensitive-timeout',
                `case ${caseId} (${concern}) still ${status} after ${ctx.moderationTimeoutMs} ms (raise --moderation-timeout for slow deployments)`,
              );
            await ctx.poll();
            status = await read();
            checks++;
          }
        }),
      );
      return checks;
    }),
};
