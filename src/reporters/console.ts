import type { LawResult, RuleResult } from '../conformance/outcome.ts';
import type { ConformanceReport, ProgressEvent } from '../conformance/report.ts';
import { redactString } from './redact.ts';

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

function lawLine(result: LawResult): string {
  const mark = result.known ? 'KNWN' : MARK[result.outcome.kind];
  const detail =
    result.outcome.kind === 'passed'
      ? `${result.outcome.checks} checks`
      : result.outcome.kind === 'failed'
        ? `${result.outcome.ruleId}: ${result.outcome.message}`
        : result.outcome.reason;
  return `${mark} ${result.lawId} (${Math.round(result.durationMs)} ms, ${result.requests} req) ${detail}`;
}

/** A progress printer for `runConformance({ onProgress })`. */
export function consoleProgress(options: ConsoleReporterOptions = {}): (event: ProgressEvent) => void {
  const write = options.write ?? ((t: string) => process.stderr.write(t));
  const secrets = options.secrets ?? [];
  const verbose = options.verbose ?? true;
  return (event) => {
    if (event.type === 'start') {
      write(
        redactString(
          `cca-kit conform: ${event.total} laws against ${event.baseUrl} (run ${event.runId}, seed ${event.seed})\n`,
          secrets,
        ),
      );
    } else if (event.type === 'law-end') {
      const prefix = `[${String(event.index + 1).padStart(String(event.total).length)}/${event.total}] `;
      if (verbose) write(redactString(`${prefix}${lawLine(event.result)}\n`, secrets));
      else
        write(
          event.result.outcome.kind === 'failed'
            ? event.result.known
              ? 'k'
              : 'F'
            : event.result.outcome.kind === 'passed'
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

function ruleLine(rule: RuleResult): string {
  const status = {
    passed: 'pass',
    failed: 'FAIL',
    'known-failure': 'known',
    'not-run': 'not run',
    'not-covered': 'not covered',
  }[rule.status];
  const why =
    rule.status === 'not-run' || rule.status === 'not-covered' ? ` (${rule.reasons.join('; ')})` : '';
  return `  ${status.padEnd(11)} ${rule.ruleId.padEnd(28)} §${rule.section.padEnd(6)} ${rule.title}${why}`;
}

/** What the run covered: rules checked of the rules a live target can check. */
export function coverageLine(report: ConformanceReport): string {
  const { checked, checkable } = report.coverage;
  const percent = checkable === 0 ? 0 : Math.floor((checked / checkable) * 100);
  return `Coverage: ${checked} of ${checkable} rules checkable on a live target were checked (${percent} %)`;
}

/** The last line: the verdict, and for `not-checked` what was missing and how to say it is intended. */
export function resultLine(report: ConformanceReport): string {
  if (report.verdict === 'not-conformant') return 'RESULT: NOT conformant';
  if (report.verdict === 'not-checked')
    return `RESULT: NOT CHECKED (no new failures, but laws could not run without ${report.missingKeys.join(', ')}; set them, --skip those laws, or pass --allow-not-run)`;
  return 'RESULT: conformant (no new failures)';
}

/**
 * The end-of-run text: summary by group, every failure in full (rule id, section, shrunk
 * counterexample, curl, seed), then the rules catalog with pass / fail / not run and why.
 */
export function renderConsoleReport(report: ConformanceReport, secrets: readonly string[] = []): string {
  const lines: string[] = [];
  const groups = new Map<string, LawResult[]>();
  for (const law of report.laws) groups.set(law.group, [...(groups.get(law.group) ?? []), law]);
  lines.push('', coverageLine(report), '', 'Summary by group');
  for (const [group, laws] of groups) {
    const count = (k: string) => laws.filter((l) => l.outcome.kind === k && !l.known).length;
    const known = laws.filter((l) => l.known).length;
    lines.push(
      `  ${group.padEnd(12)} ${count('passed')} passed, ${count('failed')} failed${known ? `, ${known} known` : ''}, ${count('not-run')} not run`,
    );
  }
  const failures = report.laws.filter((l) => l.outcome.kind === 'failed');
  if (failures.length > 0) lines.push('', 'Failures');
  for (const law of failures) {
    const f = law.outcome;
    if (f.kind !== 'failed') continue;
    lines.push(
      '',
      `${law.known ? 'KNOWN' : 'FAIL'} ${f.ruleId} (spec §${f.section}) in law ${law.lawId}`,
      `  ${f.message}`,
      '  counterexample:',
      indent(stringify(f.counterexample)),
      '  reproduce:',
      indent(f.repro),
      `  seed: ${f.seed}${f.path === undefined ? '' : `, path: ${f.path}`}  (cca-kit conform --seed ${f.seed} --only ${law.lawId})`,
      `  fingerprint: ${f.fingerprint}`,
    );
  }
  lines.push('', 'Rules catalog');
  for (const rule of report.rules) lines.push(ruleLine(rule));
  const r = report.summary.rules;
  const l = report.summary.laws;
  lines.push(
    '',
    coverageLine(report),
    `Laws: ${l.passed} passed, ${l.failed} failed, ${l.knownFailures} known failures, ${l.notRun} not run`,
    `Rules: ${r.passed} passed, ${r.failed} failed, ${r.knownFailures} known failures, ${r.notRun} not run, ${r.notCovered} not covered`,
    `${report.checks} checks, ${report.requests} requests in ${(report.durationMs / 1000).toFixed(1)} s (run ${report.runId}, seed ${report.seed})`,
    resultLine(report),
  );
  return redactString(lines.join('\n'), secrets);
}
