/**
 * The validators the package ships compiled ahead of time (`dist/src/contract/precompiled.js`, written by
 * scripts/build.js; `npm test` builds before vitest runs) give the same outcome and the same issues as the
 * validators ajv compiles at first use from source. The package's entry points use only the former, the
 * project's own tests only the latter: this test is what ties the two together. The comparison runs under
 * plain node (test/support/precompiled-equivalence.ts), which loads dist/ as an installed package is loaded.
 */
import { describe, expect, it } from 'vitest';
import { ROOT, run } from './support/processes.ts';

describe('the validators the package ships compiled ahead of time (dist/)', () => {
  it('hold every validator the contract needs, and agree with validators compiled at first use on generated values', async () => {
    const result = await run(process.execPath, [
      '--import',
      'tsx',
      `${ROOT}test/support/precompiled-equivalence.ts`,
      ROOT,
      '40',
      '7',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const verdict = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
      ok: boolean;
      missing: string[];
      checked: number;
      counterexample: unknown;
    };
    expect(verdict.missing).toEqual([]);
    expect(verdict.counterexample).toBeNull();
    expect(verdict.checked).toBe(40);
    expect(verdict.ok).toBe(true);
  });
});
