/**
 * Every `exports` entry (each condition of it) and every `bin` of a package resolves to a non-empty
 * file, and every JavaScript entry loads in a fresh node as a module with at least one export. The build
 * runs it on the staged dist/ before swapping it in (scripts/build.js), `prepack` on the dist/ about to be
 * packed, and the package tests before `npm pack`: a tarball with a missing or empty entry point is never
 * made, whatever ran concurrently.
 *
 * Usage: node scripts/check-exports.js [package folder ...]   (default: this repository; exits 1 on a problem)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * @param {string} packageDir the folder of package.json (with a trailing `/` or not)
 * @param {string} [distDir] where `./dist/` of the manifest is read instead (a build's staging folder)
 * @returns {Promise<string[]>} one line per problem, none when every entry is sound
 */
export async function checkExports(packageDir, distDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const locate = (target) =>
    distDir !== undefined && target.startsWith('./dist/')
      ? join(distDir, target.slice('./dist/'.length))
      : join(packageDir, target);
  const problems = [];
  const modules = [];
  const check = (name, target, loads) => {
    const file = locate(target);
    if (!existsSync(file)) return problems.push(`${name}: ${target} does not exist`);
    if (statSync(file).size === 0) return problems.push(`${name}: ${target} is empty`);
    if (target.endsWith('.json')) {
      try {
        JSON.parse(readFileSync(file, 'utf8'));
      } catch (error) {
        problems.push(`${name}: ${target} is not JSON (${error.message})`);
      }
    } else if (loads && /\.m?js$/.test(target)) {
      modules.push([name, file]);
    }
  };
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    for (const [condition, file] of targetsOf(target)) check(`exports["${subpath}"]${condition}`, file, true);
  }
  for (const [command, file] of Object.entries(manifest.bin ?? {})) check(`bin ${command}`, file, false);
  problems.push(...loadProblems(modules));
  return problems;
}

/** Every file a target names, with the condition path that leads to it (`.default`, `.types`). */
function targetsOf(target, path = '') {
  if (typeof target === 'string') return [[path, target]];
  if (target === null || typeof target !== 'object') return [];
  return Object.entries(target).flatMap(([condition, inner]) => targetsOf(inner, `${path}.${condition}`));
}

const MARK = 'check-exports: ';

/** Imports each module in one fresh node (no state of this process leaks in): it loads and exports something. */
function loadProblems(modules) {
  if (modules.length === 0) return [];
  const script = `const MARK = ${JSON.stringify(MARK)};
const problems = [];
for (const [name, url] of ${JSON.stringify(modules.map(([name, file]) => [name, pathToFileURL(file).href]))}) {
  try {
    const namespace = await import(url);
    if (Object.keys(namespace).length === 0) problems.push(name + ': the module exports nothing');
  } catch (error) {
    problems.push(name + ': does not load: ' + (error?.message ?? error));
  }
}
process.stdout.write('\\n' + MARK + JSON.stringify(problems) + '\\n');
process.exit(0);`;
  try {
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      // A guard against a hang, not a speed check: loading every entry point took over a minute on
      // two cores busy with other test processes, and a build must not fail for that.
      timeout: 300_000,
    });
    const line = output.split('\n').find((text) => text.startsWith(MARK));
    if (line === undefined) return ['loading the entry points printed no verdict'];
    return JSON.parse(line.slice(MARK.length));
  } catch (error) {
    return [`loading the entry points failed: ${error.message}`];
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const folders = process.argv.length > 2 ? process.argv.slice(2) : [root];
  let failed = false;
  for (const folder of folders) {
    const problems = await checkExports(resolve(folder));
    for (const problem of problems) process.stderr.write(`${folder}: ${problem}\n`);
    failed ||= problems.length > 0;
  }
  process.exit(failed ? 1 : 0);
}
