// @ts-check
/**
 * Mutation testing of the engine's spec-bearing code (bench/mutation/slices.json) where only the
 * conformance laws, run in process through suites/*.test.ts (vitest.mutation.config.ts), may kill a
 * mutant. `npx stryker run` mutates every slice (hours on two cores); `npm run bench -- --only
 * mutation` runs a seeded sample of it and writes the score per slice.
 */
import { readFileSync } from 'node:fs';

const { slices } = JSON.parse(readFileSync(new URL('./bench/mutation/slices.json', import.meta.url), 'utf8'));

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.mutation.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  plugins: [
    '@stryker-mutator/vitest-runner',
    '@stryker-mutator/typescript-checker',
    './bench/mutation/sample-ignorer.mjs',
    './bench/mutation/result-journal.mjs',
  ],
  ignorers: ['cca-sample'],
  mutate: Object.values(slices).flat(),
  // Per-test coverage: a mutant runs only the laws that reach it. Code only run while a suite starts
  // its mock (seeding) is "static": running every law per such mutant would take the machine for hours.
  coverageAnalysis: 'perTest',
  ignoreStatic: true,
  concurrency: 1,
  timeoutMS: 20_000,
  dryRunTimeoutMinutes: 20,
  incremental: true,
  incrementalFile: '.cache/stryker/incremental.json',
  tempDirName: '.cache/stryker/tmp',
  cleanTempDir: 'always',
  ignorePatterns: [
    'dist',
    'dist-packages',
    '.dist-build-*',
    'bench/results',
    'test-results',
    'coverage',
    '.cache',
  ],
  reporters: ['progress', 'json', 'cca-journal'],
  jsonReporter: { fileName: '.cache/stryker/mutation.json' },
  thresholds: { high: 90, low: 80, break: null },
};

export default config;
