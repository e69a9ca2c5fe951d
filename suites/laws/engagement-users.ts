/**
 * Engagement counts users of the actions it covers (spec 2.6): over a window holding every date, each
 * platform of the organization's actions has an engagementPercentiles row, and a growthTrends row of a
 * week and platform counts at least one user this week where actions of that platform were created in
 * the week the row names (from its own `week` to seven days later), and at least one the week before
 * where actions were created in the seven days before it. Readings of the names (the spec gives the
 * fields, not what they count): `should` rules.
 *
 * The actions come from the whole conversation search. Platforms are compared only when the
 * engagement rows and the search name at least one platform alike (a deployment may name them its own
 * way in engagement); nothing else is presumed.
 */
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { readAnalytics } from './parameters-support.ts';
import { arr, num, obj, str } from './support.ts';
import { EVERY_DATE, type SearchedAction, withWholeSearch } from './whole-search.ts';

const WEEK_MS = 7 * 86_400_000;

function createdBetween(actions: readonly SearchedAction[], platform: string, from: number, to: number) {
  return actions.some(
    (a) => a.platform === platform && a.createdAt !== undefined && a.createdAt >= from && a.createdAt < to,
  );
}

/**
 * Percentiles of one distribution are ordered whatever the method that computes them: p25 <= median
 * <= p75, none below 0 (messages per user are counts).
 */
function checkPercentilesOrdered(rows: readonly Record<string, unknown>[]): number {
  let checks = 0;
  for (const row of rows) {
    const values = ['p25MessagesPerUser', 'medianMessagesPerUser', 'p75MessagesPerUser'].map((k) => [
      k,
      num(row[k]),
    ]) as [string, number | undefined][];
    if (values.some(([, v]) => v === undefined)) continue;
    checks += 1;
    const [p25, median, p75] = values.map(([, v]) => v as number) as [number, number, number];
    if (!(p25 >= 0 && p25 <= median && median <= p75))
      violate(
        'ENG-PERCENTILES-ORDERED',
        'percentiles-order',
        `getEngagement over every date: the ${str(row['platform']) ?? '?'} row has ${values.map(([k, v]) => `${k} ${v}`).join(', ')}, not 0 <= p25 <= median <= p75`,
      );
  }
  return checks;
}

export const engagementUsers: Law = {
  id: 'analytics.engagement-users',
  group: 'parameters',
  title:
    'engagement over every date has a percentiles row for each platform of the actions, and a growth row counts a user in each week where its platform has actions',
  ruleIds: ['ENG-COUNTS-ACTION-USERS', 'ENG-PERCENTILES-ORDERED'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    withWholeSearch(ctx, engagementUsers.ruleIds, async (actions) => {
      const body = await readAnalytics(ctx, 'getEngagement', EVERY_DATE);
      const data = obj(body['data']);
      const percentiles = arr(data['engagementPercentiles']).map(obj);
      const trends = arr(data['growthTrends']).map(obj);
      const searchPlatforms = new Set(actions.flatMap((a) => a.platform ?? []));
      const named = new Set([...percentiles, ...trends].flatMap((r) => str(r['platform']) ?? []));
      // Rows that all name platforms the search does not are another naming; no rows at all are none.
      if (named.size > 0 && ![...named].some((p) => searchPlatforms.has(p)))
        return 'engagement names no platform as the search does: its rows cannot be matched to actions';
      let checks = checkPercentilesOrdered(percentiles);
      const rowed = new Set(percentiles.flatMap((r) => str(r['platform']) ?? []));
      for (const platform of searchPlatforms) {
        checks += 1;
        if (!rowed.has(platform))
          violate(
            'ENG-COUNTS-ACTION-USERS',
            'percentiles-platform-missing',
            `getEngagement over every date has no engagementPercentiles row for ${platform}, though the whole conversation search holds ${actions.filter((a) => a.platform === platform).length} of its actions (rows for ${[...rowed].join(', ') || 'no platform'})`,
          );
      }
      for (const row of trends) {
        const platform = str(row['platform']);
        const week = Date.parse(str(row['week']) ?? '');
        if (platform === undefined || Number.isNaN(week) || !searchPlatforms.has(platform)) continue;
        const label = `getEngagement over every date: growthTrends week ${str(row['week'])} ${platform}`;
        const current = num(row['currentWeekUsers']);
        if (current !== undefined && createdBetween(actions, platform, week, week + WEEK_MS)) {
          checks += 1;
          if (current < 1)
            violate(
              'ENG-COUNTS-ACTION-USERS',
              'week-users-missing',
              `${label} has currentWeekUsers ${current}, though the search holds ${platform} actions created in that week`,
            );
        }
        const previous = num(row['previousWeekUsers']);
        if (previous !== undefined && createdBetween(actions, platform, week - WEEK_MS, week)) {
          checks += 1;
          if (previous < 1)
            violate(
              'ENG-COUNTS-ACTION-USERS',
              'previous-week-users-missing',
              `${label} has previousWeekUsers ${previous}, though the search holds ${platform} actions created in the week before`,
            );
        }
      }
      return checks;
    }),
};
