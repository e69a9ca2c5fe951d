/**
 * Shared reads of the parameter laws (suites/laws/parameters-*.ts): one analytics answer checked
 * against the contract, settled windows aligned on whole minutes, and the tags of the history.
 */
import fc from 'fast-check';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import { DAY_MS, settledAnchor } from './discover.ts';
import { QUERY_PARAMS_RULE } from './rule-map.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

const MINUTE_MS = 60_000;

export type Query = Readonly<Record<string, string | number | boolean>>;

/** One analytics read with valid parameters: 200 and the contract's shape, the parsed body back. */
export async function readAnalytics(
  ctx: LawContext,
  operationId: string,
  query: Query,
  path?: Readonly<Record<string, string>>,
  auth: 'read' | 'otherOrgRead' = 'read',
): Promise<Record<string, unknown>> {
  const res = await call(ctx, operationId, { auth, query, ...(path === undefined ? {} : { path }) });
  const ok = expectConforming(ctx, operationId, res, {
    status: 200,
    statusRule: QUERY_PARAMS_RULE[operationId] ?? 'ERR-STATUS-IN-DECLARED-SET',
    what: `${operationId} ${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`,
  });
  return obj(ok.parsed);
}

/** The tag-analytics `limit` a law asks for first when it wants whole breakdowns in few pages. */
const WIDE_TAG_LIMITS = [200, 100, 50, 20] as const;

/**
 * The widest tag-analytics page this target serves: the spec types `limit` as a number and shows
 * neither its default nor a maximum, so a deployment may bound it. Read once per run from the
 * target's own answers (a last-hour read with each limit until one is a 200); where none is, the
 * widest, so that the law asking for it reports what the target answered.
 */
export function wideTagLimit(ctx: LawContext): Promise<number> {
  return ctx.memo('sample:tag-limit', async () => {
    const to = settledAnchor(ctx);
    for (const limit of WIDE_TAG_LIMITS) {
      const res = await call(ctx, 'getTagAnalytics', {
        auth: 'read',
        query: { ...windowQuery({ from: to - 3_600_000, to }), limit },
      });
      if (res.status === 200) return limit;
      // Only a refusal of the input moves on to a smaller page; anything else is the law's to report.
      if (res.status !== 400 && res.status !== 422) break;
    }
    return WIDE_TAG_LIMITS[0];
  });
}

export interface Span {
  readonly from: number;
  readonly to: number;
}

export const isoOf = (t: number): string => new Date(t).toISOString();
export const windowQuery = (w: Span): { from: string; to: string } => ({
  from: isoOf(w.from),
  to: isoOf(w.to),
});
export const spanText = (w: Span): string => `${isoOf(w.from)}..${isoOf(w.to)}`;

/**
 * A settled window of the last `spanDays` (whole minutes, ending an hour ago) split at a whole
 * minute: `outer` = [from, to], `first` = [from, split - 1 ms], `second` = [split, to]. The halves share
 * no instant even on a deployment that truncates bounds to seconds.
 */
export function splitWindows(
  ctx: LawContext,
  spanDays: number,
): fc.Arbitrary<{ outer: Span; first: Span; second: Span }> {
  const anchor = settledAnchor(ctx) - (settledAnchor(ctx) % MINUTE_MS);
  const minutes = Math.floor((spanDays * DAY_MS) / MINUTE_MS);
  return fc
    .tuple(
      fc.integer({ min: 0, max: minutes }),
      fc.integer({ min: 0, max: minutes }),
      fc.double({ min: 0.05, max: 0.95, noNaN: true }),
    )
    .filter(([a, b]) => Math.abs(a - b) >= 2)
    .map(([a, b, p]) => {
      const from = anchor - Math.max(a, b) * MINUTE_MS;
      const to = anchor - Math.min(a, b) * MINUTE_MS;
      const steps = (to - from) / MINUTE_MS;
      const split = from + Math.max(1, Math.min(steps - 1, Math.round(steps * p))) * MINUTE_MS;
      return { outer: { from, to }, first: { from, to: split - 1 }, second: { from: split, to } };
    });
}

/**
 * The widest case `splitWindows` can generate (the whole span, split in the middle): the window most
 * likely to hold a whole breakdown, tried first so that a small `runs` does not leave it to chance.
 */
export function widestSplit(ctx: LawContext, spanDays: number): { outer: Span; first: Span; second: Span } {
  const anchor = settledAnchor(ctx) - (settledAnchor(ctx) % MINUTE_MS);
  const from = anchor - Math.floor((spanDays * DAY_MS) / MINUTE_MS) * MINUTE_MS;
  const split = from + Math.round((anchor - from) / MINUTE_MS / 2) * MINUTE_MS;
  return { outer: { from, to: anchor }, first: { from, to: split - 1 }, second: { from: split, to: anchor } };
}

export interface TagRow {
  readonly tagId: string;
  readonly tagName: string;
  readonly groupName: string | null;
}

/** The tags of the settled 90-day history (one wide page), from tag analytics, fetched once per run. */
export function historyTags(ctx: LawContext): Promise<readonly TagRow[]> {
  return ctx.memo('sample:tags', async () => {
    const body = await readAnalytics(ctx, 'getTagAnalytics', {
      ...windowQuery(historySpan(ctx)),
      limit: await wideTagLimit(ctx),
    });
    return arr(obj(body['data'])['tagBreakdown'])
      .map(obj)
      .flatMap((r) => {
        const tagId = str(r['tagId']);
        const tagName = str(r['tagName']);
        if (tagId === undefined || tagName === undefined) return [];
        return [{ tagId, tagName, groupName: str(r['groupName']) ?? null }];
      });
  });
}

/** The settled 90-day history window the tag sample comes from. */
export function historySpan(ctx: LawContext): Span {
  const anchor = settledAnchor(ctx);
  return { from: anchor - 90 * DAY_MS, to: anchor };
}
