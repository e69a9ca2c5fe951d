/**
 * The filter language of conversation search (`filter`) and of the action list (`fullFilter`).
 * The spec shows only `key=value` terms joined by `+`, all of which must hold. After URL decoding a
 * literal `+` arrives as a space, so a space also separates terms when `<knownKey>=` follows it;
 * any other space belongs to the value (`sentiment=Very Negative`).
 *
 * Keys (case-sensitive) and values are listed in docs/data.md. Values compare exactly (ids are
 * strings); `null` selects "none" for queue, assignee, assigneeUserId and sentiment.
 */
import { PLATFORM_INFO } from '../../../fixtures/generate/catalog.ts';
import { customerIdOf } from '../../../fixtures/generate/ids.ts';
import { FLAG_INGESTED, FLAG_PUBLIC, NULL_INDEX } from '../../../fixtures/generate/table.ts';
import { PLATFORMS, SENTIMENTS, STATUSES } from '../../../fixtures/generate/types.ts';
import type { Parsed } from './dates.ts';
import type { OrgData } from './state.ts';

export const FILTER_KEYS = [
  'platform',
  'status',
  'queue',
  'sentiment',
  'assignee',
  'assigneeUserId',
  'tag',
  'tagGroup',
  'closingTag',
  'responded',
  'recordType',
  'isPublicPost',
  'userId',
  'serverName',
  'channelName',
] as const;
export type FilterKey = (typeof FILTER_KEYS)[number];

export interface FilterTerm {
  readonly key: FilterKey;
  readonly value: string;
}

const KNOWN = new Set<string>(FILTER_KEYS);
const BOOLEAN_KEYS = new Set<string>(['responded', 'isPublicPost']);
const SPACE_BEFORE_KEY = new RegExp(` (?=(?:${FILTER_KEYS.join('|')})=)`);

/**
 * Parses filter text into terms. An empty or blank text is no filter (every action matches).
 *
 * @example
 * parseFilter('platform=DISCORD+sentiment=Very Negative'); // two terms
 * parseFilter('platform=DISCORD sentiment=Negative');      // '+' decoded to a space: two terms
 */
export function parseFilter(text: string, parameter = 'filter'): Parsed<FilterTerm[]> {
  if (text.trim() === '') return { ok: true, value: [] };
  const terms: FilterTerm[] = [];
  for (const plusPart of text.split('+')) {
    for (const raw of plusPart.split(SPACE_BEFORE_KEY)) {
      const term = raw.trim();
      const fail = (why: string): Parsed<FilterTerm[]> => ({
        ok: false,
        error: `Malformed ${parameter}: ${why} (term '${term}'); expected key=value terms joined by '+'`,
      });
      if (term === '') return fail('empty term');
      const eq = term.indexOf('=');
      if (eq < 0) return fail("term without '='");
      const key = term.slice(0, eq);
      const value = term.slice(eq + 1);
      if (!KNOWN.has(key)) return fail(`unknown key '${key}' (known keys: ${FILTER_KEYS.join(', ')})`);
      if (value === '') return fail(`empty value for '${key}'`);
      if (BOOLEAN_KEYS.has(key) && value !== 'true' && value !== 'false')
        return fail(`'${key}' takes true or false`);
      terms.push({ key: key as FilterKey, value });
    }
  }
  return { ok: true, value: terms };
}

export type RowPredicate = (row: number) => boolean;

/** Compiles terms into one row predicate over an organization's store (all terms must hold). */
export function compileFilter(org: OrgData, terms: readonly FilterTerm[]): RowPredicate {
  const predicates = terms.map((term) => compileTerm(org, term));
  if (predicates.length === 0) return () => true;
  return (row) => {
    for (const p of predicates) if (!p(row)) return false;
    return true;
  };
}

function indexSet<T>(items: readonly T[], match: (item: T) => boolean): Set<number> {
  const out = new Set<number>();
  items.forEach((item, i) => {
    if (match(item)) out.add(i);
  });
  return out;
}

function compileTerm(org: OrgData, { key, value }: FilterTerm): RowPredicate {
  const t = org.table;
  const { catalog } = org;
  switch (key) {
    case 'platform': {
      const p = PLATFORMS.indexOf(value as (typeof PLATFORMS)[number]);
      return (row) => p >= 0 && t.platform[row] === p;
    }
    case 'status': {
      const s = STATUSES.indexOf(value as (typeof STATUSES)[number]);
      return (row) => s >= 0 && t.status[row] === s;
    }
    case 'queue': {
      if (value === 'null') return (row) => t.queue[row] === NULL_INDEX;
      const queues = indexSet(catalog.queues, (q) => q.name === value || q.id === value);
      return (row) => queues.has(t.queue[row] ?? NULL_INDEX);
    }
    case 'sentiment': {
      const s = value === 'null' ? NULL_INDEX : SENTIMENTS.indexOf(value as (typeof SENTIMENTS)[number]);
      return (row) => (value === 'null' || s >= 0) && t.sentiment[row] === s;
    }
    case 'assignee':
    case 'assigneeUserId': {
      if (value === 'null') return (row) => t.assignee[row] === NULL_INDEX;
      const agents = indexSet(
        catalog.agents,
        (a) => a.userId === value || (key === 'assignee' && (a.name === value || a.email === value)),
      );
      return (row) => agents.has(t.assignee[row] ?? NULL_INDEX);
    }
    case 'tag':
    case 'tagGroup':
    case 'closingTag': {
      const closing = key === 'closingTag';
      const list = closing ? catalog.closingTags : catalog.tags;
      const tags = indexSet(list, (tag) =>
        key === 'tagGroup' ? tag.group === value : tag.value === value || tag.id === value,
      );
      return (row) => t.tagsOf(row, closing).some((k) => tags.has(k));
    }
    case 'responded': {
      const want = value === 'true';
      return (row) => t.responded(row) === want;
    }
    case 'isPublicPost': {
      const want = value === 'true';
      return (row) => t.hasFlag(row, FLAG_PUBLIC) === want;
    }
    case 'recordType': {
      const r = org.recordTypeIndex.get(value);
      return (row) => r !== undefined && t.recordType[row] === r;
    }
    case 'userId':
      return (row) => {
        const ingested = t.hasFlag(row, FLAG_INGESTED) ? org.ingested.get(row) : undefined;
        if (ingested !== undefined) return ingested.user.userId === value;
        const platform = PLATFORMS[t.platform[row] ?? 0] ?? 'DISCORD';
        return customerIdOf(platform, t.customer[row] ?? 0) === value;
      };
    case 'serverName': {
      const platforms = indexSet(PLATFORMS, (p) => PLATFORM_INFO[p].server(catalog.brand) === value);
      return (row) => {
        const ingested = t.hasFlag(row, FLAG_INGESTED) ? org.ingested.get(row) : undefined;
        if (ingested !== undefined) return ingested.serverName === value;
        return platforms.has(t.platform[row] ?? 0);
      };
    }
    case 'channelName':
      return (row) => {
        const ingested = t.hasFlag(row, FLAG_INGESTED) ? org.ingested.get(row) : undefined;
        if (ingested !== undefined) return (ingested.channelName ?? '') === value;
        const platform = PLATFORMS[t.platform[row] ?? 0] ?? 'DISCORD';
        return PLATFORM_INFO[platform].channels[t.channel[row] ?? 0] === value;
      };
  }
}
