import fc from 'fast-check';
import { moderationSubmission } from '../../src/arbitraries/index.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { submitNew } from './moderation-support.ts';
import { arr, call, expectConforming, obj } from './support.ts';

/** Batch items that are JSON but no object at all: the values a loosely typed producer sends. */
const NOT_OBJECTS: readonly { readonly label: string; readonly value: unknown }[] = [
  { label: 'null', value: null },
  { label: 'a string', value: 'case' },
  { label: 'a number', value: 7 },
  { label: 'an array', value: [] },
];

/**
 * Spec 4.15: "A conflicting or invalid item is rejected without blocking other valid items". An item
 * that is not an object is invalid; whether it is an invalid item (202, that item rejected) or makes
 * the batch envelope itself bad (400, the status the batch declares for that) the spec leaves open,
 * so both are accepted. Then nothing of the batch may be enqueued (4.14: the whole request is
 * validated first): each valid case is still new afterwards. Any other answer (a 500) fails.
 */
export const moderationBatchNonObjectItems: Law = {
  id: 'moderation.batch-non-object-items',
  group: 'moderation',
  title:
    'a batch with items that are not objects (null, a string, a number, an array) rejects just those items (or refuses the batch with 400 and enqueues nothing)',
  ruleIds: ['MOD-BATCH-ITEM-ISOLATION', 'MOD-BATCH-REJECTED-DETAILS', 'MOD-VALIDATED-BEFORE-ENQUEUE'],
  needs: { keys: ['write'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const valid = fc
        .sample(moderationSubmission({ externalIdPrefix: ctx.prefix }), { seed: ctx.seed, numRuns: 2 })
        .map((s) => ({ ...s, externalId: ctx.unique('nonobj') }));
      // The valid cases first, last and between the others, so no position of a bad item is spared.
      const items: { readonly label: string; readonly value: unknown; readonly valid: boolean }[] = [
        { label: 'a valid case', value: valid[0], valid: true },
        ...NOT_OBJECTS.map((n) => ({ ...n, valid: false })),
        { label: 'a valid case', value: valid[1], valid: true },
      ];
      const res = await call(ctx, 'submitModerationBatch', {
        auth: 'write',
        json: { cases: items.map((i) => i.value) },
      });
      const ok = expectConforming(ctx, 'submitModerationBatch', res, {
        status: [202, 400],
        statusRule: 'MOD-BATCH-ITEM-ISOLATION',
        what: `a batch of ${items.map((i) => i.label).join(', ')}`,
        before: (parsed) => {
          if (res.status !== 202) return;
          const results = arr(obj(parsed)['results']).map(obj);
          if (results.length !== items.length)
            violate(
              'MOD-BATCH-ITEM-ISOLATION',
              'non-object-count',
              `a batch of ${items.length} items (${NOT_OBJECTS.length} not objects) answered ${results.length} results`,
            );
          results.forEach((r, i) => {
            const item = items[i];
            if (item === undefined) return;
            const expected = item.valid ? 'accepted' : 'rejected';
            if (r['status'] !== expected)
              violate(
                item.valid ? 'MOD-BATCH-ITEM-ISOLATION' : 'MOD-BATCH-REJECTED-DETAILS',
                `non-object-${item.valid ? 'valid' : 'bad'}:${String(r['status'])}`,
                `batch item ${i} (${item.label}) was ${JSON.stringify(r['status'])}, expected ${expected}`,
              );
          });
        },
      });
      if (ok.status === 400) {
        // Refused as a whole: nothing was enqueued, so each valid case is new to a single submission.
        for (const v of valid) await submitNew(ctx, v);
      }
      return items.length;
    }),
};
