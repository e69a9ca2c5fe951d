import fc from 'fast-check';
import { moderationSubmission } from '../../src/arbitraries/index.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import type { CheckOutcome } from '../../src/conformance/kit/outcome.ts';
import { checkCaseRead, submitNew, TERMINAL } from './moderation-support.ts';
import { call } from './support.ts';

/**
 * Polls the case until its status read is terminal; the number of polls it took, or undefined when the
 * deadline or `maxPolls` passed first (polls can cost no time at all: a mock's clock may jump instead).
 */
async function pollsToSettle(
  ctx: LawContext,
  caseId: string,
  externalId: string,
  deadline: number,
  maxPolls: number,
): Promise<number | undefined> {
  const read = async () =>
    checkCaseRead(
      ctx,
      await call(ctx, 'getModerationCase', { auth: 'read', path: { caseId } }),
      caseId,
      externalId,
    );
  let polls = 0;
  let status = await read();
  while (!TERMINAL.has(status)) {
    if (performance.now() > deadline || polls >= maxPolls) return undefined;
    await ctx.poll();
    polls += 1;
    status = await read();
  }
  return polls;
}

/**
 * Progress is obtained by polling (section 1, section 6), and nothing in the spec ties it to how
 * often a client reads: a case nobody reads for a while settles as one read all along does. The law
 * first measures, on the target, how many polls a case takes to settle while it is read after each
 * one; then it leaves a second case unread for more than twice as long, and only then polls it: it
 * must reach completed or failed (or policy_not_configured) within ten times the polls the first took
 * (at least 20) and the run's moderation timeout.
 */
export const moderationSettlesUnread: Law = {
  id: 'moderation.settles-unread',
  group: 'moderation',
  title:
    'a case left unread for longer than another took to settle still reaches completed or failed when polled',
  ruleIds: ['MOD-202-ACCEPTANCE-NOT-COMPLETION', 'MOD-GET-CASE-FROM-ACK', 'MOD-ANALYSIS-STATUS-VALUES'],
  needs: { keys: ['write', 'read'], writes: true },
  waits: true,
  run: async (ctx): Promise<CheckOutcome> => {
    let reason = '';
    const outcome = await runExamples(ctx, async () => {
      const [a, b] = fc.sample(moderationSubmission({ externalIdPrefix: ctx.prefix }), {
        seed: ctx.seed,
        numRuns: 2,
      });
      const watched = { ...a, externalId: ctx.unique('watched') };
      const { caseId: watchedId } = await submitNew(ctx, watched);
      const measured = await pollsToSettle(
        ctx,
        watchedId,
        watched.externalId,
        performance.now() + ctx.moderationTimeoutMs,
        Number.POSITIVE_INFINITY,
      );
      // A case that never settles while watched is moderation.lifecycle's failure, not this law's.
      if (measured === undefined) {
        reason = `case ${watchedId}, read after every poll, did not settle within ${ctx.moderationTimeoutMs} ms: no time to leave a case unread for`;
        return 0;
      }
      const unread = { ...b, externalId: ctx.unique('unread') };
      const { caseId } = await submitNew(ctx, unread);
      const quiet = 2 * measured + 2;
      for (let i = 0; i < quiet; i++) await ctx.poll();
      // Ten times the polls the watched case took (at least 20) once it is read again, and the run's
      // moderation timeout: room for a deployment whose processing time varies.
      const allowed = Math.max(20, 10 * (measured + 1));
      const settled = await pollsToSettle(
        ctx,
        caseId,
        unread.externalId,
        performance.now() + ctx.moderationTimeoutMs,
        allowed,
      );
      if (settled === undefined)
        violate(
          'MOD-202-ACCEPTANCE-NOT-COMPLETION',
          'unread-never-settles',
          `case ${caseId}, left unread for ${quiet} polls (a case read after every poll settled in ${measured}), was still not completed or failed after ${allowed} more polls or ${ctx.moderationTimeoutMs} ms from its first read (raise --moderation-timeout for slow deployments)`,
        );
      return 2;
    });
    if (outcome.kind === 'passed' && outcome.checks === 0)
      return { kind: 'not-run', ruleIds: ctx.ruleIds, reason };
    return outcome;
  },
};
