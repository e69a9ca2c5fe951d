import type { ConformanceReport } from '../conformance/report.ts';
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
 * JUnit XML (`--junit FILE`): one testsuite, one testcase per rule of the catalog. Failures carry
 * the message and the repro; not-run and not-covered rules are skipped with the reason; known
 * failures (baseline) are reported as skipped so CI stays green on them.
 */
export function renderJunitReport(report: ConformanceReport, secrets: readonly string[] = []): string {
  // Redact before escaping: a key containing `&` or `<` must still match.
  const xml = (text: string): string => escapeXml(redactString(text, secrets));
  const cases: string[] = [];
  let failures = 0;
  let skipped = 0;
  for (const rule of report.rules) {
    const name = xml(`${rule.ruleId} ${rule.title}`);
    const head = `    <testcase classname="cca-conform.${xml(rule.kind)}" name="${name}" time="0">`;
    if (rule.status === 'failed') {
      failures += 1;
      const f = rule.failures[0];
      const body = f ? `${f.message}\n\nseed ${f.seed}\n\n${f.repro}` : 'failed';
      cases.push(
        `${head}\n      <failure message="${xml(f?.message ?? 'failed')}">${xml(body)}</failure>\n    </testcase>`,
      );
    } else if (rule.status === 'passed') {
      cases.push(`${head}</testcase>`);
    } else {
      skipped += 1;
      const reason =
        rule.status === 'known-failure'
          ? `known failure (baseline): ${rule.failures[0]?.message ?? ''}`
          : rule.reasons.join('; ') || rule.status;
      cases.push(`${head}\n      <skipped message="${xml(reason)}"/>\n    </testcase>`);
    }
  }
  // A run that could not check what it was asked to is a failure for a CI that reads only JUnit.
  if (report.verdict === 'not-checked') {
    failures += 1;
    const message = `NOT CHECKED: laws could not run without ${report.missingKeys.join(', ')}`;
    cases.push(
      `    <testcase classname="cca-conform.run" name="required keys present" time="0">\n      <failure message="${xml(message)}">${xml(message)}</failure>\n    </testcase>`,
    );
  }
  const tests = cases.length;
  const coverage = `${report.coverage.checked}/${report.coverage.checkable}`;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cca-kit conform" tests="${tests}" failures="${failures}" skipped="${skipped}" time="${(report.durationMs / 1000).toFixed(3)}">`,
    `  <testsuite name="cca-conform rules (seed ${report.seed}, run ${xml(report.runId)})" tests="${tests}" failures="${failures}" skipped="${skipped}" errors="0" timestamp="${xml(report.startedAt)}">`,
    `    <properties><property name="verdict" value="${report.verdict}"/><property name="coverage" value="${coverage}"/></properties>`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ];
  return redactString(out.join('\n'), secrets);
}
