import type { LawFailure, LawResult, RuleResult } from '../conformance/kit/outcome.ts';
import type { ConformanceReport, ProgressEvent } from '../conformance/kit/report.ts';
import { redactString } from './redact.ts';
import { shortenUrls } from './urls.ts';

export interface ConsoleReporterOptions {
  /** Where text goes (default: process.stderr for progress, the returned string for the summary). */
  readonly write?: (text: string) => void;
  /** Key values to redact from everything written. */
  readonly secrets?: readonly string[];
  /** Print one line per finished law (default true); otherwise one dot per law. */
  readonly verbose?: boolean;
}

const MARK: Record<LawResult['outcome']['kind'], string> = {
  passed: 'ok  ',
  failed: 'FAIL',
  'not-run': 'skip',
};

/** Does this failure fail the run (a must, or a should under --strict)? Otherwise it is a warning. */
function counts(f: LawFailure, strict: boolean): boolean {
  return f.level === 'must' || (strict && f.level === 'should');
}

function lawLine(result: LawResult): string {
  const mustFailed = result.failures.some((f) => !f.known && f.level === 'must');
  const mark = result.known
    ? 'KNWN'
    : result.outcome.kind === 'failed' && !mustFailed
      ? 'WARN'
      : MARK[result.outcome.kind];
  const detail =
    result.outcome.kind === 'passed'
      ? `${result.outcome.checks} checks`
      : result.outcome.kind === 'not-run'
        ? result.outcome.reason
        : result.failures.map((f) => `${f.ruleId} (${f.level}): ${f.message}`).join('; ');
  const blocked =
    result.blocked === undefined
      ? ''
      : ` [${result.blocked.ruleIds.length} rules not run: ${result.blocked.reason}]`;
  return `${mark} ${result.lawId} (${Math.round(result.durationMs)} ms, ${result.requests} req) ${detail}${blocked}`;
}

/** A progress printer for `runConformance({ onProgress })`. */
export function consoleProgress(options: ConsoleReporterOptions = {}): (event: ProgressEvent) => void {
  const write = options.write ?? ((t: string) => process.stderr.write(t));
  const secrets = options.secrets ?? [];
  const verbose = options.verbose ?? true;
  const out = (text: string): void => write(shortenUrls(redactString(text, secrets)));
  // A group left out for one reason (the agent interface absent) is one line, not one per law.
  const groupSkips = new Map<string, string>();
  return (event) => {
    if (event.type === 'start') {
      out(
        `cca-kit conform: ${event.total} laws against ${event.baseUrl} (run ${event.runId}, seed ${event.seed})\n`,
      );
    } else if (event.type === 'law-end') {
      const { result } = event;
      // So is a group the user left out (--skip agent, --only docs): the reason, once per group.
      const leftOut =
        result.outcome.kind === 'not-run' &&
        /^(?:not selected by --only|skipped by --skip) /.test(result.outcome.reason);
      if (result.outcome.kind === 'not-run' && (leftOut || / NOT CHECKED: /.test(result.outcome.reason))) {
        if (groupSkips.get(result.group) === result.outcome.reason) return;
        groupSkips.set(result.group, result.outcome.reason);
        out(`${verbose ? '' : '\n'}skip group ${result.group}: ${result.outcome.reason}\n`);
        return;
      }
      const prefix = `[${String(event.index + 1).padStart(String(event.total).length)}/${event.total}] `;
      if (verbose) out(`${prefix}${lawLine(result)}\n`);
      else
        write(
          result.outcome.kind === 'failed'
            ? result.known
              ? 'k'
              : 'F'
            : result.outcome.kind === 'passed'
              ? '.'
              : 's',
        );
    }
  };
}

function indent(text: string, by = '    '): string {
  return text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
}

function stringify(value: unknown): string {
  const text =
    JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v), 2) ?? 'undefined';
  return text.length > 4000 ? `${text.slice(0, 4000)}\n... (${text.length - 4000} more characters)` : text;
}

/** Reasons already said once (a group not checked) are referred to, not repeated per rule. */
function reasonsOf(rule: RuleResult, report: ConformanceReport): string {
  const said = report.groupsNotChecked.map((g) => g.reason);
  const reasons = rule.reasons.map((r) =>
    said.some((s) => r.endsWith(s)) ? `group ${rule.group} not checked (see above)` : r,
  );
  return [...new Set(reasons)].join('; ');
}

