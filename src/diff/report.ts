/** Diff reports (console, JSON, JUnit) and the baseline: known differences that do not fail a run. */
import { readFile } from 'node:fs/promises';
import { escapeXml } from '../reporters/junit.ts';
import { redactDeep, redactString } from '../reporters/redact.ts';
import type { Difference, DiffRun } from './run.ts';

export interface DiffReport extends DiffRun {
  readonly mock: string;
  readonly live: string;
  /** Differences whose key is not in the baseline: these fail the run. */
  readonly newDifferences: readonly Difference[];
  readonly exitCode: 0 | 1;
}

export function buildDiffReport(
  run: DiffRun,
  mock: string,
  live: string,
  baseline: ReadonlySet<string>,
): DiffReport {
  const newDifferences = run.differences.filter((d) => !baseline.has(d.key));
  return { ...run, mock, live, newDifferences, exitCode: newDifferences.length > 0 ? 1 : 0 };
}

/** A baseline file: `{"known": [keys]}`; a missing file is an empty baseline, a bad one an error naming it. */
export async function readBaseline(path: string): Promise<Set<string>> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return new Set();
    throw new Error(`baseline ${path}: ${(cause as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (cause) {
    throw new Error(`baseline ${path}: not JSON (${(cause as Error).message})`);
  }
  const known =
    typeof parsed === 'object' && parsed !== null ? (parsed as { known?: unknown }).known : undefined;
  if (!Array.isArray(known) || !known.every((k) => typeof k === 'string'))
    throw new Error(`baseline ${path}: expected {"known": ["<difference key>", ...]}`);
  return new Set(known);
}

export function renderBaseline(report: DiffReport): string {
  return `${JSON.stringify({ known: [...new Set(report.differences.map((d) => d.key))].sort() }, null, 2)}\n`;
}

export function renderDiffConsole(report: DiffReport): string {
  const out = [
    `cca-kit diff: mock ${report.mock} against live ${report.live}, seed ${report.seed}, ${report.requests} read request(s)`,
  ];
  const known = report.differences.length - report.newDifferences.length;
  for (const d of report.differences) {
    const mark = report.newDifferences.includes(d) ? '' : ' (baseline)';
    out.push(`  ${d.kind.padEnd(22)} ${d.operationId} ${d.where}: ${d.detail}${mark}`, `      ${d.request}`);
  }
  for (const s of report.skipped) out.push(`  not requested: ${s}`);
  if (report.writes.allowed)
    out.push(
      `  writes: ${report.writes.sent} sent to each side, external ids start ${report.writes.prefix ?? ''}`,
    );
  else out.push('  writes: none (reads only; --allow-writes to send seeded writes)');
  for (const s of report.writes.notSent) out.push(`  not sent: ${s}`);
  out.push(
    '',
    `${report.differences.length} difference(s), ${known} in the baseline; exit ${report.exitCode}`,
    '',
  );
  return out.join('\n');
}

export function renderDiffJson(report: DiffReport, secrets: readonly string[]): string {
  return `${JSON.stringify(redactDeep(report, secrets), null, 2)}\n`;
}

/** One testcase per operation requested: failed when it shows a difference not in the baseline. */
export function renderDiffJunit(report: DiffReport, secrets: readonly string[]): string {
  const operations = [...new Set(report.differences.map((d) => d.operationId))].sort();
  const cases: string[] = [];
  let failures = 0;
  const clean = report.requests > 0 ? ['all requested operations'] : [];
  for (const op of operations) {
    const found = report.newDifferences.filter((d) => d.operationId === op);
    const text = report.differences
      .filter((d) => d.operationId === op)
      .map((d) => `${d.kind} ${d.where}: ${d.detail}\n  ${d.request}`)
      .join('\n');
    const head = `    <testcase classname="cca-diff" name="${escapeXml(op)}" time="0">`;
    if (found.length > 0) {
      failures += 1;
      cases.push(
        `${head}\n      <failure message="${escapeXml(`${found.length} new difference(s)`)}">${escapeXml(text)}</failure>\n    </testcase>`,
      );
    } else cases.push(`${head}\n      <system-out>${escapeXml(text)}</system-out>\n    </testcase>`);
  }
  if (operations.length === 0)
    for (const name of clean)
      cases.push(`    <testcase classname="cca-diff" name="${name}" time="0"></testcase>`);
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cca-kit diff" tests="${cases.length}" failures="${failures}">`,
    `  <testsuite name="${escapeXml(`cca-diff seed ${report.seed}`)}" tests="${cases.length}" failures="${failures}" skipped="0" errors="0">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
  return redactString(xml, secrets);
}
