// The consumer's vitest config (run by test/vitest-preset.test.ts and test/package-consumer.test.ts with
// `--root` this folder). The spec is `list.spec.ts`, not `*.test.ts`: this repository's own run must not
// pick it up.
export default {
  test: { include: ['*.spec.ts'], setupFiles: ['./setup.ts'], pool: 'forks', maxWorkers: 1 },
};
