/**
 * `cca-kit conform`: runs the conformance laws against a deployment and reports. Keys come from the
 * environment only (never from argv, which shows in process lists and shell history).
 *
 * @example
 * // CCA_READ_KEY=... npx cca-kit conform --base-url https://staging.example.com --seed 42 --junit conform.xml
 * process.exitCode = await runConformCommand(['--base-url', 'http://127.0.0.1:4010']);
 */
import { readFile, writeFile } from 'node:fs/promises';
import { allLaws } from '../../suites/laws/index.ts';
import { KEY_ENV, KEY_ROLES, type Keys } from '../client/types.ts';
import { baselineFrom, parseBaseline } from '../conformance/kit/baseline.ts';
import { MCP_REVISION_CHOICES } from '../conformance/kit/mcp/revisions.ts';
import type { Baseline } from '../conformance/kit/options.ts';
import type { Verdict } from '../conformance/kit/report.ts';
import { preflight, preflightKeys } from '../conformance/preflight.ts';
import { runConformance, selects } from '../conformance/runner.ts';
import { contract } from '../contract/index.ts';
import { consoleProgress, renderConsoleReport } from '../reporters/console.ts';
import { renderJsonReport } from '../reporters/json.ts';
import { renderJunitReport } from '../reporters/junit.ts';
import { renderMarkdownReport } from '../reporters/markdown.ts';
import { redactString } from '../reporters/redact.ts';
import { integerFlag, parseFlags } from './flags.ts';
import { type CliIo, type Command, UsageError } from './io.ts';

export const CONFORM_USAGE = `Usage: cca-kit conform --base-url URL [options]

Keys (environment only): CCA_READ_KEY (Reporting), CCA_WRITE_KEY (Write), CCA_INGEST_KEY (Import);
  optional CCA_OTHER_ORG_READ_KEY (a Reporting key of another organization, isolation checks),
  CCA_OTHER_ORG_WRITE_KEY (a Write key of another organization also in ad_policy mode),
  CCA_NO_MODERATION_WRITE_KEY (a Write key of an organization without ad_policy mode),
  CCA_EXPIRED_KEY (a key past its expiry), CCA_REVOKED_KEY (a revoked key) and CCA_READ_WRITE_KEY
  (a Read-and-write key of the read key's organization: agent saved searches through execute).
  The agent interface (MCP) at --mcp-url is checked with the same keys (group agent); its reply checks
  prepare reply requests but the suite never approves a reply.
  Each key given is tried once first on a route it should be accepted on: a refused key (401) stops
  the run (exit 2) naming the variable. The agent interface is probed once: without one, the agent
  group is NOT CHECKED in one line (pass --mcp-url or --skip agent).
  Checks whose key is absent are reported as not run, never as passed. A run in which laws could not
  run for want of a required key (read, write, ingest) ends NOT CHECKED (exit 3), unless those laws
  were left out with --skip / --only or --allow-not-run was given.

Levels: each rule is must (the spec states it: a failure fails the run), should (a reading, a
  convention or a point the spec leaves open: a failure is a warning) or mock-only (not judged on a
  live target); see contract/audit.json. After a failure, a law goes on checking its other rules.

Options:
  --base-url URL            deployment to check (or CCA_BASE_URL)
  --mcp-url URL             its agent interface (MCP, Streamable HTTP; default <base-url>/mcp, or CCA_MCP_URL);
                            --skip agent leaves the agent interface out
  --mcp-revision REV        the MCP revision(s) the agent laws speak: 2025-11-25 (sessions), 2026-07-28
                            (stateless) or both; default: whatever the deployment offers (probed once),
                            both when it offers both; each agent finding names its revision
  --seed N                  seed of every generated case (default: random, printed)
  --runs N                  generated cases per property (default 20)
  --no-shrink               report each failing case as found instead of shrinking it to a smaller one
                            (faster when only the verdict matters)
  --only LIST               law ids, groups or rule ids (comma-separated, repeatable; trailing * matches a prefix)
  --skip LIST               the same, to leave out
  --allow-writes            create moderation cases, ingested records, custom-field values (default on only for loopback)
  --no-allow-writes         never write, even on loopback
  --no-custom-field-writes  leave records the run did not create alone: no custom-field value of an
                            existing action is written (and put back); those laws are not run
  --allow-not-run           laws missing a required key do not make the run NOT CHECKED
  --strict                  a failure of a should rule fails the run too
  --min-coverage P          end NOT CHECKED (exit 3) when fewer than P % of the checkable rules were checked
  --max-rps N               requests per second (default 20; unlimited on loopback)
  --max-requests N          total request budget (default 20000)
  --moderation-timeout MS   time a moderation case may take to complete (default 60000)
  --request-timeout MS      per-request timeout (default 15000)
  --junit FILE              write a JUnit XML report (one testcase per rule)
  --json FILE               write the JSON report
  --markdown FILE           write a pull-request comment (verdict, coverage, failures, then warnings)
  --baseline FILE           known failures: fail only on new ones, still list the known ones
  --update-baseline         write every failure of this run to --baseline FILE and exit 0
  --quiet                   one character per law while running
  --help                    this text

Exit status:
  0  conformant: no new failure of a must rule (should failures are warnings unless --strict),
     and every selected law that needs a required key ran
  1  NOT conformant: at least one new failure of a must rule (not in --baseline)
  2  usage error (a non-http(s) base URL included), or the base URL is not this API (unreachable,
     or its /docs/json is not an OpenAPI document of it), or a key of the environment was refused
     (CCA_READ_KEY refused: 401), or the target stopped answering mid-run (what was done is printed)
  3  NOT CHECKED: no new failure, but laws could not run for want of a required key, the agent
     interface was absent, or the coverage was below --min-coverage`;

