/**
 * The conformance suite's own speed: wall time of a full default `cca-kit conform` run against a local
 * mock (started through the CLI), and checks per second from its JSON report.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, run } from '../../test/support/processes.ts';
import { startCcaKit } from '../lib/servers.ts';

export type ConformanceResult =
  | {
      readonly available: true;
      readonly seconds: number;
      readonly exitCode: number;
      readonly checks: number | null;
      readonly checksPerSecond: number | null;
      readonly requests: number | null;
      readonly laws: number | null;
      /** The report's rule tally, as JSON. */
      readonly rules: string;
      readonly mockCommand: string;
      /** The laws that took longest, `lawId ms`. */
      readonly slowestLaws: string;
      readonly summary: string;
      readonly command: string;
    }
  | { readonly available: false; readonly reason: string };

interface KeyRow {
  readonly key: string;
  readonly organizationId: string;
  readonly profile: string;
  readonly status: string;
}

/** The figures of the JSON report (`checks`, `requests`, laws and rules), whatever else it holds. */
interface Figures {
  checks: number | null;
  requests: number | null;
  laws: number | null;
  rules: string;
  slowest: string;
}

function figuresOf(report: unknown): Figures {
  if (typeof report !== 'object' || report === null)
    return { checks: null, requests: null, laws: null, rules: '', slowest: '' };
  const r = report as Record<string, unknown>;
  const num = (v: unknown) => (typeof v === 'number' ? v : null);
  const summary = r['summary'] as { rules?: Record<string, unknown> } | undefined;
  return {
    checks: num(r['checks']),
    requests: num(r['requests']),
    laws: Array.isArray(r['laws']) ? r['laws'].length : null,
    rules: summary?.rules === undefined ? '' : JSON.stringify(summary.rules),
    slowest: Array.isArray(r['laws'])
      ? (r['laws'] as { lawId?: string; durationMs?: number }[])
          .slice()
          .sort((a, b) => (b.durationMs ?? 0) - (a.durationMs ?? 0))
          .slice(0, 3)
          .map((l) => `${l.lawId} ${Math.round(l.durationMs ?? 0)} ms`)
          .join(', ')
      : '',
  };
}

export async function conformance(options: {
  seed: number;
  /** `--moderation-latency` of the mock (default: the mock's own, 3000 ms). */
  moderationLatency?: string;
  log: (line: string) => void;
}): Promise<ConformanceResult> {
  const help = await run(process.execPath, [`${ROOT}bin/cca-kit.js`, 'conform', '--help'], 60_000);
  if (help.code !== 0)
    return {
      available: false,
      reason: `cca-kit conform --help exited ${help.code}: ${help.stderr.slice(0, 300)}`,
    };
  const mock = await startCcaKit({
    seed: 42,
    ...(options.moderationLatency === undefined ? {} : { moderationLatency: options.moderationLatency }),
  });
  const report = join(tmpdir(), `cca-conform-${process.pid}.json`);
  try {
    const listing = (await (await fetch(`${mock.url}/__mock/keys`)).json()) as { keys: KeyRow[] };
    const orgs = (await (await fetch(`${mock.url}/__mock/organizations`)).json()) as {
      organizations: { id: string; moderationMode: string }[];
    };
    const adPolicy = orgs.organizations.find((o) => o.moderationMode === 'ad_policy')?.id;
    const other = orgs.organizations.find((o) => o.moderationMode !== 'ad_policy')?.id;
    const key = (org: string | undefined, profile: string) =>
      listing.keys.find((k) => k.organizationId === org && k.profile === profile && k.status === 'active')
        ?.key ?? '';
    const env = {
      ...process.env,
      CCA_READ_KEY: key(adPolicy, 'reporting'),
      CCA_WRITE_KEY: key(adPolicy, 'write'),
      CCA_INGEST_KEY: key(adPolicy, 'import'),
      CCA_OTHER_ORG_READ_KEY: key(other, 'reporting'),
      CCA_NO_MODERATION_WRITE_KEY: key(other, 'write'),
    };
    const args = [
      `${ROOT}bin/cca-kit.js`,
      'conform',
      '--base-url',
      mock.url,
      '--seed',
      String(options.seed),
      '--json',
      report,
      '--quiet',
    ];
    const { execFile } = await import('node:child_process');
    const started = performance.now();
    const outcome = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        args,
        { cwd: ROOT, env, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
        },
      );
    });
    const seconds = (performance.now() - started) / 1000;
    let figures: Figures = { checks: null, requests: null, laws: null, rules: '', slowest: '' };
    try {
      figures = figuresOf(JSON.parse(readFileSync(report, 'utf8')));
    } catch {
      // no report: the figures stay unknown
    }
    const checks = figures.checks;
    const summary = outcome.stdout.trim().split('\n').slice(-3).join(' / ');
    options.log(
      `  conformance: ${seconds.toFixed(1)} s, exit ${outcome.code}, checks ${checks ?? 'n/a'}, requests ${figures.requests ?? 'n/a'}`,
    );
    return {
      available: true,
      seconds,
      exitCode: outcome.code,
      checks,
      checksPerSecond: checks === null ? null : checks / seconds,
      requests: figures.requests,
      laws: figures.laws,
      rules: figures.rules,
      summary: summary.slice(0, 400),
      mockCommand: `node bin/cca-kit.js mock --port PORT --seed 42${options.moderationLatency === undefined ? '' : ` --moderation-latency ${options.moderationLatency}`}`,
      slowestLaws: figures.slowest,
      command: `CCA_*_KEY=… node bin/cca-kit.js conform --base-url ${mock.url.replace(/:\d+$/, ':PORT')} --seed ${options.seed} --json report.json --quiet`,
    };
  } finally {
    rmSync(report, { force: true });
    await mock.stop();
  }
}
