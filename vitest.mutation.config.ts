import { defineConfig } from 'vitest/config';
import { scaled } from './test/support/timeouts.ts';

/**
 * The conformance laws only, run in process against our mock: the test set Stryker may kill a
 * mutant with. Unit tests stay out on purpose (a mutant counts as caught only when a law that any
 * deployment faces catches it).
 */
export default defineConfig({
  test: {
    include: ['suites/*.test.ts'],
    testTimeout: scaled(60_000),
    hookTimeout: scaled(60_000),
  },
});
