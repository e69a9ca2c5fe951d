/** Drift reports: console (grouped by operation), Markdown (a pull-request comment), JSON and JUnit. */
import { escapeXml } from '../reporters/junit.ts';
import type { DocumentResult } from './document.ts';
import { byOperation, type DriftReport, failsRun } from './report.ts';
import { DRIFT_CHECKS } from './table.ts';

const LEVEL_MARK = { breaking: 'BREAKING', additive: 'additive', info: 'info' } as const;

function summaryLine(report: DriftReport): string {
  const { breaking, additive, info } = report.counts;
  return `${breaking} breaking, ${additive} additive, ${info} documentation-only change(s)`;
}

function uncoveredLines(report: DriftReport): string[] {
  const { operations, properties, parameters } = report.uncovered;
  return [
    ...operations.map((o) => `operation ${o}`),
    ...parameters.map((p) => `parameter ${p}`),
    ...properties.map((p) => `property ${p}`),
  ];
}

export function renderDriftConsole(
  report: DriftReport,
  options: { readonly showInfo?: boolean } = {},
): string {
  const out: string[] = [
    `cca-kit drift: ${report.base.source} (OpenAPI ${report.base.version}) -> ${report.live.source} (OpenAPI ${report.live.version})`,
  ];
  const shown = report.findings.filter((f) => options.showInfo === true || f.level !== 'info');
  for (const [operation, findings] of byOperation(shown)) {
    out.push('', operation);
    for (const f of findings)
      out.push(`  ${LEVEL_MARK[f.level].padEnd(8)}  ${f.checkId}  ${f.location}: ${f.detail}`);
  }
  const missing = uncoveredLines(report);
  if (missing.length > 0) {
    out.push('', 'Live but not in the contract (the mock does not serve it, the suite does not check it):');
    for (const line of missing) out.push(`  ${line}`);
  }
  out.push(
    '',
    `${summaryLine(report)}; verdict ${report.verdict}, exit ${report.exitCode} (--fail-on ${report.failOn})`,
    '',
  );
  return out.join('\n');
}

const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ').replaceAll('`', "'");

export function renderDriftMarkdown(report: DriftReport): string {
  const head =
    report.verdict === 'breaking'
      ? '### :x: API drift: breaking changes'
      : report.verdict === 'additive'
        ? '### :warning: API drift: additive changes'
        : '### :white_check_mark: API drift: none';
  const out: string[] = [
    head,
    '',
    `Contract \`${cell(report.base.source)}\` against live \`${cell(report.live.source)}\`: ${summaryLine(report)}.`,
  ];
  const shown = report.findings.filter((f) => f.level !== 'info');
  if (shown.length > 0) {
    out.push('', '| level | operation | check | where | change |', '|---|---|---|---|---|');
    for (const [operation, findings] of byOperation(shown))
      for (const f of findings)
        out.push(
          `| ${f.level === 'breaking' ? '**breaking**' : f.level} | \`${cell(operation)}\` | \`${f.checkId}\` | ${cell(f.location)} | ${cell(f.detail)} |`,
        );
  }
  const missing = uncoveredLines(report);
  if (missing.length > 0) {
    out.push(
      '',
      '<details><summary>Live but not in the contract: the mock does not serve these, the suite does not check them</summary>',
      '',
    );
    for (const line of missing) out.push(`- ${cell(line)}`);
    out.push('', '</details>');
  }
  out.push(
    '',
    `<sub>cca-kit drift, --fail-on ${report.failOn}: exit ${report.exitCode}. Levels: docs/drift.md.</sub>`,
    '',
  );
  return out.join('\n');
}

export function renderDriftJson(report: DriftReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

/** One testcase per check of the table: failed when a finding of it fails the run, its findings listed. */
export function renderDriftJunit(report: DriftReport): string {
  const cases: string[] = [];
  let failures = 0;
  for (const check of DRIFT_CHECKS) {
    const found = report.findings.filter((f) => f.checkId === check.id);
    const lines = found.map((f) => `${f.operation} ${f.location}: ${f.detail}`).join('\n');
    const head = `    <testcase classname="cca-drift.${check.level}" name="${escapeXml(`${check.id} ${check.title}`)}" time="0">`;
    if (found.some((f) => failsRun(f, report.failOn))) {
      failures += 1;
      const message = `${found.length} change(s): ${check.title}`;
      cases.push(
        `${head}\n      <failure message="${escapeXml(message)}">${escapeXml(lines)}</failure>\n    </testcase>`,
      );
    } else if (found.length > 0) {
      cases.push(`${head}\n      <system-out>${escapeXml(lines)}</system-out>\n    </testcase>`);
    } else cases.push(`${head}</testcase>`);
  }
  return junitDocument(cases, failures, `${report.base.source} -> ${report.live.source}`);
}

/** The JUnit file of a run that could not compare: one failed testcase naming the unreadable document. */
export function renderDriftJunitUnreadable(problem: Extract<DocumentResult, { ok: false }>): string {
  const head = `    <testcase classname="cca-drift.document" name="${escapeXml(`document readable: ${problem.source}`)}" time="0">`;
  return junitDocument(
    [
      `${head}\n      <failure message="${escapeXml(problem.problem)}">${escapeXml(problem.message)}</failure>\n    </testcase>`,
    ],
    1,
    problem.source,
  );
}

function junitDocument(cases: readonly string[], failures: number, name: string): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cca-kit drift" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="${escapeXml(`cca-drift ${name}`)}" tests="${cases.length}" failures="${failures}" skipped="0" errors="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
