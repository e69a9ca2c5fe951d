/**
 * Serialised answers of the read operations whose answer depends only on rows and the catalog (the
 * action list, conversation search, tag analytics, tag volume, sentiment, engagement, agents and
 * queues), remembered per organization. Such an answer is the same for every
 * request with the same parameters whose window covers the same index range `[lo, hi)`, whatever the
 * clock says, until a row changes. With the default window ending "now", the range moves only when an
 * action enters or leaves it, so a repeated read costs a map lookup instead of a scan, a derivation
 * and a `JSON.stringify`: the bytes written are the very bytes built the first time.
 *
 * Invalidation: every change to a row's content goes through `rowChanged` (custom-field writes,
 * ingestion), which forgets every remembered answer of the organization as well as the row's record
 * texts. `admin.reset()` builds new organization data, so nothing survives it.
 *
 * Bounded by bytes per organization (oldest first out); an answer larger than a quarter of the budget
 * (a 500-item page of full conversations) is built every time instead.
 */
import { SerialisedJson } from '../types.ts';
import type { Window } from './dates.ts';
import { windowRange } from './query.ts';
import { forgetRow } from './serialised.ts';
import type { SortedIndex } from './sorted-index.ts';
import type { DataState, OrgData } from './state.ts';

/** Bytes of answers kept per organization. */
export const ANSWER_CACHE_BYTES = 16 * 1024 * 1024;

interface OrgAnswers {
  bytes: number;
  readonly entries: Map<string, SerialisedJson>;
  /** The catalog the answers were built from: agents and queues show it even with no rows at all. */
  catalog: OrgData['catalog'];
}

const answers = new WeakMap<OrgData, OrgAnswers>();
const utf8 = new TextEncoder();

function answersOf(org: OrgData): OrgAnswers {
  let cached = answers.get(org);
  if (cached === undefined) {
    cached = { bytes: 0, entries: new Map(), catalog: org.catalog };
    answers.set(org, cached);
  } else if (cached.catalog !== org.catalog) {
    // A data file replaced the catalog (it is never mutated in place).
    cached.entries.clear();
    cached.bytes = 0;
    cached.catalog = org.catalog;
  }
  return cached;
}

const sizeOf = (answer: SerialisedJson): number =>
  answer.chunks.reduce((total, chunk) => total + chunk.byteLength, 0);

/** Call whenever anything a row shows has changed: drops its record texts and every remembered answer. */
export function rowChanged(org: OrgData, row: number): void {
  forgetRow(org, row);
  const cached = answers.get(org);
  if (cached !== undefined) {
    cached.entries.clear();
    cached.bytes = 0;
  }
}

/** The part of a key that stands for a window: its index range, not its bounds. */
export function rangeKey(index: SortedIndex, window: Window): string {
  const { lo, hi } = windowRange(index, window);
  return `${lo}-${hi}`;
}

/**
 * The answer `build()` gives, serialised, remembered under `key` until a row of `org` changes. `build`
 * must depend on nothing the key does not name: not on a window's bounds (name its `rangeKey`), not
 * on the clock. It may return a `SerialisedJson` (joined once here) or any JSON value. With
 * `rememberAnswers` off (`--no-answer-cache`) it is simply `build()`: every read computes afresh.
 */
export function rememberedAnswer(
  data: DataState,
  org: OrgData,
  key: readonly (string | number | boolean | null)[],
  build: () => unknown,
): unknown {
  if (!data.rememberAnswers) return build();
  const cached = answersOf(org);
  const id = JSON.stringify(key);
  const hit = cached.entries.get(id);
  if (hit !== undefined) return hit;
  const value = build();
  const answer = new SerialisedJson([
    value instanceof SerialisedJson ? value.bytes() : utf8.encode(JSON.stringify(value)),
  ]);
  const size = sizeOf(answer);
  if (size > ANSWER_CACHE_BYTES / 4) return answer;
  for (const [oldest, entry] of cached.entries) {
    if (cached.bytes + size <= ANSWER_CACHE_BYTES) break;
    cached.entries.delete(oldest);
    cached.bytes -= sizeOf(entry);
  }
  cached.entries.set(id, answer);
  cached.bytes += size;
  return answer;
}
