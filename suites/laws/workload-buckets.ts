/**
 * The workload buckets of an agent or queue entry count its actions (spec 2.5: "Workload object:
 * active, closed, cancelled (numbers, counts of actions in each workload state)"; section 3 names
 * these three the workload buckets): over a window holding every date, whether a deployment counts
 * the window's actions or the current ones, each action of the entry is in one bucket, so the three
 * are counts (none below 0) adding up to the entry's totalActions. A reading (the spec does not say
 * the buckets are exhaustive in so many words): a `should` rule. That they are counts of actions in
 * one state each is stated, though: three counts that add up to more than the entry's actions (an
 * action counted once per tag, say) break SCHEMA-WORKLOAD, a must.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { readAnalytics } from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';
import { EVERY_DATE } from './whole-search.ts';

const BUCKETS = ['active', 'closed', 'cancelled'] as const;

export const workloadBuckets: Law = {
  id: 'analytics.workload-buckets',
  group: 'parameters',
  title:
    "over every date, an agent or queue entry's workload active, closed and cancelled are counts adding up to its totalActions",
  ruleIds: ['ANALYTICS-WORKLOAD-BUCKETS-COUNT-ACTIONS', 'SCHEMA-WORKLOAD'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      let checks = 0;
      for (const [operationId, idKey] of [
        ['listAgents', 'agentId'],
        ['listQueues', 'queueId'],
      ] as const) {
        const body = await readAnalytics(ctx, operationId, EVERY_DATE);
        for (const entry of arr(body['data']).map(obj)) {
          const total = num(obj(entry['metrics'])['totalActions']);
          const workload = obj(entry['workload']);
          const counts = BUCKETS.map((b) => num(workload[b]));
          if (total === undefined || counts.some((n) => n === undefined)) continue;
          checks += 1;
          const sum = (counts as number[]).reduce((a, b) => a + b, 0);
          if (sum > total)
            violate(
              'SCHEMA-WORKLOAD',
              `workload-above-total:${operationId}`,
              `${operationId} over every date: entry ${JSON.stringify(str(entry[idKey]) ?? null)} has workload ${BUCKETS.map((b, i) => `${b} ${counts[i]}`).join(', ')}, ${sum} in all, for totalActions ${total}: counts of actions in one state each cannot add up to more than the actions`,
            );
          else if (sum !== total || (counts as number[]).some((n) => n < 0))
            violate(
              'ANALYTICS-WORKLOAD-BUCKETS-COUNT-ACTIONS',
              `workload-sum:${operationId}`,
              `${operationId} over every date: entry ${JSON.stringify(str(entry[idKey]) ?? null)} has workload ${BUCKETS.map((b, i) => `${b} ${counts[i]}`).join(', ')} for totalActions ${total}`,
            );
        }
      }
      return checks;
    }),
};
