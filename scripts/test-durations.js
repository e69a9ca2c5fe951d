#!/usr/bin/env node
// Writes test/support/test-durations.json (seconds per test file) from a whole run's JSON report,
// for the longest-first order of test/support/longest-first.ts. Run after `npm test`:
//   node scripts/test-durations.js [test-results/vitest.json]
// After re-measuring some files alone (`npx vitest run <files> --reporter=json --outputFile=x.json`),
// `--merge` takes their figures from that report and keeps every other file's:
//   node scripts/test-durations.js --merge x.json
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');
const outFile = join(root, 'test', 'support', 'test-durations.json');
const args = process.argv.slice(2);
const merge = args.includes('--merge');
const reportArg = args.find((a) => a !== '--merge');
const reportFile = resolve(reportArg ?? join(root, 'test-results', 'vitest.json'));
const report = JSON.parse(readFileSync(reportFile, 'utf8'));
// Paths relative to the checkout that ran: the report's test-results/ sits in it for a whole run; a
// report written elsewhere names the files by absolute path, so the checkout is found from them.
const checkoutOf = (file) => {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'vitest.config.ts'))) return dir;
  return dirname(dirname(reportFile));
};
const durations = merge ? JSON.parse(readFileSync(outFile, 'utf8')) : {};
for (const file of report.testResults) {
  const seconds = Math.round((file.endTime - file.startTime) / 100) / 10;
  durations[relative(checkoutOf(file.name), file.name)] = seconds;
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(outFile, `${JSON.stringify(sorted, null, 2)}\n`);
console.log(
  `${Object.keys(sorted).length} test files${merge ? ` (${report.testResults.length} measured anew)` : ''}`,
);
