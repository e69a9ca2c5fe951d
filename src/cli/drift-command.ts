/**
 * `cca-kit drift`: compare the live OpenAPI document with the contract and classify every difference
 * (docs/drift.md).
 *
 * @example
 * // npx cca-kit drift --base-url https://cca.example.com --markdown drift.md
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type DocumentSource,
  type DriftCheckId,
  type DriftLevel,
  type FailOn,
  parseLevelOverride,
  renderDriftConsole,
  renderDriftJson,
  renderDriftJunit,
  renderDriftJunitUnreadable,
  renderDriftMarkdown,
  runDrift,
  runOasdiff,
} from '../drift/index.ts';
import { integerFlag, parseFlags } from './flags.ts';
import { type CliIo, type Command, UsageError } from './io.ts';

const USAGE = `Usage: cca-kit drift (--base-url <url> | --live <file.json>) [options]

Fetches {base-url}/docs/json (the authority for changes, spec 9.4), compares it with the bundled
contract and classifies every difference as breaking or additive for a client (docs/drift.md).

Options:
  --base-url <url>        the live deployment; its document is read from <url>/docs/json
  --live <file.json>      a saved live document instead
  --contract <file.json>  compare against this document instead of the bundled contract
  --fail-on <level>       breaking (default): exit 1 on a breaking change; additive: on any change
  --level <id>=<level>    change the level of one check (breaking, additive, info); repeatable,
                          e.g. --level response-enum-widened=additive
  --json <file>           write the JSON report
  --junit <file>          write a JUnit XML report (one testcase per check)
  --markdown <file>       write a Markdown report (a pull-request comment)
  --show-info             list documentation-only changes in the console too
  --oasdiff               also run the oasdiff binary when it is on PATH and print its breaking changes
  --timeout-ms <n>        time allowed to fetch the live document (default 15000)
  -h, --help              show this help

Exit codes:
  0  no change, or only additive ones (with --fail-on breaking)
  1  a breaking change (or any change with --fail-on additive)
  2  usage error, or a document that cannot be used: unreachable, not JSON, not OpenAPI, an
     unsupported version; the message names which`;

function failOnOf(value: string | undefined): FailOn {
  if (value === undefined || value === 'breaking') return 'breaking';
  if (value === 'additive') return 'additive';
  throw new UsageError(`--fail-on must be breaking or additive (got ${JSON.stringify(value)})`);
}

function levelsOf(values: readonly string[]): Map<DriftCheckId, DriftLevel> {
  const levels = new Map<DriftCheckId, DriftLevel>();
  for (const text of values) {
    try {
      const [id, level] = parseLevelOverride(text);
      levels.set(id, level);
    } catch (cause) {
      throw new UsageError((cause as Error).message);
    }
  }
  return levels;
}

async function printOasdiff(io: CliIo, base: unknown, live: unknown): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'cca-drift-'));
  try {
    await writeFile(join(dir, 'base.json'), JSON.stringify(base));
    await writeFile(join(dir, 'live.json'), JSON.stringify(live));
    const result = await runOasdiff(join(dir, 'base.json'), join(dir, 'live.json'));
    if (!result.available) io.stdout(`oasdiff: ${result.reason}; only cca-kit's own table was used\n`);
    else if (!result.ok) io.stdout(`oasdiff: ${result.reason}\n`);
    else {
      io.stdout(`oasdiff (second opinion): ${result.changes.length} breaking change(s) or warning(s)\n`);
      for (const c of result.changes) io.stdout(`  ${c.id}  ${c.operation}: ${c.text}\n`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export const driftCommand: Command = {
  name: 'drift',
  summary: 'compare the live OpenAPI document with the contract: breaking or additive changes',
  usage: USAGE,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = parseFlags(argv, {
      'base-url': { type: 'string' },
      live: { type: 'string' },
      contract: { type: 'string' },
      'fail-on': { type: 'string' },
      level: { type: 'string', multiple: true },
      json: { type: 'string' },
      junit: { type: 'string' },
      markdown: { type: 'string' },
      'show-info': { type: 'boolean' },
      oasdiff: { type: 'boolean' },
      'timeout-ms': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const baseUrl = values['base-url'];
    if ((baseUrl === undefined) === (values.live === undefined))
      throw new UsageError('give exactly one of --base-url and --live');
    const live: DocumentSource = baseUrl === undefined ? { file: values.live as string } : { url: baseUrl };
    const timeoutMs = integerFlag('timeout-ms', values['timeout-ms'], { min: 1, max: 9_999_999 }) ?? 15_000;
    const outcome = await runDrift({
      live,
      ...(values.contract === undefined ? {} : { base: { file: values.contract } }),
      failOn: failOnOf(values['fail-on']),
      levels: levelsOf(values.level ?? []),
      limits: {
        maxBytes: 16 * 1024 * 1024,
        timeoutMs,
      },
    });
    if (!outcome.ok) {
      io.stderr(`cca-kit drift: ${outcome.problem.problem}: ${outcome.problem.message}\n`);
      if (values.junit !== undefined)
        await writeFile(values.junit, renderDriftJunitUnreadable(outcome.problem));
      return 2;
    }
    const { report } = outcome;
    io.stdout(renderDriftConsole(report, { showInfo: values['show-info'] === true }));
    if (values.json !== undefined) await writeFile(values.json, renderDriftJson(report));
    if (values.junit !== undefined) await writeFile(values.junit, renderDriftJunit(report));
    if (values.markdown !== undefined) await writeFile(values.markdown, renderDriftMarkdown(report));
    if (values.oasdiff === true) await printOasdiff(io, outcome.base, outcome.live);
    return report.exitCode;
  },
};
