/**
 * Serialised reports, remembered per organization. A report that depends only on the rows of its window
 * (not on the window's bounds) is the same for every request whose window covers the same index range
 * `[lo, hi)`, whatever the clock says, until a row changes. With the default window ending "now", the
 * range moves only when an action enters or leaves it, so repeated reads are a map lookup and a copy of
 * bytes instead of a scan and a `JSON.stringify`.
 *
 * Invalidation: every change to a row's content goes through `rowChanged` (custom-field writes,
 * ingestion), which forgets every remembered report of the organization. `admin.reset()` builds new
 * organization data, so nothing survives it.
 */
import { SerialisedJson } from '../types.ts';
import type { Window } from './dates.ts';
import { windowRange } from './query.ts';
import { forgetRow } from './serialised.ts';
import type { OrgData } from './state.ts';

/** Reports kept per organization (oldest first out): enough for a dashboard's worth of parameters. */
export const REPORT_CACHE_CAPACITY = 256;

const reports = new WeakMap<OrgData, Map<string, SerialisedJson>>();
const utf8 = new TextEncoder();

function reportsOf(org: OrgData): Map<string, SerialisedJson> {
  let cached = reports.get(org);
  if (cached === undefined) {
    cached = new Map();
    reports.set(org, cached);
  }
  return cached;
}

/** Call whenever anything a row shows has changed: drops its record texts and every remembered report. */
export function rowChanged(org: OrgData, row: number): void {
  forgetRow(org, row);
  reports.get(org)?.clear();
}

/**
 * The serialised `build()` for a report named `name` over the rows of `window` (by created time) with
 * `parameters`, built once per index range and parameters until a row changes. `build` must depend on nothing
 * else: not on the window's bounds, not on the clock.
 */
export function rememberedReport(
  org: OrgData,
  name: string,
  window: Window,
  parameters: readonly unknown[],
  build: () => unknown,
): SerialisedJson {
  const cached = reportsOf(org);
  const { lo, hi } = windowRange(org.byCreated, window);
  const key = JSON.stringify([name, lo, hi, ...parameters]);
  const hit = cached.get(key);
  if (hit !== undefined) return hit;
  const built = new SerialisedJson([utf8.encode(JSON.stringify(build()))]);
  if (cached.size >= REPORT_CACHE_CAPACITY) {
    const oldest = cached.keys().next();
    if (!oldest.done) cached.delete(oldest.value);
  }
  cached.set(key, built);
  return built;
}
