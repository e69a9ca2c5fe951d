import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { historyWindow, sampleActions } from './discover.ts';
import { call, expectConforming, num, obj, str } from './support.ts';

/**
 * Offsets an ISO 8601 timestamp may carry, in minutes east of UTC, each written as the standard
 * allows (extended `+05:30`, basic `-0700`, hours only `+09`): a parser that drops the offset, reads
 * its sign the wrong way or takes its minutes for hours names another instant.
 */
const OFFSETS: readonly { readonly minutes: number; readonly form: 'extended' | 'basic' | 'hours' }[] = [
  { minutes: 330, form: 'extended' },
  { minutes: -420, form: 'basic' },
  { minutes: 540, form: 'hours' },
];

/** The instant `t` written in local time at `minutes` east of UTC, milliseconds kept. */
export function withOffset(t: number, minutes: number, form: 'extended' | 'basic' | 'hours'): string {
  const local = new Date(t + minutes * 60_000).toISOString().slice(0, -1);
  const sign = minutes < 0 ? '-' : '+';
  const h = String(Math.floor(Math.abs(minutes) / 60)).padStart(2, '0');
  const m = String(Math.abs(minutes) % 60).padStart(2, '0');
  return `${local}${sign}${form === 'extended' ? `${h}:${m}` : form === 'basic' ? `${h}${m}` : h}`;
}

async function totalRecords(
  ctx: LawContext,
  query: Readonly<Record<string, string | number>>,
): Promise<number | 'refused' | undefined> {
  const res = await call(ctx, 'listActions', { auth: 'read', query });
  if (res.status === 400) return 'refused';
  const ok = expectConforming(ctx, 'listActions', res, { status: 200, statusRule: 'LIST-FROM-ISO-8601' });
  return num(obj(ok.parsed)['totalRecords']);
}

export const windowOffsets: Law = {
  id: 'parameters.window-offsets',
  group: 'parameters',
  title:
    'listActions: a from or to with a UTC offset (+05:30, -0700, +09) names the instant its UTC form names: the same totalRecords',
  ruleIds: ['LIST-WINDOW-OFFSET-SAME-INSTANT', 'LIST-FROM-ISO-8601'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const history = historyWindow(ctx);
      // Window edges on instants where actions are: one that moves by the offset's hours then counts
      // other actions (the edges at createdAt values of the organization's own data, so whatever the
      // data's density, an edge read hours off is likely to cross one).
      const instants = [
        ...new Set(
          (await sampleActions(ctx))
            .map((a) => Date.parse(str(a['createdAt']) ?? ''))
            .filter((t) => Number.isFinite(t)),
        ),
      ].slice(0, 3);
      let checks = 0;
      for (const t of instants) {
        for (const edge of ['to', 'from'] as const) {
          const base = { ...history, pageSize: 1 };
          const utc = await totalRecords(ctx, { ...base, [edge]: new Date(t).toISOString() });
          if (typeof utc !== 'number') continue;
          for (const { minutes, form } of OFFSETS) {
            const value = withOffset(t, minutes, form);
            const got = await totalRecords(ctx, { ...base, [edge]: value });
            checks++;
            if (got === 'refused')
              violate(
                'LIST-FROM-ISO-8601',
                `offset-refused:${form}`,
                `listActions refuses ${edge}=${value} (400), an ISO 8601 timestamp with a UTC offset (the instant ${new Date(t).toISOString()})`,
              );
            else if (got !== utc)
              violate(
                'LIST-WINDOW-OFFSET-SAME-INSTANT',
                `offset-instant:${edge}:${form}`,
                `listActions counts ${String(got)} records with ${edge}=${value} but ${utc} with ${edge}=${new Date(t).toISOString()}, the same instant`,
              );
          }
        }
      }
      return checks;
    }),
};
