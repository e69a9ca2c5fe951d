/**
 * The violation log's records as the journal shows them: one line per issue, with the rule and the
 * hint when the log names them. Read structurally, so the journal follows what the log records
 * without restating its types.
 */
import type { Violation } from '../violations/index.ts';
import type { JournalViolation } from './types.ts';

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The field `name` of a record, when it is a non-empty string. */
const field = (record: object, name: string): string | null =>
  text((record as Record<string, unknown>)[name]);

export function violationsOf(violations: readonly Violation[]): JournalViolation[] {
  const out: JournalViolation[] = [];
  for (const violation of violations) {
    for (const issue of violation.issues) {
      out.push({
        kind: violation.kind,
        rule: field(issue, 'rule') ?? field(violation, 'rule'),
        keyword: issue.keyword,
        field: issue.field,
        message: issue.message,
        hint: field(issue, 'hint') ?? field(violation, 'hint'),
      });
    }
  }
  return out;
}
