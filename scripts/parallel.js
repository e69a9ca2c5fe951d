#!/usr/bin/env node
// Runs npm scripts at once, each one's output kept apart and shown whole when it ends; exits 1 when
// any failed, naming it. The checks before the tests (types, lint, the package's exports) read the
// build and write nothing, so they need not wait for each other:
//   node scripts/parallel.js typecheck lint lint:package
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/parallel.js <npm script>...');
  process.exit(2);
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise((resolve) => {
        const child = spawn(npm, ['run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
        const chunks = [];
        child.stdout.on('data', (c) => chunks.push(c));
        child.stderr.on('data', (c) => chunks.push(c));
        child.on('error', (error) => resolve({ name, code: 1, output: String(error) }));
        child.on('close', (code, signal) => {
          const output = Buffer.concat(chunks).toString();
          process.stdout.write(`> npm run ${name}\n${output}`);
          resolve({ name, code: code ?? (signal ? 1 : 0), output });
        });
      }),
  ),
);
const failed = results.filter((r) => r.code !== 0).map((r) => r.name);
if (failed.length > 0) {
  console.error(`failed: ${failed.join(', ')}`);
  process.exit(1);
}
