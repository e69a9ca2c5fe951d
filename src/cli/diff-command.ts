/**
 * `cca-kit diff`: the same seeded read requests (and, with --allow-writes, seeded writes) to the mock
 * and to live, compared by structure (docs/drift.md, "Differential runs").
 *
 * @example
 * // CCA_READ_KEY=... npx cca-kit diff --base-url https://cca.example.com --baseline diff-baseline.json
 */
import { writeFile } from 'node:fs/promises';
import { startMockServer } from '../../mocks/http/server.ts';
import { newRunId } from '../conformance/kit/options.ts';
import { preflight, preflightKeys, stillAnswers } from '../conformance/preflight.ts';
import { contract } from '../contract/index.ts';
import {
  buildDiffReport,
  readBaseline,
  renderBaseline,
  renderDiffConsole,
  renderDiffJson,
  renderDiffJunit,
} from '../diff/report.ts';
import { runDiff } from '../diff/run.ts';
import { redactString } from '../reporters/redact.ts';
import { integerFlag, parseFlags } from './flags.ts';
import { type CliIo, type Command, UsageError } from './io.ts';

const USAGE = `Usage: cca-kit diff --base-url <live url> [options]

Sends the same seeded read requests (every GET operation of the contract, bare and with a seeded
choice of its query parameters) to the mock and to live, twice to live, and compares structure, not
values: status, content type, keys present, types, nullability, array emptiness. Each body is also
checked against the contract. What varies between the two live answers is not a difference.

Options:
  --base-url <url>        the live deployment; its key comes from CCA_READ_KEY (a Reporting key)
  --mock <url>            a running mock (key from CCA_MOCK_READ_KEY, else a Reporting key read from
                          its /__mock/keys); default: a mock started in process with --seed
  --seed <n>              seed of the requests and of the in-process mock (default 1)
  --ignore <path>         a JSON path ignored with everything under it, e.g. '$.data[].customFields'
                          ('*' matches one key); repeatable
  --baseline <file>       known differences ({"known": [keys]}): they are reported, they do not fail
  --write-baseline <file> write every difference found as a baseline
  --json <file>           write the JSON report
  --junit <file>          write a JUnit XML report (one testcase per operation with a difference)
  --timeout-ms <n>        time allowed per request (default 15000)
  --allow-writes          also send seeded writes to both sides: an ingestion batch (CCA_INGEST_KEY),
                          a moderation case and its status read, a custom-field PATCH on the first
                          action of each side's list, its original value written back (CCA_WRITE_KEY);
                          every external id starts with cca-conform-<run id>-. A write whose key is
                          absent is reported as not sent. Without this flag nothing is written.
                          Mock keys: CCA_MOCK_WRITE_KEY, CCA_MOCK_INGEST_KEY, else read from /__mock/keys
  --max-rps <n>           requests per second to each side (default 20; unlimited on loopback)
  --max-requests <n>      request budget per side (default 20000); past it the run stops and says so
                          (the preflight's two requests to live, /docs/json and the key, come before it)
  -h, --help              show this help

Exit codes (the classes of cca-kit conform): 0 no difference outside the baseline; 1 a new
difference; 2 usage error (a non-http(s) URL included), live is not this API or does not answer
(one line says what was tried), CCA_READ_KEY was refused (401), live stopped answering mid-run, or
one side refused every request (401/403), so nothing was compared.`;

/** The largest value of diff's integer flags (nine digits). */
const MAX_INTEGER = 999_999_999;

/** An active key of a profile of a cca-kit mock, read from its admin API (open unless it has a token). */
async function mockKey(
  mockUrl: string,
  profile: 'reporting' | 'write' | 'import',
): Promise<string | undefined> {
  try {
    const response = await fetch(new URL('/__mock/keys', mockUrl), { signal: AbortSignal.timeout(5000) });
    const body = (await response.json()) as {
      keys?: { key?: unknown; profile?: unknown; status?: unknown }[];
    };
    const found = body.keys?.find((k) => k.profile === profile && k.status === 'active')?.key;
    return typeof found === 'string' ? found : undefined;
  } catch {
    return undefined;
  }
}

