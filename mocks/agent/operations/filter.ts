/**
 * The agent filter group (`{filterType: 'and', filters: [{filterType, operator: 'in', value}]}`) as
 * one row predicate, built on the REST filter language's own term compiler: a condition matches the
 * same actions as `fullFilter=<key>=<value>` for one of its values, so agent search and the REST list
 * can never disagree about what `status=OPEN` means. A status value is read in the names the
 * deployment's choices give (`actionStatuses`), as the REST filter reads it.
 */
import type { Choices } from '../../../src/contract/choice-points.ts';
import { compileFilter, type FilterKey, type RowPredicate } from '../../engine/records/filter-dsl.ts';
import type { OrgData } from '../../engine/records/state.ts';
import { statusNameIn } from '../choices.ts';
import type { ConditionType } from './vocabulary.ts';

export interface Condition {
  readonly filterType: ConditionType;
  readonly operator: 'in';
  readonly value: readonly string[];
}

export interface FilterGroup {
  readonly filterType: 'and';
  readonly filters: readonly Condition[];
}

/** Condition type → key of the REST filter language. */
const KEY: Readonly<Record<ConditionType, FilterKey>> = {
  source: 'platform',
  status: 'status',
  queue: 'queue',
  sentiment: 'sentiment',
  tag: 'tag',
  assignee: 'assignee',
  responded: 'responded',
};

/** The predicate of a validated filter group; null when it selects every action. */
export function compileGroup(
  org: OrgData,
  group: FilterGroup | undefined,
  choices: Choices,
): RowPredicate | null {
  if (group === undefined || group.filters.length === 0) return null;
  const conditions = group.filters.map((condition) => {
    const key = KEY[condition.filterType];
    const stored = (value: string): string => (key === 'status' ? statusNameIn(choices, value) : value);
    const alternatives = [...new Set(condition.value)].map((value) =>
      compileFilter(org, [{ key, value: stored(value) }]),
    );
    return (row: number): boolean => {
      for (const matches of alternatives) if (matches(row)) return true;
      return false;
    };
  });
  return (row) => {
    for (const holds of conditions) if (!holds(row)) return false;
    return true;
  };
}
