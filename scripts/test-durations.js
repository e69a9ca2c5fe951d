#!/usr/bin/env node
// Writes test/support/test-durations.json (seconds per test file) from a whole run's JSON report,
// for the longest-first order of test/support/longest-first.ts. Run after `npm test`:
//   node scripts/test-durations.js [test-results/vitest.json]
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');
const reportFile = resolve(process.argv[2] ?? join(root, 'test-results', 'vitest.json'));
// Paths relative to the checkout that ran (the report's test-results/ sits in it): a clone elsewhere counts too.
const ran = dirname(dirname(reportFile));
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
const durations = {};
for (const file of report.testResults) {
  const seconds = Math.round((file.endTime - file.startTime) / 100) / 10;
  durations[relative(ran, file.name)] = seconds;
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join(root, 'test', 'support', 'test-durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} test files`);