/** A rule not run only because the run's --only/--skip left every law of it out. */
function isLeftOut(rule: RuleResult): boolean {
  return (
    rule.status === 'not-run' &&
    rule.reasons.length > 0 &&
    rule.reasons.every((r) => /(?:^|: )(?:not selected by --only|skipped by --skip) /.test(r))
  );
}

function ruleLine(rule: RuleResult, report: ConformanceReport): string {
  const status = {
    passed: 'pass',
    failed: rule.level === 'must' || (report.strict && rule.level === 'should') ? 'FAIL' : 'WARN',
    'known-failure': 'known',
    'not-run': 'not run',
    'not-covered': 'not covered',
  }[rule.status];
  const why =
    rule.status === 'not-run' || rule.status === 'not-covered' ? ` (${reasonsOf(rule, report)})` : '';
  return `  ${status.padEnd(11)} ${rule.level.padEnd(9)} ${rule.ruleId.padEnd(28)} §${rule.section.padEnd(6)} ${rule.title}${why}`;
}

/** What the run covered: rules checked of the rules a live target can check. */
export function coverageLine(report: ConformanceReport): string {
  const { checked, checkable, minimum } = report.coverage;
  const percent = checkable === 0 ? 0 : Math.floor((checked / checkable) * 100);
  const min = minimum === undefined ? '' : `; --min-coverage ${minimum} %`;
  return `Coverage: ${checked} of ${checkable} rules checkable on a live target were checked (${percent} %${min})`;
}

/** The rules not run, by reason: a baseline never hides them. */
export function notRunLines(report: ConformanceReport): string[] {
  const total = report.notRun.reduce((n, g) => n + g.ruleIds.length, 0);
  if (total === 0) return [];
  const said = report.groupsNotChecked.map((g) => g.reason);
  return [
    `Not run: ${total} rules`,
    ...report.notRun.map((g) => {
      const reason = said.some((s) => g.reason.endsWith(s)) ? 'agent interface absent (see above)' : g.reason;
      const ids = g.ruleIds.length <= 6 ? g.ruleIds.join(', ') : `${g.ruleIds.slice(0, 6).join(', ')}, ...`;
      return `  ${String(g.ruleIds.length).padStart(4)}  ${reason} (${ids})`;
    }),
  ];
}

/** Records the run did not create that it wrote to, each restored or not: said at the end, never only in the log. */
export function existingWriteLines(report: ConformanceReport): string[] {
  if (report.existingWrites.length === 0) return [];
  const left = report.existingWrites.filter((w) => !w.restored).length;
  return [
    `Wrote to ${report.existingWrites.length} existing record${report.existingWrites.length === 1 ? '' : 's'}${left > 0 ? ` (${left} NOT restored)` : ''} (--no-custom-field-writes leaves them alone):`,
    ...report.existingWrites.map(
      (w) => `  ${w.restored ? 'restored' : 'NOT RESTORED'}  ${w.record}: ${w.fields.join(', ')}; ${w.note}`,
    ),
  ];
}

/** The last line: the verdict, and what kept it from a plain pass. */
export function resultLine(report: ConformanceReport): string {
  const warnings = report.summary.rules.warnings;
  const warned = warnings > 0 ? `; ${warnings} warning${warnings === 1 ? '' : 's'} (should rules)` : '';
  if (report.verdict === 'unreachable') {
    const ran = report.laws.filter((l) => l.outcome.kind !== 'not-run').length;
    return `RESULT: target stopped answering: ${report.stoppedAnswering ?? ''}; ${ran} of ${report.laws.length} laws ran, ${report.coverage.checked} rules checked before it, ${report.summary.rules.failed} failed`;
  }
  if (report.verdict === 'not-conformant')
    return `RESULT: NOT conformant (${report.summary.rules.failed} rule${report.summary.rules.failed === 1 ? '' : 's'} failed${warned})`;
  if (report.verdict === 'not-checked') {
    const why: string[] = [];
    if (report.missingKeys.length > 0)
      why.push(
        `laws could not run without ${report.missingKeys.join(', ')}; set them, --skip those laws, or pass --allow-not-run`,
      );
    for (const g of report.groupsNotChecked) why.push(`group ${g.group} not checked (see above)`);
    if (report.shortOfCoverage !== undefined) why.push(report.shortOfCoverage);
    return `RESULT: NOT CHECKED (no new failures, but ${why.join('; ')}${warned})`;
  }
  if (!report.allowWrites && report.writeRulesNotRun > 0)
    return `RESULT: conformant for reads; ${report.writeRulesNotRun} write rules not run (--allow-writes checks them)${warned}`;
  return `RESULT: conformant (no new failures${warned})`;
}

