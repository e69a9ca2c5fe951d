import type { ConformanceReport } from '../conformance/kit/report.ts';
import { redactDeep } from './redact.ts';

/** The JSON report (`--json FILE`): the whole report, bigints as strings, keys redacted. */
export function renderJsonReport(report: ConformanceReport, secrets: readonly string[] = []): string {
  const safe = JSON.parse(
    JSON.stringify(report, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
  ) as ConformanceReport;
  return `${JSON.stringify(redactDeep(safe, secrets), null, 2)}\n`;
}
