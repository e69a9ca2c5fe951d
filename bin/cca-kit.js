#!/usr/bin/env node
// The CLI runs the compiled JavaScript in dist/ (built by `npm run build`; a packed cca-kit ships it, a
// checkout builds it after `npm ci`, no install script does): dist/cli/ is the CLI bundled at build time (one load
// instead of ~150 modules; see scripts/build.js). No TypeScript loader, nothing built on first start.
const entry = new URL('../dist/cli/main.js', import.meta.url);
let main;
try {
  ({ main } = await import(entry.href));
} catch (error) {
  // Only a checkout that was never built lacks dist/; an installed package always has it.
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || error.url !== entry.href) throw error;
  process.stderr.write('cca-kit: dist/ is missing: run `npm run build` in this checkout first\n');
  process.exit(1);
}
process.exitCode = await main(process.argv.slice(2));
