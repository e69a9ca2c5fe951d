/**
 * `cca-kit conform`: runs the conformance laws against a deployment and reports. Keys come from the
 * environment only (never from argv, which shows in process lists and shell history).
 *
 * @example
 * // CCA_READ_KEY=... npx cca-kit conform --base-url https://staging.example.com --seed 42 --junit conform.xml
 * process.exitCode = await runConformCommand(['--base-url', 'http://127.0.0.1:4010']);
 */
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { allLaws } from '../../suites/laws/index.ts';
import { KEY_ENV, KEY_ROLES, type Keys } from '../client/types.ts';
import { baselineFrom, parseBaseline } from '../conformance/baseline.ts';
import type { Baseline } from '../conformance/options.ts';
import { preflight } from '../conformance/preflight.ts';
import { runConformance, selects } from '../conformance/runner.ts';
import { contract } from '../contract/index.ts';
import { consoleProgress, renderConsoleReport } from '../reporters/console.ts';
import { renderJsonReport } from '../reporters/json.ts';
import { renderJunitReport } from '../reporters/junit.ts';
import { redactString } from '../reporters/redact.ts';
import { type CliIo, type Command, UsageError } from './io.ts';

export const CONFORM_USAGE = `Usage: cca-kit conform --base-url URL [options]

Keys (environment only): CCA_READ_KEY (Reporting), CCA_WRITE_KEY (Write), CCA_INGEST_KEY (Import);
  optional CCA_OTHER_ORG_READ_KEY (a Reporting key of another organization, isolation checks),
  CCA_NO_MODERATION_WRITE_KEY (a Write key of an organization without ad_policy mode),
  CCA_EXPIRED_KEY (a key past its expiry), CCA_REVOKED_KEY (a revoked key) and CCA_READ_WRITE_KEY
  (a Read-and-write key of the read key's organization: agent saved searches through execute).
  The agent interface (MCP) at --mcp-url is checked with the same keys (group agent); its reply checks
  prepare reply requests but the suite never approves a reply.
  Checks whose key is absent are reported as not run, never as passed. A run in which laws could not
  run for want of a required key (read, write, ingest) ends NOT CHECKED (exit 3), unless those laws
  were left out with --skip / --only or --allow-not-run was given.

Options:
  --base-url URL            deployment to check (or CCA_BASE_URL)
  --mcp-url URL             its agent interface (MCP, Streamable HTTP; default <base-url>/mcp, or CCA_MCP_URL);
                            --skip agent leaves the agent interface out
  --seed N                  seed of every generated case (default: random, printed)
  --runs N                  generated cases per property (default 20)
  --only LIST               law ids, groups or rule ids (comma-separated, repeatable; trailing * matches a prefix)
  --skip LIST               the same, to leave out
  --allow-writes            create moderation cases, ingested records, custom-field values (default on only for loopback)
  --no-allow-writes         never write, even on loopback
  --allow-not-run           laws missing a required key do not make the run NOT CHECKED
  --max-rps N               requests per second (default 20; unlimited on loopback)
  --max-requests N          total request budget (default 20000)
  --moderation-timeout MS   time a moderation case may take to complete (default 60000)
  --request-timeout MS      per-request timeout (default 15000)
  --junit FILE              write a JUnit XML report (one testcase per rule)
  --json FILE               write the JSON report
  --baseline FILE           known failures: fail only on new ones, still list the known ones
  --update-baseline         write every failure of this run to --baseline FILE and exit 0
  --quiet                   one character per law while running
  --help                    this text

Exit status:
  0  conformant: no new failure, and every selected law that needs a required key ran
  1  NOT conformant: at least one new failure (not in --baseline)
  2  usage error, or the base URL is not this API: unreachable, or its /docs/json is not an
     OpenAPI document of it (one line says what was tried and what came back; no law runs)
  3  NOT CHECKED: no new failure, but laws could not run for want of a required key`;

/** Exit codes of `cca-kit conform` (also in the usage text, docs/conformance.md and the README). */
export const EXIT = { conformant: 0, failure: 1, usage: 2, notChecked: 3 } as const;

function int(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^-?\d+$/.test(value))
    throw new UsageError(`--${name} needs an integer, got ${JSON.stringify(value)}`);
  return Number.parseInt(value, 10);
}

function list(values: readonly string[] | undefined): string[] {
  return (values ?? [])
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/** The keys present in the environment, by role. */
export function keysFromEnv(env: NodeJS.ProcessEnv): Keys {
  const keys: Record<string, string> = {};
  for (const role of KEY_ROLES) {
    const value = env[KEY_ENV[role]];
    if (value !== undefined && value !== '') keys[role] = value;
  }
  return keys;
}

const defaultIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  signal: new AbortController().signal,
};

