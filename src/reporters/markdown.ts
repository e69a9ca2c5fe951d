import type { LawFailure, LawResult } from '../conformance/kit/outcome.ts';
import type { ConformanceReport } from '../conformance/kit/report.ts';
import { coverageLine, resultLine } from './console.ts';
import { redactString } from './redact.ts';
import { shortenUrls } from './urls.ts';

/** A pull-request comment holds at most 65 536 characters; each failure's detail is kept short. */
const MAX_DETAIL = 1500;

const HEADLINE: Readonly<Record<ConformanceReport['verdict'], string>> = {
  conformant: 'conformant',
  'not-conformant': 'NOT conformant',
  'not-checked': 'NOT CHECKED',
  unreachable: 'target stopped answering',
};

function clip(text: string): string {
  return text.length > MAX_DETAIL
    ? `${text.slice(0, MAX_DETAIL)}\n... (${text.length - MAX_DETAIL} more characters; whole in --json)`
    : text;
}

/** Text safe inside a Markdown table cell or a summary line. */
function inline(text: string): string {
  return text.replace(/\s+/g, ' ').replaceAll('|', '\\|').replaceAll('<', '&lt;');
}

/** Fenced so that no backtick run inside can close the fence. */
function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text}\n${fence}`;
}

function failureItem(law: LawResult, f: LawFailure): string[] {
  return [
    `<details><summary><code>${f.ruleId}</code> (${f.level}, spec §${f.section}): ${inline(shortenUrls(f.message, 120))}</summary>`,
    '',
    `Law \`${law.lawId}\` · seed ${f.seed} · fingerprint \`${f.fingerprint}\``,
    '',
    fenced(clip(f.repro), 'sh'),
    '',
    `Reproduce: \`cca-kit conform --seed ${f.seed} --only ${law.lawId}\``,
    '',
    '</details>',
  ];
}

/**
 * A pull-request comment (`--markdown FILE`): the verdict first, the coverage, the failures that
 * fail the run, then the warnings (should rules) apart, known failures, and what was not run.
 *
 * @example
 * ```ts
 * await writeFile('conform.md', renderMarkdownReport(report, [process.env.CCA_READ_KEY ?? '']));
 * ```
 */
export function renderMarkdownReport(report: ConformanceReport, secrets: readonly string[] = []): string {
  const all = report.laws.flatMap((law) => law.failures.map((f) => ({ law, f })));
  const counts = (f: LawFailure): boolean => f.level === 'must' || (report.strict && f.level === 'should');
  const failing = all.filter(({ f }) => !f.known && counts(f));
  const warnings = all.filter(({ f }) => !f.known && !counts(f));
  const known = all.filter(({ f }) => f.known);
  const r = report.summary.rules;
  const lines: string[] = [
    `## cca-kit conform: ${HEADLINE[report.verdict]}`,
    '',
    `**${inline(resultLine(report).replace(/^RESULT: /, ''))}**`,
    '',
    `Target \`${report.baseUrl}\` · seed ${report.seed} · run \`${report.runId}\` · ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s${report.strict ? ' · --strict' : ''}`,
    '',
    coverageLine(report),
    '',
    '| passed | failed | warnings | known | not run | not covered |',
    '|---:|---:|---:|---:|---:|---:|',
    `| ${r.passed} | ${r.failed} | ${r.warnings} | ${r.knownFailures} | ${r.notRun} | ${r.notCovered} |`,
  ];
  for (const g of report.groupsNotChecked) lines.push('', `> **Not checked:** ${inline(g.reason)}`);
  if (failing.length > 0) {
    lines.push('', `### Failures (${failing.length})`, '');
    for (const { law, f } of failing) lines.push(...failureItem(law, f));
  }
  if (warnings.length > 0) {
    lines.push(
      '',
      `### Warnings (${warnings.length}): should rules, a reading or a convention; they fail only under --strict`,
      '',
    );
    for (const { law, f } of warnings) lines.push(...failureItem(law, f));
  }
  if (known.length > 0) {
    lines.push('', `### Known failures (baseline, ${known.length})`, '');
    for (const { law, f } of known)
      lines.push(
        `- \`${f.ruleId}\` (${f.level}) in \`${law.lawId}\`: ${inline(shortenUrls(f.message, 120))}`,
      );
  }
  if (report.notRun.length > 0) {
    const total = report.notRun.reduce((n, g) => n + g.ruleIds.length, 0);
    lines.push('', `### Not run (${total} rules)`, '');
    for (const g of report.notRun)
      lines.push(
        `- ${g.ruleIds.length}: ${inline(g.reason)} (${g.ruleIds.map((id) => `\`${id}\``).join(', ')})`,
      );
  }
  lines.push('');
  return redactString(lines.join('\n'), secrets);
}
