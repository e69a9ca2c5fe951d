/**
 * A moderation externalId is immutable per organization (spec 2.7): the same externalId submitted
 * with the Write keys of two organizations names two independent cases. Neither submission is a
 * conflict (409) nor a duplicate of the other's, and each organization's resubmission is a duplicate
 * of its own case. Needs `CCA_OTHER_ORG_WRITE_KEY`, a Write key of a second organization in
 * `ad_policy` mode; without it the law is not run.
 */
import fc from 'fast-check';
import { moderationSubmission } from '../../src/arbitraries/index.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { call, expectConforming, obj, str } from './support.ts';

type Side = 'write' | 'otherOrgWrite';
const NAME: Readonly<Record<Side, string>> = {
  write: "this organization's Write key",
  otherOrgWrite: "the other organization's Write key",
};

async function submit(
  ctx: LawContext,
  auth: Side,
  body: Record<string, unknown>,
  expected: 'accepted' | 'duplicate',
  what: string,
): Promise<string> {
  const res = await call(ctx, 'submitModerationCase', { auth, json: body });
  const externalId = JSON.stringify(body['externalId']);
  if (res.status === 409)
    violate(
      'ORG-MODERATION-EXTERNALID-PER-ORGANIZATION',
      `conflict-across-organizations:${what}`,
      `externalId ${externalId} submitted with ${NAME[auth]} (${what}) was answered 409: an externalId is immutable per organization, and the other organization's case under it is no conflict`,
      { externalId: body['externalId'] },
    );
  const ok = expectConforming(ctx, 'submitModerationCase', res, {
    status: 202,
    statusRule: 'ORG-MODERATION-EXTERNALID-PER-ORGANIZATION',
    what: `submitModerationCase with ${NAME[auth]} (${what})`,
  });
  const ack = obj(ok.parsed);
  if (ack['status'] !== expected)
    violate(
      'ORG-MODERATION-EXTERNALID-PER-ORGANIZATION',
      `${expected}-expected:${what}`,
      `externalId ${externalId} submitted with ${NAME[auth]} (${what}) was answered status ${JSON.stringify(ack['status'])}, expected ${expected}: each organization's externalId names its own case`,
      { externalId: body['externalId'] },
    );
  return str(ack['caseId']) ?? '';
}

export const moderationExternalIdPerOrganization: Law = {
  id: 'moderation.externalid-per-organization',
  group: 'moderation',
  title:
    "one externalId submitted by two organizations (same content and different content) is two independent cases: each accepted, no 409, each organization's resubmission a duplicate of its own case",
  ruleIds: ['ORG-MODERATION-EXTERNALID-PER-ORGANIZATION'],
  needs: { keys: ['write', 'otherOrgWrite'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const [mine, theirs] = fc.sample(moderationSubmission({ externalIdPrefix: ctx.prefix }), {
        seed: ctx.seed,
        numRuns: 2,
      });
      let checks = 0;
      // Same content under both organizations (a store keyed on externalId alone answers duplicate),
      // then different content (such a store answers 409).
      for (const [label, other] of [
        ['same content', mine],
        [
          'different content',
          { ...theirs, title: `${String(obj(mine)['title'] ?? 'case')} (other organization)` },
        ],
      ] as const) {
        const externalId = ctx.unique('orgs');
        const first = { ...obj(mine), externalId };
        const second = { ...obj(other), externalId };
        const ownCase = await submit(ctx, 'write', first, 'accepted', `${label}, first`);
        const otherCase = await submit(
          ctx,
          'otherOrgWrite',
          second,
          'accepted',
          `${label}, second organization`,
        );
        // Each organization's own case is still there, under its own caseId: a resubmission is its duplicate.
        const ownAgain = await submit(ctx, 'write', first, 'duplicate', `${label}, first resubmitted`);
        const otherAgain = await submit(
          ctx,
          'otherOrgWrite',
          second,
          'duplicate',
          `${label}, second resubmitted`,
        );
        for (const [side, before, after] of [
          ['write', ownCase, ownAgain],
          ['otherOrgWrite', otherCase, otherAgain],
        ] as const)
          if (before !== '' && after !== '' && before !== after)
            violate(
              'ORG-MODERATION-EXTERNALID-PER-ORGANIZATION',
              `case-replaced:${label}`,
              `externalId ${JSON.stringify(externalId)} resubmitted with ${NAME[side]} (${label}) names case ${JSON.stringify(after)}, not its own case ${JSON.stringify(before)}: the other organization's submission took its place`,
              { externalId },
            );
        checks += 4;
      }
      return checks;
    }),
};
