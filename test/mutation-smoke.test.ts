/**
 * The mutation setup (stryker.config.mjs, bench/mutation/) keeps working: Stryker runs on one small
 * engine file, with the conformance laws of one suite as its only tests, and the laws kill a mutant
 * that accepts a wrong key. Without the type checker and with its own journal, so it takes seconds
 * and never answers from the benchmark's results.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSample, score } from '../bench/mutation/run.ts';
import { enumerate } from '../bench/mutation/sample.ts';
import { scaled } from './support/timeouts.ts';

const FILE = 'mocks/engine/auth/constant-time.ts';
const dir = mkdtempSync(join(tmpdir(), 'cca-mutation-smoke-'));

describe('mutation smoke: Stryker on one engine file, laws only', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'runs the sampled mutants of the key comparison and the auth laws kill one',
    async () => {
      const all = await enumerate((file) => file === FILE);
      // The comparison's verdict (`diff === 0`): turned into `true`, every key is accepted.
      const mutants = all.filter((m) => m.loc.start.line === all.at(-1)?.loc.start.line);
      expect(mutants.length).toBeGreaterThan(0);
      const sample = { seed: 0, mutants, population: { auth: all.length } };
      const results = await runSample({
        sample,
        runs: 2,
        testFiles: ['suites/auth.test.ts'],
        typeCheck: false,
        incrementalFile: join(dir, 'incremental.json'),
        journalFile: join(dir, 'journal.jsonl'),
      });
      expect(results.length).toBe(mutants.length);
      const scored = score(sample, results, mutants.length, 2);
      expect(scored.slices[0]?.killed).toBeGreaterThan(0);
    },
    scaled(60_000),
  );
});
