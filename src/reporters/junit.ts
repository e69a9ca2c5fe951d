import type { ConformanceReport } from '../conformance/kit/report.ts';
import { redactString } from './redact.ts';

/** Drops the control characters XML 1.0 forbids (tab, newline and carriage return stay). */
function stripControl(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code >= 0x20 || code === 0x09 || code === 0x0a || code === 0x0d) out += ch;
  }
  return out;
}

/** Text safe inside XML 1.0 content and attribute values. */
export function escapeXml(text: string): string {
  return stripControl(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/**
 * JUnit XML (`--junit FILE`): one testsuite, one testcase per rule of the catalog, its classname the
 * group of the law that checks it and its time the share of that law's time. The name carries the
 * rule's level. Failures of `must` rules (and of `should` rules under `--strict`) carry the message
 * and the repro; a `should` failure is reported as skipped with a WARNING message (it does not fail
 * the run); not-run and not-covered rules are skipped with the reason; known failures (baseline) are
 * skipped so CI stays green on them. A run that checked less than asked adds a failing testcase.
 */
export function renderJunitReport(report: ConformanceReport, secrets: readonly string[] = []): string {
  // Redact before escaping: a key containing `&` or `<` must still match.
  const xml = (text: string): string => escapeXml(redactString(text, secrets));
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const rule of report.rules) {
    const name = xml(`${rule.ruleId} (${rule.level}) ${rule.title}`);
    const time = (rule.durationMs / 1000).toFixed(3);
    const head = `    <testcase classname="cca-conform.${xml(rule.group)}" name="${name}" time="${time}">`;
    const counts = rule.level === 'must' || (report.strict && rule.level === 'should');
    const f = rule.failures.find((x) => !x.known) ?? rule.failures[0];
    if (rule.status === 'failed' && counts) {
      failures += 1;
      const body = f ? `${f.message}\n\nseed ${f.seed}\n\n${f.repro}` : 'failed';
      cases.push(
        `${head}\n      <failure message="${xml(f?.message ?? 'failed')}">${xml(body)}</failure>\n    </testcase>`,
      );
    } else if (rule.status === 'passed') {
      cases.push(`${head}</testcase>`);
    } else {
      skipped += 1;
      const reason =
        rule.status === 'failed'
          ? `WARNING (${rule.level} rule, does not fail the run without --strict): ${f?.message ?? ''}`
          : rule.status === 'known-failure'
            ? `known failure (baseline): ${f?.message ?? ''}`
            : rule.reasons.join('; ') || rule.status;
      const out = rule.status === 'failed' && f ? `\n      <system-out>${xml(f.repro)}</system-out>` : '';
      cases.push(`${head}\n      <skipped message="${xml(reason)}"/>${out}\n    </testcase>`);
    }
  }
  // A run that could not check what it was asked to is a failure for a CI that reads only JUnit.
  const runFailures: [string, string][] = [];
  const unchecked = report.verdict === 'not-checked' || report.verdict === 'unreachable';
  if (unchecked && report.missingKeys.length > 0)
    runFailures.push([
      'required keys present',
      `NOT CHECKED: laws could not run without ${report.missingKeys.join(', ')}`,
    ]);
  if (unchecked)
    for (const g of report.groupsNotChecked) runFailures.push([`group ${g.group} checked`, g.reason]);
  if (report.shortOfCoverage !== undefined)
    runFailures.push(['minimum coverage', `NOT CHECKED: ${report.shortOfCoverage}`]);
  if (report.stoppedAnswering !== undefined) runFailures.push(['target answering', report.stoppedAnswering]);
  for (const [name, message] of runFailures) {
    failures += 1;
    cases.push(
      `    <testcase classname="cca-conform.run" name="${xml(name)}" time="0">\n      <failure message="${xml(message)}">${xml(message)}</failure>\n    </testcase>`,
    );
  }
  const tests = cases.length;
  const coverage = `${report.coverage.checked}/${report.coverage.checkable}`;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cca-kit conform" tests="${tests}" failures="${failures}" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="cca-conform rules (seed ${report.seed}, run ${xml(report.runId)})" tests="${tests}" failures="${failures}" skipped="${skipped}" errors="0" timestamp="${xml(report.startedAt)}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `    <properties><property name="verdict" value="${report.verdict}"/><property name="coverage" value="${coverage}"/><property name="strict" value="${report.strict}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ];
  return redactString(out.join('\n'), secrets);
}