/** Runs `cca-kit conform`; resolves to the exit code. */
export async function runConformCommand(
  argv: readonly string[],
  io: CliIo = defaultIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const { values } = parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    allowNegative: true,
    options: {
      'base-url': { type: 'string' },
      'mcp-url': { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      only: { type: 'string', multiple: true },
      skip: { type: 'string', multiple: true },
      'allow-writes': { type: 'boolean' },
      'allow-not-run': { type: 'boolean' },
      'max-rps': { type: 'string' },
      'max-requests': { type: 'string' },
      'moderation-timeout': { type: 'string' },
      'request-timeout': { type: 'string' },
      junit: { type: 'string' },
      json: { type: 'string' },
      baseline: { type: 'string' },
      'update-baseline': { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help === true) {
    io.stdout(`${CONFORM_USAGE}\n`);
    return 0;
  }
  const baseUrl = values['base-url'] ?? env['CCA_BASE_URL'];
  const mcpUrl = values['mcp-url'] ?? env['CCA_MCP_URL'];
  if (mcpUrl !== undefined && mcpUrl !== '' && !URL.canParse(mcpUrl))
    throw new UsageError(`--mcp-url is not a URL: ${JSON.stringify(mcpUrl)}`);
  if (baseUrl === undefined || baseUrl === '')
    throw new UsageError('--base-url (or CCA_BASE_URL) is required');
  if (values['update-baseline'] === true && values.baseline === undefined)
    throw new UsageError('--update-baseline needs --baseline FILE');
  const keys = keysFromEnv(env);
  const secrets = Object.values(keys).filter((k): k is string => typeof k === 'string');
  let baseline: Baseline | undefined;
  if (values.baseline !== undefined && values['update-baseline'] !== true) {
    try {
      baseline = parseBaseline(await readFile(values.baseline, 'utf8'));
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'ENOENT')
        throw new UsageError(
          `--baseline ${values.baseline}: ${error instanceof Error ? error.message : String(error)}`,
        );
      io.stderr(`cca-kit conform: baseline ${values.baseline} does not exist yet; every failure counts\n`);
    }
  }
  const seed = int('seed', values.seed);
  const runs = int('runs', values.runs);
  const maxRps = int('max-rps', values['max-rps']);
  const maxRequests = int('max-requests', values['max-requests']);
  const moderationTimeoutMs = int('moderation-timeout', values['moderation-timeout']);
  const requestTimeoutMs = int('request-timeout', values['request-timeout']);
  const only = list(values.only);
  const unknown = only.filter((selector) => !allLaws.some((law) => selects(selector, law)));
  if (unknown.length > 0)
    throw new UsageError(`--only ${unknown.join(',')} selects no law (use law ids, groups or rule ids)`);
  const reachable = await preflight(baseUrl, contract, requestTimeoutMs);
  if (!reachable.ok) {
    io.stderr(`cca-kit conform: ${redactString(reachable.problem, secrets)}\n`);
    return EXIT.usage;
  }
  const report = await runConformance({
    signal: io.signal,
    target: { baseUrl, keys, ...(mcpUrl === undefined || mcpUrl === '' ? {} : { mcpUrl }) },
    only,
    skip: list(values.skip),
    ...(seed === undefined ? {} : { seed }),
    ...(runs === undefined ? {} : { runs }),
    ...(values['allow-writes'] === undefined ? {} : { allowWrites: values['allow-writes'] }),
    ...(values['allow-not-run'] === true ? { allowNotRun: true } : {}),
    ...(maxRps === undefined ? {} : { maxRps }),
    ...(maxRequests === undefined ? {} : { maxRequests }),
    ...(moderationTimeoutMs === undefined ? {} : { moderationTimeoutMs }),
    ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
    ...(baseline === undefined ? {} : { baseline }),
    onProgress: consoleProgress({ write: io.stderr, secrets, verbose: values.quiet !== true }),
  });
  io.stdout(`${renderConsoleReport(report, secrets)}\n`);
  if (values.json !== undefined) await writeFile(values.json, renderJsonReport(report, secrets));
  if (values.junit !== undefined) await writeFile(values.junit, renderJunitReport(report, secrets));
  if (values['update-baseline'] === true && values.baseline !== undefined) {
    const next = baselineFrom(report);
    await writeFile(values.baseline, `${JSON.stringify(next, null, 2)}\n`);
    io.stderr(`cca-kit conform: wrote ${next.failures.length} known failures to ${values.baseline}\n`);
    return EXIT.conformant;
  }
  return report.verdict === 'not-conformant'
    ? EXIT.failure
    : report.verdict === 'not-checked'
      ? EXIT.notChecked
      : EXIT.conformant;
}

/** The `conform` entry for the CLI's command table (`src/cli/commands.ts`). */
export const conformCommand: Command = {
  name: 'conform',
  summary: 'check a deployment (or the mock) against the contract and the rules catalog',
  usage: CONFORM_USAGE,
  run: (argv, io) => runConformCommand(argv, io),
};
