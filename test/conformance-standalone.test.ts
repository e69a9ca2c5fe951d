/**
 * Each rule stands alone: a failing assertion marks its rule and the law goes on
 * checking its other rules; what cannot run is counted with its reason, never hidden by a baseline;
 * should failures are warnings unless --strict; --min-coverage; a run with writes off says so.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { baselineFrom } from '../src/conformance/kit/baseline.ts';
import { runExamples, runProperty, violate } from '../src/conformance/kit/check.ts';
import type { Law } from '../src/conformance/kit/law.ts';
import type { ConformanceOptions } from '../src/conformance/kit/options.ts';
import { runConformance } from '../src/conformance/runner.ts';
import { contract } from '../src/contract/index.ts';
import { levelOf } from '../src/contract/rules.ts';
import { renderConsoleReport, renderJunitReport, renderMarkdownReport } from '../src/reporters/index.ts';

// Real catalog ids, so that their levels come from contract/audit.json.
const MUST_A = 'LIST-PAGESIZE-RANGE';
const MUST_B = 'LIST-PAGESIZE-DEFAULT-50';
const MUST_C = 'LIST-PAGESIZE-BOUNDS-DATA';
const SHOULD = 'ENG-PLATFORMS-FILTER';
const WRITE_RULE = 'CF-PATCH-PERSISTS';

const rule = (id: string) => ({ id, title: id, section: '4.1', check: 'live' });
const target = { baseUrl: 'http://127.0.0.1:9', keys: {} };

function law(id: string, ruleIds: string[], run: Law['run'], writes = false): Law {
  return { id: `u.${id}`, group: 'u', title: id, ruleIds, needs: { keys: [], writes }, run };
}

async function run(laws: Law[], ids: string[], options: Partial<ConformanceOptions> = {}) {
  return runConformance({ target, seed: 3, ...options }, { laws, contract, rules: ids.map(rule) });
}

const statusOf = (report: Awaited<ReturnType<typeof run>>, id: string) =>
  report.rules.find((r) => r.ruleId === id)?.status;

describe('each rule stands alone', () => {
  it('levels used here are what the audit says', () => {
    expect([levelOf(MUST_A), levelOf(MUST_B), levelOf(SHOULD)]).toEqual(['must', 'must', 'should']);
  });

  it('a law whose first rule fails still checks and reports its second rule (passed)', async () => {
    let secondChecked = 0;
    const two = law('two', [MUST_A, MUST_B], (ctx) =>
      runExamples(ctx, async () => {
        violate(MUST_A, 'first', 'the first rule is broken');
        secondChecked += 1;
        return 2;
      }),
    );
    const report = await run([two], [MUST_A, MUST_B]);
    expect(statusOf(report, MUST_A)).toBe('failed');
    expect(statusOf(report, MUST_B)).toBe('passed');
    expect(secondChecked).toBe(1);
    expect(report.laws[0]?.failures.map((f) => f.ruleId)).toEqual([MUST_A]);
    expect(report.verdict).toBe('not-conformant');
  });

  it('a law with two failing rules reports both, each with its own message', async () => {
    const both = law('both', [MUST_A, MUST_B, MUST_C], (ctx) =>
      runExamples(ctx, async () => {
        violate(MUST_A, 'a', 'A is broken');
        violate(MUST_B, 'b', 'B is broken');
        return 3;
      }),
    );
    const report = await run([both], [MUST_A, MUST_B, MUST_C]);
    expect(report.laws[0]?.failures.map((f) => [f.ruleId, f.message])).toEqual([
      [MUST_A, 'A is broken'],
      [MUST_B, 'B is broken'],
    ]);
    expect(statusOf(report, MUST_C)).toBe('passed');
    expect(report.summary.rules.failed).toBe(2);
  });

  it('properties too: a shrunk failure of one rule, then the other rule found in a re-run', async () => {
    const prop = law('prop', [MUST_A, MUST_B], (ctx) =>
      runProperty(ctx, fc.integer({ min: 0, max: 100 }), async (n) => {
        if (n > 10) violate(MUST_A, 'big', `n=${n} > 10`);
        if (n > 50) violate(MUST_B, 'bigger', `n=${n} > 50`);
      }),
    );
    const report = await run([prop], [MUST_A, MUST_B], { runs: 200 });
    const failures = report.laws[0]?.failures ?? [];
    expect(failures.map((f) => f.ruleId)).toEqual([MUST_A, MUST_B]);
    expect(failures[0]?.counterexample).toBe(11);
    expect(failures[1]?.counterexample).toBe(51);
  });

  it('a law that cannot go on past a failure charges its other rules as not run, blocked by it', async () => {
    const crashy = law('crashy', [MUST_A, MUST_B], (ctx) =>
      runExamples(ctx, async () => {
        const sample: { id: string } | undefined = undefined as { id: string } | undefined;
        if (sample === undefined) violate(MUST_A, 'none', 'no sample');
        return sample.id.length;
      }),
    );
    const report = await run([crashy], [MUST_A, MUST_B]);
    expect(statusOf(report, MUST_A)).toBe('failed');
    expect(statusOf(report, MUST_B)).toBe('not-run');
    const reasons = report.rules.find((r) => r.ruleId === MUST_B)?.reasons ?? [];
    expect(reasons.join()).toContain(`blocked by the failure of ${MUST_A}`);
    expect(report.notRun).toEqual([
      { reason: expect.stringContaining(`blocked by the failure of ${MUST_A}`), ruleIds: [MUST_B] },
    ]);
    expect(renderConsoleReport(report)).toMatch(
      /Not run: 1 rules\n\s+1 {2}blocked by the failure of LIST-PAGESIZE-RANGE/,
    );
  });

  it('a law looping on a failed rule is stopped, not run forever', async () => {
    const loops = law('loops', [MUST_A, MUST_B], (ctx) =>
      runExamples(ctx, async () => {
        for (;;) violate(MUST_A, 'loop', 'still broken');
      }),
    );
    const report = await run([loops], [MUST_A, MUST_B]);
    expect(statusOf(report, MUST_A)).toBe('failed');
    expect(statusOf(report, MUST_B)).toBe('not-run');
  });

  it('a baseline never hides the rules after a known failure: they run, and a new failure counts', async () => {
    const twoFail = law('two-fail', [MUST_A, MUST_B], (ctx) =>
      runExamples(ctx, async () => {
        violate(MUST_A, 'a', 'known');
        violate(MUST_B, 'b', 'new');
        return 2;
      }),
    );
    const withA = await run([twoFail], [MUST_A, MUST_B]);
    const known = {
      version: 1 as const,
      failures: baselineFrom(withA).failures.filter((f) => f.ruleId === MUST_A),
    };
    expect(known.failures).toHaveLength(1);
    const second = await run([twoFail], [MUST_A, MUST_B], { baseline: known });
    expect(statusOf(second, MUST_A)).toBe('known-failure');
    expect(statusOf(second, MUST_B)).toBe('failed');
    expect(second.verdict).toBe('not-conformant');
  });
});

describe('levels weigh the verdict', () => {
  const shouldFails = law('should', [SHOULD, MUST_A], (ctx) =>
    runExamples(ctx, async () => {
      violate(SHOULD, 'reading', 'a reading the deployment does not share');
      return 1;
    }),
  );

  it('a should failure is a warning: conformant, exit-0 verdict, listed apart', async () => {
    const report = await run([shouldFails], [SHOULD, MUST_A]);
    expect(report.verdict).toBe('conformant');
    expect(report.ok).toBe(true);
    expect(report.summary.rules).toMatchObject({ failed: 0, warnings: 1 });
    const text = renderConsoleReport(report);
    expect(text).toContain(`WARN ${SHOULD} (should, spec §4.1)`);
    expect(text).toMatch(/RESULT: conformant \(no new failures; 1 warning \(should rules\)\)/);
    expect(text).not.toMatch(/^Failures$/m);
    expect(renderJunitReport(report)).toMatch(/<skipped message="WARNING \(should rule/);
  });

  it('--strict makes a should failure fail the run', async () => {
    const report = await run([shouldFails], [SHOULD, MUST_A], { strict: true });
    expect(report.verdict).toBe('not-conformant');
    expect(renderJunitReport(report)).toMatch(/ENG-PLATFORMS-FILTER \(should\)[^>]*>\s*<failure /);
  });

  it('--min-coverage: below the percentage the run is NOT CHECKED, at or above it passes', async () => {
    const passes = law('passes', [MUST_A], (ctx) => runExamples(ctx, async () => 1));
    const ids = [MUST_A, MUST_B, MUST_C, SHOULD];
    const low = await run([passes], ids, { minCoverage: 30 });
    expect(low.coverage).toMatchObject({ checked: 1, checkable: 4, minimum: 30 });
    expect(low.verdict).toBe('not-checked');
    expect(renderConsoleReport(low)).toContain('coverage 25 % is below --min-coverage 30 %');
    expect((await run([passes], ids, { minCoverage: 25 })).verdict).toBe('conformant');
    expect((await run([passes], ids)).verdict).toBe('conformant');
  });

  it('writes off: the verdict says conformant for reads and how many write rules did not run', async () => {
    const reads = law('reads', [MUST_A], (ctx) => runExamples(ctx, async () => 1));
    const writes = law('writes', [WRITE_RULE], (ctx) => runExamples(ctx, async () => 1), true);
    const report = await run([reads, writes], [MUST_A, WRITE_RULE], { allowWrites: false });
    expect(report.writeRulesNotRun).toBe(1);
    expect(renderConsoleReport(report)).toContain(
      'RESULT: conformant for reads; 1 write rules not run (--allow-writes checks them)',
    );
  });
});

describe('Markdown report (--markdown)', () => {
  it('verdict and coverage first, failures before warnings, warnings apart, not-run listed', async () => {
    const mixed = law('mixed', [MUST_A, SHOULD, MUST_B], (ctx) =>
      runExamples(ctx, async () => {
        violate(SHOULD, 'w', 'a warning');
        violate(MUST_A, 'f', 'a | real failure');
        return 1;
      }),
    );
    const skipped = law(
      'skipped',
      [MUST_C],
      async () => ({ kind: 'passed', ruleIds: [MUST_C], checks: 1 }),
      true,
    );
    const report = await run([mixed, skipped], [MUST_A, MUST_B, MUST_C, SHOULD], { allowWrites: false });
    const md = renderMarkdownReport(report, ['secret-key-value']);
    const at = (s: string) => md.indexOf(s);
    expect(md.split('\n')[0]).toBe('## cca-kit conform: NOT conformant');
    expect(at('Coverage:')).toBeGreaterThan(0);
    expect(at('### Failures (1)')).toBeGreaterThan(at('Coverage:'));
    expect(at('### Warnings (1)')).toBeGreaterThan(at('### Failures (1)'));
    expect(at(`<code>${MUST_A}</code> (must, spec §4.1): a \\| real failure`)).toBeGreaterThan(
      at('### Failures'),
    );
    expect(at(`<code>${SHOULD}</code> (should`)).toBeGreaterThan(at('### Warnings'));
    expect(md).toContain('### Not run (1 rules)');
    expect(md).toContain('| passed | failed | warnings |');
  });
});
