/**
 * Scores the suite on a blind deployment before anyone reads its planted deviations: the whole REST
 * suite clean, then with each deviation on alone (ids and levels only, from its IDS.txt), and what
 * each run reported. `npx tsx test/foreign/score-blind.ts <folder under test/foreign> [command] [args...]`
 * (default `python3 server.py`). Prints one JSON object: the clean run's failures and warnings, and per
 * deviation whether it failed the run, only warned, or passed unnoticed, with the rules it reported.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { conform, type Deployment, FOREIGN, failedRules, start } from './deployment.ts';

const [name, command = 'python3', ...args] = process.argv.slice(2);
if (name === undefined) throw new Error('usage: score-blind.ts <folder> [command] [args...]');
const deployment: Deployment = {
  name,
  command: () => command,
  // A built program (its path as the command) takes no arguments; python3 runs the folder's server.py.
  args: () => (args.length > 0 ? args : command === 'python3' ? ['server.py'] : []),
};
const ids = readFileSync(join(FOREIGN, name, 'IDS.txt'), 'utf8')
  .split('\n')
  .map((line) => line.trim().split(/\s+/))
  .filter((parts): parts is [string, string] => parts.length === 2 && parts[0] !== '');

async function run(deviations: string) {
  const running = await start(deployment, deviations);
  try {
    const report = await conform(running);
    const must = report.rules.filter((r) => r.status === 'failed' && r.level === 'must').map((r) => r.ruleId);
    return {
      verdict: report.verdict,
      ok: report.ok,
      failsRun: !report.ok,
      failedMust: must,
      reported: failedRules(report),
      notRun: report.laws
        .filter((l) => l.outcome.kind === 'not-run')
        .map((l) => `${l.lawId}: ${l.outcome.kind === 'not-run' ? l.outcome.reason : ''}`),
    };
  } finally {
    await running.stop();
  }
}

const clean = await run('');
// A clean run that fails already would make every deviation look caught: say so first, and judge each
// deviation by what it reports beyond the clean run.
console.error(`clean: ${clean.verdict}, failed must rules: ${clean.failedMust.join(', ') || 'none'}`);
const deviations: Record<string, unknown> = {};
for (const [id, level] of ids) {
  const result = await run(id);
  const newMust = result.failedMust.filter((r) => !clean.failedMust.includes(r));
  const newReported = result.reported.filter((r) => !clean.reported.includes(r));
  const outcome =
    result.failsRun && (clean.ok ? true : newMust.length > 0)
      ? 'fails the run'
      : newReported.length > 0
        ? 'warns only'
        : 'passes unnoticed';
  deviations[id] = {
    level,
    outcome,
    reported: newReported,
    verdict: result.verdict,
  };
  console.error(`${id} (${level}): ${outcome}`);
}
console.log(JSON.stringify({ clean, deviations }, null, 2));