export const diffCommand: Command = {
  name: 'diff',
  summary: 'differential run: the same seeded requests to the mock and to live, structure compared',
  usage: USAGE,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = parseFlags(argv, {
      'base-url': { type: 'string' },
      mock: { type: 'string' },
      seed: { type: 'string' },
      ignore: { type: 'string', multiple: true },
      baseline: { type: 'string' },
      'write-baseline': { type: 'string' },
      json: { type: 'string' },
      junit: { type: 'string' },
      'timeout-ms': { type: 'string' },
      'allow-writes': { type: 'boolean' },
      'max-rps': { type: 'string' },
      'max-requests': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const liveUrl = values['base-url'];
    if (liveUrl === undefined) throw new UsageError('--base-url is required');
    for (const [name, url] of [
      ['--base-url', liveUrl],
      ['--mock', values.mock],
    ] as const) {
      if (url !== undefined && !URL.canParse(url))
        throw new UsageError(`${name} is not a URL: ${JSON.stringify(url)}`);
      if (url !== undefined && !/^https?:$/.test(new URL(url).protocol))
        throw new UsageError(`${name} must be an http(s) URL, got ${JSON.stringify(url)}`);
    }
    const seed = integerFlag('seed', values.seed, { max: MAX_INTEGER }) ?? 1;
    const timeoutMs = integerFlag('timeout-ms', values['timeout-ms'], { min: 1, max: MAX_INTEGER }) ?? 15_000;
    const maxRps = integerFlag('max-rps', values['max-rps'], { max: MAX_INTEGER });
    const maxRequests = integerFlag('max-requests', values['max-requests'], { min: 1, max: MAX_INTEGER });
    const limits: { maxRps?: number; maxRequests?: number } = {
      ...(maxRps === undefined ? {} : { maxRps }),
      ...(maxRequests === undefined ? {} : { maxRequests }),
    };
    const allowWrites = values['allow-writes'] === true;
    const liveKey = process.env['CCA_READ_KEY'];
    let baseline = new Set<string>();
    try {
      if (values.baseline !== undefined) baseline = await readBaseline(values.baseline);
    } catch (cause) {
      throw new UsageError((cause as Error).message);
    }
    // The exit classes of conform: a live that is not there, or refuses the key, is one line and exit 2.
    const reachable = await preflight(liveUrl, contract, timeoutMs);
    if (!reachable.ok) {
      io.stderr(
        `cca-kit diff: live: ${redactString(reachable.problem, liveKey === undefined ? [] : [liveKey])}\n`,
      );
      return 2;
    }
    if (liveKey !== undefined && liveKey !== '') {
      for (const r of await preflightKeys(liveUrl, { read: liveKey }, timeoutMs)) {
        io.stderr(
          `cca-kit diff: ${r.variable} refused: ${r.status} (${r.tried} on live); nothing was compared\n`,
        );
        return 2;
      }
    }
    const started = values.mock === undefined ? await startMockServer({ seed, agent: false }) : undefined;
    const mockUrl = values.mock ?? started?.url ?? '';
    const mockReadKey = process.env['CCA_MOCK_READ_KEY'] ?? (await mockKey(mockUrl, 'reporting'));
    const writeKeys = allowWrites
      ? {
          mock: {
            writeKey: process.env['CCA_MOCK_WRITE_KEY'] ?? (await mockKey(mockUrl, 'write')),
            ingestKey: process.env['CCA_MOCK_INGEST_KEY'] ?? (await mockKey(mockUrl, 'import')),
          },
          live: { writeKey: process.env['CCA_WRITE_KEY'], ingestKey: process.env['CCA_INGEST_KEY'] },
        }
      : { mock: {}, live: {} };
    try {
      const run = await runDiff({
        mock: { baseUrl: mockUrl, key: mockReadKey, ...writeKeys.mock },
        live: { baseUrl: liveUrl, key: liveKey, ...writeKeys.live },
        seed,
        allowWrites,
        prefix: `cca-conform-${newRunId()}-`,
        ...limits,
        ignore: values.ignore ?? [],
        timeoutMs,
      });
      const report = buildDiffReport(
        run,
        started === undefined ? mockUrl : `in-process mock (seed ${seed})`,
        liveUrl,
        baseline,
      );
      const secrets = [
        liveKey,
        mockReadKey,
        ...Object.values(writeKeys.mock),
        ...Object.values(writeKeys.live),
      ].filter((k): k is string => k !== undefined && k !== '');
      if (run.unanswered.live > 0 && !(await stillAnswers(liveUrl, timeoutMs))) {
        io.stderr(
          `cca-kit diff: live (${liveUrl}) stopped answering: ${run.unanswered.live} of ${run.requests} requests got no answer; what was compared is not a verdict\n`,
        );
        return 2;
      }
      io.stdout(renderDiffConsole(report));
      for (const side of ['mock', 'live'] as const) {
        if (run.requests > 0 && run.refused[side] === run.requests) {
          const hint = side === 'live' ? 'set CCA_READ_KEY to a Reporting key' : 'set CCA_MOCK_READ_KEY';
          io.stderr(`cca-kit diff: ${side} refused every request (401/403): nothing was compared; ${hint}\n`);
          return 2;
        }
      }
      if (values.json !== undefined) await writeFile(values.json, renderDiffJson(report, secrets));
      if (values.junit !== undefined) await writeFile(values.junit, renderDiffJunit(report, secrets));
      if (values['write-baseline'] !== undefined)
        await writeFile(values['write-baseline'], renderBaseline(report));
      return report.exitCode;
    } finally {
      await started?.close();
    }
  },
};