/** Exit codes of `cca-kit conform` (also in the usage text, docs/conformance.md and the README). */
export const EXIT = { conformant: 0, failure: 1, usage: 2, notChecked: 3 } as const;

/** The exit code of each verdict (a target that stopped answering is exit 2, like one never reached). */
const EXIT_OF: Readonly<Record<Verdict, number>> = {
  conformant: EXIT.conformant,
  'not-conformant': EXIT.failure,
  'not-checked': EXIT.notChecked,
  unreachable: EXIT.usage,
};

/** Any integer: the runner checks its options' ranges and names the one it refuses. */
const int = (name: string, value: string | undefined): number | undefined =>
  integerFlag(name, value, { min: Number.MIN_SAFE_INTEGER });

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
  const values = parseFlags(
    argv,
    {
      'base-url': { type: 'string' },
      'mcp-url': { type: 'string' },
      'mcp-revision': { type: 'string' },
      seed: { type: 'string' },
      runs: { type: 'string' },
      shrink: { type: 'boolean' },
      only: { type: 'string', multiple: true },
      skip: { type: 'string', multiple: true },
      'allow-writes': { type: 'boolean' },
      'custom-field-writes': { type: 'boolean' },
      'allow-not-run': { type: 'boolean' },
      strict: { type: 'boolean' },
      'min-coverage': { type: 'string' },
      markdown: { type: 'string' },
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
    { allowNegative: true },
  );
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
  if (!URL.canParse(baseUrl) || !/^https?:$/.test(new URL(baseUrl).protocol))
    throw new UsageError(`--base-url must be an http(s) URL, got ${JSON.stringify(baseUrl)}`);
  if (mcpUrl !== undefined && mcpUrl !== '' && !/^https?:$/.test(new URL(mcpUrl).protocol))
    throw new UsageError(`--mcp-url must be an http(s) URL, got ${JSON.stringify(mcpUrl)}`);
  const mcpRevisionText = values['mcp-revision'];
  const mcpRevision = MCP_REVISION_CHOICES.find((r) => r === mcpRevisionText);
  if (mcpRevisionText !== undefined && mcpRevision === undefined)
    throw new UsageError(
      `--mcp-revision must be one of ${MCP_REVISION_CHOICES.join(', ')}, got ${JSON.stringify(mcpRevisionText)}`,
    );
  const minCoverageText = values['min-coverage'];
  if (minCoverageText !== undefined && !/^(100|\d{1,2})(\.\d+)?$/.test(minCoverageText))
    throw new UsageError(
      `--min-coverage needs a percentage from 0 to 100, got ${JSON.stringify(minCoverageText)}`,
    );
  const minCoverage = minCoverageText === undefined ? undefined : Number(minCoverageText);
  if (minCoverage !== undefined && minCoverage > 100)
    throw new UsageError(
      `--min-coverage needs a percentage from 0 to 100, got ${JSON.stringify(minCoverageText)}`,
    );
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
  const refused = await preflightKeys(baseUrl, keys, requestTimeoutMs);
  if (refused.length > 0) {
    for (const r of refused)
      io.stderr(`cca-kit conform: ${r.variable} refused: ${r.status} (${r.tried}); no law ran\n`);
    return EXIT.usage;
  }
  const report = await runConformance(
    {
      signal: io.signal,
      target: {
        baseUrl,
        keys,
        ...(mcpUrl === undefined || mcpUrl === '' ? {} : { mcpUrl }),
        ...(mcpRevision === undefined ? {} : { mcpRevision }),
      },
      only,
      skip: list(values.skip),
      ...(seed === undefined ? {} : { seed }),
      ...(runs === undefined ? {} : { runs }),
      ...(values.shrink === undefined ? {} : { shrink: values.shrink }),
      ...(values['allow-writes'] === undefined ? {} : { allowWrites: values['allow-writes'] }),
      ...(values['custom-field-writes'] === undefined
        ? {}
        : { customFieldWrites: values['custom-field-writes'] }),
      ...(values['allow-not-run'] === true ? { allowNotRun: true } : {}),
      ...(values.strict === true ? { strict: true } : {}),
      ...(minCoverage === undefined ? {} : { minCoverage }),
      ...(maxRps === undefined ? {} : { maxRps }),
      ...(maxRequests === undefined ? {} : { maxRequests }),
      ...(moderationTimeoutMs === undefined ? {} : { moderationTimeoutMs }),
      ...(requestTimeoutMs === undefined ? {} : { requestTimeoutMs }),
      ...(baseline === undefined ? {} : { baseline }),
      onProgress: consoleProgress({ write: io.stderr, secrets, verbose: values.quiet !== true }),
    },
    { laws: allLaws },
  );
  io.stdout(`${renderConsoleReport(report, secrets)}\n`);
  if (values.json !== undefined) await writeFile(values.json, renderJsonReport(report, secrets));
  if (values.junit !== undefined) await writeFile(values.junit, renderJunitReport(report, secrets));
  if (values.markdown !== undefined) await writeFile(values.markdown, renderMarkdownReport(report, secrets));
  if (values['update-baseline'] === true && values.baseline !== undefined) {
    const next = baselineFrom(report);
    await writeFile(values.baseline, `${JSON.stringify(next, null, 2)}\n`);
    io.stderr(`cca-kit conform: wrote ${next.failures.length} known failures to ${values.baseline}\n`);
    return EXIT.conformant;
  }
  return EXIT_OF[report.verdict];
}

/** The `conform` entry for the CLI's command table (`src/cli/commands.ts`). */
export const conformCommand: Command = {
  name: 'conform',
  summary: 'check a deployment (or the mock) against the contract and the rules catalog',
  usage: CONFORM_USAGE,
  run: (argv, io) => runConformCommand(argv, io),
};
