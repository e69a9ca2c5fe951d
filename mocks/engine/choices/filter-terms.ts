/**
 * Choices `filterKeys` and `unknownFilterKey`: which DSL keys a deployment knows beyond the spec's
 * sample, and what an unknown one gets. Applied to `filter` (search) and `fullFilter` (list) before
 * the handler parses them; the status values of `actionStatuses` are translated here too.
 */

import type { Choices } from '../../../src/contract/choice-points.ts';
import { FILTER_KEYS } from '../records/filter-dsl.ts';
import { statusIn } from './action-statuses.ts';

/** The keys section 4.1 implies fullFilter can filter on ("legacy filters cannot filter by platform, queue or status"). */
export const SPEC_FILTER_KEYS: readonly string[] = ['platform', 'queue', 'status'];

/** The DSL parameter of each operation that takes one. */
export const DSL_PARAMETER: Readonly<Record<string, string>> = {
  listActions: 'fullFilter',
  searchConversations: 'filter',
};

/** A space decoded from `+` before `key=` separates terms, as in the mock's parser. */
const SPACE_BEFORE_KEY = / (?=[A-Za-z_][\w.]*=)/;

export type FilterShape =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly error: string };

/**
 * The filter text the handler sees, or the refusal of an unknown key. Terms the handler will refuse
 * anyway (no `=`, empty) are passed through unchanged.
 */
export function shapeFilterText(
  choices: Pick<Choices, 'filterKeys' | 'unknownFilterKey' | 'actionStatuses'>,
  parameter: string,
  text: string,
): FilterShape {
  const known = new Set<string>(choices.filterKeys === 'spec' ? SPEC_FILTER_KEYS : FILTER_KEYS);
  const kept: string[] = [];
  for (const raw of text.split('+').flatMap((part) => part.split(SPACE_BEFORE_KEY))) {
    const term = raw.trim();
    const eq = term.indexOf('=');
    const key = eq < 0 ? '' : term.slice(0, eq);
    if (eq > 0 && !known.has(key)) {
      if (choices.unknownFilterKey === 'ignore') continue;
      return {
        ok: false,
        error: `Malformed ${parameter}: unknown key '${key}' (known keys: ${[...known].join(', ')})`,
      };
    }
    kept.push(key === 'status' ? `status=${statusIn(choices, term.slice(eq + 1))}` : raw);
  }
  return { ok: true, text: kept.join('+') };
}
