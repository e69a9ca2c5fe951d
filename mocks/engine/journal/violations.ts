/** The violation log's records as the journal shows them: one line per issue, with its rule and hint. */
import type { Violation } from '../violations/index.ts';
import type { JournalViolation } from './types.ts';

export function violationsOf(violations: readonly Violation[]): JournalViolation[] {
  const out: JournalViolation[] = [];
  for (const violation of violations) {
    for (const issue of violation.issues) {
      out.push({
        kind: violation.kind,
        severity: violation.severity,
        rule: issue.rule,
        keyword: issue.keyword,
        field: issue.field,
        message: issue.message,
        hint: issue.hint ?? null,
      });
    }
  }
  return out;
}
