import { defineConfig } from 'vitest/config';
import LongestFirst from './test/support/longest-first.ts';
import { scaled } from './test/support/timeouts.ts';

export default defineConfig({
  test: {
    include: [
      'src/**/*.test.ts',
      'mocks/**/*.test.ts',
      'fixtures/**/*.test.ts',
      'contract/**/*.test.ts',
      'test/**/*.test.ts',
      'suites/**/*.test.ts',
    ],
    // Scaled by CCA_TEST_TIMEOUT_FACTOR: a busy CI machine stretches them instead of failing correct code.
    testTimeout: scaled(60_000),
    hookTimeout: scaled(60_000),
    // Two cores: a fork per core keeps servers started by tests from starving each other.
    pool: 'forks',
    // One fork per worker for all its files, not a fresh one per file: importing the engine, the
    // contract and the validators again for each of ~240 files cost about 100 s of CPU per run. The
    // files share no state through modules (none changes a module-level value another reads;
    // test/state-compaction-kill.test.ts checks that its node:fs trap was reached).
    isolate: false,
    // The console report, plus a JSON one that .ci/run reads for its closing "N passed, N failed" line.
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    maxWorkers: 2,
    // Longest files first (measured durations): no long file starts when the other worker is done.
    sequence: { sequencer: LongestFirst },
  },
});
