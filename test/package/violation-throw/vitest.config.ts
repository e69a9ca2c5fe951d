// Run by test/violations-throw.test.ts only (the spec through this repository's own package entry,
// `cca-kit/msw` resolved to dist/): a consumer's test suite that must fail. test/package-consumer.test.ts
// runs the same spec in a project where the packed tarball is installed.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: { include: ['*.spec.ts'], pool: 'forks', maxWorkers: 1, reporters: ['default'] },
});
