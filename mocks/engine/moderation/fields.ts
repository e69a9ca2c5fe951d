/**
 * From contract validation issues to the moderation error's field lists (spec 2.7, section 7).
 *
 * A `required` issue names a missing field (→ `missingFields`); every other issue names a present
 * but invalid value (→ `invalidFields`). Paths are the validation layer's human paths, relative to
 * the submission: `media[0].url`, `targeting.geos`, `copy.body`; the submission itself is `(root)`.
 */

/** The part of a validation issue (`ValidationIssue` of `src/contract`) this module reads. */
export interface SchemaIssue {
  /** Human path of the offending value, a missing key included (`media[0].url`). */
  readonly field: string;
  readonly keyword: string;
  /** A sentence naming the field and what was expected. */
  readonly message?: string | undefined;
}

export interface FieldLists {
  readonly missingFields: readonly string[];
  readonly invalidFields: readonly string[];
  /** One line per issue: the validator's message. */
  readonly errors: readonly string[];
}

export const ROOT_FIELD = '(root)';

/**
 * Sorts issues into missing and invalid field paths, each listed once, in the order first seen.
 *
 * @example
 * fieldLists([{ field: 'media[0].url', keyword: 'required', message: 'body field media[0].url is required' }])
 * // { missingFields: ['media[0].url'], invalidFields: [], errors: ['body field media[0].url is required'] }
 */
export function fieldLists(issues: readonly SchemaIssue[]): FieldLists {
  const missing = new Set<string>();
  const invalid = new Set<string>();
  const errors = new Set<string>();
  for (const issue of issues) {
    const field = issue.field === '' ? ROOT_FIELD : issue.field;
    if (issue.keyword === 'required') missing.add(field);
    else invalid.add(field);
    errors.add(issue.message ?? `${field} fails ${issue.keyword}`);
  }
  return { missingFields: [...missing], invalidFields: [...invalid], errors: [...errors] };
}