function failureBlock(law: LawResult, f: LawFailure, label: string): string[] {
  return [
    '',
    `${label} ${f.ruleId} (${f.level}, spec §${f.section}) in law ${law.lawId}`,
    `  ${f.message}`,
    '  counterexample:',
    indent(stringify(f.counterexample)),
    '  reproduce:',
    indent(f.repro),
    `  seed: ${f.seed}${f.path === undefined ? '' : `, path: ${f.path}`}  (cca-kit conform --seed ${f.seed} --only ${law.lawId})`,
    `  fingerprint: ${f.fingerprint}`,
  ];
}

/**
 * The end-of-run text: summary by group, failures in full (rule id, level, section, shrunk
 * counterexample, curl, seed), warnings apart, the rules catalog with pass / fail / not run and
 * why, then what was not run and the verdict. URLs longer than a line are shortened (whole in --json).
 */
export function renderConsoleReport(report: ConformanceReport, secrets: readonly string[] = []): string {
  const lines: string[] = [];
  const groups = new Map<string, LawResult[]>();
  for (const law of report.laws) groups.set(law.group, [...(groups.get(law.group) ?? []), law]);
  lines.push('', coverageLine(report));
  for (const g of report.groupsNotChecked) lines.push(`Not checked: ${g.reason}`);
  if (report.mcpRevisions !== undefined)
    lines.push(`Agent interface judged over MCP ${report.mcpRevisions.join(' and ')}`);
  lines.push('', 'Summary by group');
  for (const [group, laws] of groups) {
    const count = (k: string) => laws.filter((l) => l.outcome.kind === k && !l.known).length;
    const known = laws.filter((l) => l.known).length;
    lines.push(
      `  ${group.padEnd(12)} ${count('passed')} passed, ${count('failed')} failed${known ? `, ${known} known` : ''}, ${count('not-run')} not run`,
    );
  }
  const all = report.laws.flatMap((law) => law.failures.map((f) => ({ law, f })));
  const failing = all.filter(({ f }) => !f.known && counts(f, report.strict));
  const warnings = all.filter(({ f }) => !f.known && !counts(f, report.strict));
  const known = all.filter(({ f }) => f.known);
  if (failing.length > 0) lines.push('', 'Failures');
  for (const { law, f } of failing) lines.push(...failureBlock(law, f, 'FAIL'));
  if (warnings.length > 0)
    lines.push('', 'Warnings (should rules: a reading or a convention; --strict fails on them)');
  for (const { law, f } of warnings) lines.push(...failureBlock(law, f, 'WARN'));
  if (known.length > 0) lines.push('', 'Known failures (baseline)');
  for (const { law, f } of known) lines.push(...failureBlock(law, f, 'KNOWN'));
  lines.push('', 'Rules catalog');
  // Rules the user left out, and mock-only rules, are counted in one line each, not listed one by one:
  // a `--skip agent` run would otherwise print a line per agent rule.
  const leftOut = report.rules.filter(isLeftOut);
  const mockOnly = report.rules.filter((rule) => rule.status === 'not-covered' && rule.level === 'mock-only');
  for (const rule of report.rules)
    if (!leftOut.includes(rule) && !mockOnly.includes(rule)) lines.push(ruleLine(rule, report));
  if (leftOut.length > 0)
    lines.push(`  ${leftOut.length} rules left out by --only/--skip (listed under "Not run" below)`);
  if (mockOnly.length > 0)
    lines.push(
      `  ${mockOnly.length} mock-only rules: checked by the mock's own tests, not judged on a live target`,
    );
  const r = report.summary.rules;
  const l = report.summary.laws;
  lines.push(
    '',
    coverageLine(report),
    ...notRunLines(report),
    `Laws: ${l.passed} passed, ${l.failed} failed, ${l.knownFailures} known failures, ${l.notRun} not run`,
    `Rules: ${r.passed} passed, ${r.failed} failed, ${r.warnings} warnings, ${r.knownFailures} known failures, ${r.notRun} not run, ${r.notCovered} not covered`,
    `${report.checks} checks, ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s (run ${report.runId}, seed ${report.seed})`,
    ...existingWriteLines(report),
    resultLine(report),
  );
  return shortenUrls(redactString(lines.join('\n'), secrets));
}
