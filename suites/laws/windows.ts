import fc from 'fast-check';
import { boundInstant, nestedWindows, window } from '../../src/arbitraries/index.ts';
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { DAY_MS, HISTORY_DAYS, sampleActions, settledAnchor } from './discover.ts';
import { listPage } from './paging.ts';
import { arr, call, expectConforming, num, obj, str } from './support.ts';

const isDateOnly = (s: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(s);

export const withinWindow: Law = {
  id: 'windows.within-window',
  group: 'windows',
  title:
    'every listed action lies in [from, to] on the sortBy field (date-only = midnight UTC), newest first',
  ruleIds: [
    'LIST-SORTBY-WINDOW-FIELD',
    'LIST-SORTBY-NEWEST-FIRST',
    'LIST-FROM-DATE-ONLY-MIDNIGHT',
    'LIST-TO-DATE-ONLY-MIDNIGHT',
    'LIST-TO-INCLUSIVE',
    'LIST-FROM-ISO-8601',
    'LIST-SORTBY-VALUES',
  ],
  needs: { keys: ['read'] },
  run: (ctx) => {
    const arb = fc.record({
      w: window({ anchor: ctx.now(), spanDays: HISTORY_DAYS }),
      sortBy: fc.option(fc.constantFrom('createdAt', 'updatedAt'), { nil: undefined }),
    });
    return runProperty(ctx, arb, async ({ w, sortBy }) => {
      const field = sortBy ?? 'createdAt';
      const page = await listPage(
        ctx,
        { ...w, pageSize: 500, ...(sortBy === undefined ? {} : { sortBy }) },
        'LIST-FROM-ISO-8601',
      );
      const lo = boundInstant(w.from);
      const hi = boundInstant(w.to);
      let previous = Number.POSITIVE_INFINITY;
      for (const item of page.items) {
        const raw = str(item[field]);
        const t = raw === undefined ? Number.NaN : Date.parse(raw);
        const id = String(item['actionId']);
        // Outside the window on updatedAt, inside it on createdAt: the window was applied to createdAt.
        const created = Date.parse(str(item['createdAt']) ?? '');
        const onCreated = field === 'updatedAt' && created >= lo && created <= hi;
        if (!(t >= lo)) {
          violate(
            isDateOnly(w.from) && !onCreated ? 'LIST-FROM-DATE-ONLY-MIDNIGHT' : 'LIST-SORTBY-WINDOW-FIELD',
            `before-from:${field}`,
            `action ${id} has ${field} ${String(raw)} before from=${w.from}${onCreated ? ` (its createdAt ${String(item['createdAt'])} is in the window)` : ''}`,
          );
        }
        if (!(t <= hi)) {
          // A date-only end read as the end of that day shows as a time within that day.
          const withinToDay = isDateOnly(w.to) && t < hi + DAY_MS;
          violate(
            withinToDay || (isDateOnly(w.to) && !onCreated)
              ? 'LIST-TO-DATE-ONLY-MIDNIGHT'
              : 'LIST-SORTBY-WINDOW-FIELD',
            `after-to:${field}`,
            `action ${id} has ${field} ${String(raw)} after to=${w.to}${onCreated ? ` (its createdAt ${String(item['createdAt'])} is in the window)` : ''}`,
          );
        }
        if (t > previous)
          violate(
            'LIST-SORTBY-NEWEST-FIRST',
            `order:${field}`,
            `action ${id} (${field} ${String(raw)}) comes after an older one: not newest first by ${field}`,
          );
        previous = t;
      }
    });
  },
};

export const narrowerSubset: Law = {
  id: 'windows.narrower-subset',
  group: 'windows',
  title: 'a narrower window returns a subset of a wider one',
  ruleIds: ['LIST-SORTBY-WINDOW-FIELD', 'LIST-FROM-ISO-8601'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runProperty(
      ctx,
      nestedWindows({ anchor: settledAnchor(ctx), spanDays: HISTORY_DAYS }),
      async ({ outer, inner }) => {
        const wide = await listPage(ctx, { ...outer, pageSize: 500 });
        const narrow = await listPage(ctx, { ...inner, pageSize: 500 });
        if ((num(narrow.body['totalRecords']) ?? 0) > (num(wide.body['totalRecords']) ?? 0)) {
          violate(
            'LIST-SORTBY-WINDOW-FIELD',
            'total-not-monotone',
            `window ${inner.from}..${inner.to} counts more records than the wider ${outer.from}..${outer.to}`,
          );
        }
        // Set inclusion needs the whole wider window in one page.
        if ((num(wide.body['totalRecords']) ?? 0) > 500) return;
        const all = new Set(wide.ids);
        const extra = narrow.ids.filter((id) => !all.has(id));
        if (extra.length > 0) {
          violate(
            'LIST-SORTBY-WINDOW-FIELD',
            'not-subset',
            `window ${inner.from}..${inner.to} lists ${extra.slice(0, 3).join(', ')} absent from the wider window ${outer.from}..${outer.to}`,
          );
        }
      },
    ),
};

export const pagePrefix: Law = {
  id: 'windows.page-prefix',
  group: 'windows',
  title: 'a smaller page is a prefix of a larger page of the same window',
  ruleIds: ['LIST-SORTBY-NEWEST-FIRST', 'LIST-PAGESIZE-BOUNDS-DATA'],
  needs: { keys: ['read'] },
  run: (ctx) => {
    const arb = fc.record({
      w: window({ anchor: settledAnchor(ctx), spanDays: HISTORY_DAYS }),
      small: fc.integer({ min: 1, max: 40 }),
      extra: fc.integer({ min: 1, max: 100 }),
    });
    return runProperty(ctx, arb, async ({ w, small, extra }) => {
      const a = await listPage(ctx, { ...w, pageSize: small });
      const b = await listPage(ctx, { ...w, pageSize: small + extra });
      const prefix = b.ids.slice(0, a.ids.length);
      if (prefix.join() !== a.ids.join()) {
        violate(
          'LIST-SORTBY-NEWEST-FIRST',
          'not-prefix',
          `pageSize ${small} is not a prefix of pageSize ${small + extra} for ${w.from}..${w.to}`,
        );
      }
    });
  },
};

const midnight = (t: number): string => new Date(t - (t % DAY_MS)).toISOString().slice(0, 10);

export const dateOnlyBounds: Law = {
  id: 'windows.date-only-bounds',
  group: 'windows',
  title:
    'a date-only to excludes the rest of that day; a date-only from starts at midnight; bounds are inclusive (on createdAt, and on updatedAt with sortBy=updatedAt)',
  ruleIds: ['LIST-TO-DATE-ONLY-MIDNIGHT', 'LIST-FROM-DATE-ONLY-MIDNIGHT', 'LIST-TO-INCLUSIVE'],
  needs: { keys: ['read'] },
  run: async (ctx: LawContext) => {
    const actions = (await sampleActions(ctx)).filter((a) => {
      const t = Date.parse(str(a['createdAt']) ?? '');
      return Number.isFinite(t) && t % DAY_MS !== 0;
    });
    if (actions.length === 0)
      return {
        kind: 'not-run',
        ruleIds: dateOnlyBounds.ruleIds,
        reason: 'no action in the last 90 days to aim at',
      };
    return runProperty(
      ctx,
      // Only what the check uses, so the counterexample stays readable.
      fc.constantFrom(
        ...actions.map((a) => ({
          actionId: a['actionId'],
          createdAt: a['createdAt'],
          updatedAt: a['updatedAt'],
        })),
      ),
      async (action) => {
        const id = String(action['actionId']);
        const created = str(action['createdAt']) ?? '';
        const t = Date.parse(created);
        const day = midnight(t);
        const nextDay = midnight(t + DAY_MS);
        const before = await listPage(ctx, { from: midnight(t - 2 * DAY_MS), to: day, pageSize: 500 });
        if (before.ids.includes(id)) {
          violate(
            'LIST-TO-DATE-ONLY-MIDNIGHT',
            'to-end-of-day',
            `to=${day} (date-only) includes action ${id} created ${created}: a date-only to is midnight, not the end of the day`,
          );
        }
        const during = await listPage(ctx, { from: day, to: nextDay, pageSize: 500 });
        if ((num(during.body['totalRecords']) ?? 0) <= 500 && !during.ids.includes(id)) {
          violate(
            'LIST-FROM-DATE-ONLY-MIDNIGHT',
            'from-date-only',
            `from=${day} to=${nextDay} (date-only) misses action ${id} created ${created}`,
          );
        }
        const exact = await listPage(ctx, { from: created, to: created, pageSize: 500 });
        if (!exact.ids.includes(id)) {
          violate(
            'LIST-TO-INCLUSIVE',
            'bounds-exclusive',
            `from=to=${created} misses action ${id} created exactly then: bounds must be inclusive`,
          );
        }
        // sortBy=updatedAt windows by updatedAt (4.1): the same instant window of its updatedAt lists it.
        // It came from the default list, so it is one of the responded actions that list also holds.
        const updated = str(action['updatedAt']);
        if (updated !== undefined && Number.isFinite(Date.parse(updated))) {
          const byUpdate = await listPage(ctx, {
            from: updated,
            to: updated,
            sortBy: 'updatedAt',
            pageSize: 500,
          });
          if (byUpdate.ids.length < 500 && !byUpdate.ids.includes(id))
            violate(
              'LIST-TO-INCLUSIVE',
              'bounds-exclusive:updatedAt',
              `sortBy=updatedAt from=to=${updated} misses action ${id} updated exactly then: the window is on updatedAt and its bounds are inclusive`,
            );
        }
      },
      { runs: Math.min(ctx.runs, 10) },
    );
  },
};

export const defaultWindow: Law = {
  id: 'windows.default-window',
  group: 'windows',
  title: 'without from/to the list covers the past seven days',
  ruleIds: ['LIST-DEFAULT-WINDOW-7-DAYS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runProperty(
      ctx,
      fc.option(fc.constantFrom('createdAt', 'updatedAt'), { nil: undefined }),
      async (sortBy) => {
        const field = sortBy ?? 'createdAt';
        const now = ctx.now();
        const page = await listPage(
          ctx,
          { pageSize: 500, ...(sortBy === undefined ? {} : { sortBy }) },
          'LIST-DEFAULT-WINDOW-7-DAYS',
        );
        const slack = 10 * 60_000;
        for (const item of page.items) {
          const t = Date.parse(str(item[field]) ?? '');
          if (!(t >= now - 7 * DAY_MS - slack && t <= now + slack)) {
            violate(
              'LIST-DEFAULT-WINDOW-7-DAYS',
              `outside-default:${field}`,
              `action ${String(item['actionId'])} has ${field} ${String(item[field])}, outside the past seven days (now ${new Date(now).toISOString()})`,
            );
          }
        }
      },
      { runs: 2 },
    ),
};

/** A platform value that stands for every platform (an aggregate row). */
const TOTAL_ROW = /^(?:all|total|any|\*)$/i;

export const platformsFilter: Law = {
  id: 'windows.engagement-platforms',
  group: 'windows',
  title: 'engagement with platforms=... carries only those platforms',
  ruleIds: ['ENG-PLATFORMS-FILTER', 'ENG-QUERY-PARAMS'],
  needs: { keys: ['read'] },
  run: (ctx) => {
    const arb = fc.uniqueArray(
      fc.constantFrom('DISCORD', 'SLACK', 'ZENDESK', 'TWITTER', 'INSTAGRAM', 'APPSTORE', 'GITHUB'),
      { minLength: 1, maxLength: 3 },
    );
    return runProperty(
      ctx,
      arb,
      async (platforms) => {
        const res = await call(ctx, 'getEngagement', {
          auth: 'read',
          query: { platforms: platforms.join(',') },
        });
        expectConforming(ctx, 'getEngagement', res, {
          status: 200,
          statusRule: 'ENG-QUERY-PARAMS',
          before: (parsed) => {
            const data = obj(obj(parsed)['data']);
            for (const row of [...arr(data['engagementPercentiles']), ...arr(data['growthTrends'])].map(
              obj,
            )) {
              // A reading of "comma-separated source platform values", so tolerant: platform names
              // compare without case, and a row that names no platform or all of them (a total) is allowed.
              const p = str(row['platform']);
              if (
                p !== undefined &&
                !TOTAL_ROW.test(p) &&
                !platforms.some((wanted) => wanted.toLowerCase() === p.toLowerCase())
              )
                violate(
                  'ENG-PLATFORMS-FILTER',
                  'foreign-platform',
                  `platforms=${platforms.join(',')} but a row has platform ${p}`,
                );
            }
          },
        });
      },
      { runs: Math.min(ctx.runs, 6) },
    );
  },
};

export const windowLaws: readonly Law[] = [
  withinWindow,
  narrowerSubset,
  pagePrefix,
  dateOnlyBounds,
  defaultWindow,
  platformsFilter,
];
