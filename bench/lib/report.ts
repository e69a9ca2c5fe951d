/**
 * Renders `bench/RESULTS.md` from the section results kept in `bench/results/*.json`, so one section
 * can be re-run (the throughput when the machine is quieter) without losing the others.
 */
import type { ConformanceResult } from '../sections/conformance.ts';
import type { GarbageResult } from '../sections/garbage.ts';
import type { ScaleResult } from '../sections/scale.ts';
import type { SoakResult } from '../sections/soak.ts';
import type { StartupResult } from '../sections/startup.ts';
import type { ThroughputResult } from '../sections/throughput.ts';
import type { Machine } from './machine.ts';
import { CCA_KIT_COMPUTED, CEILING } from './servers.ts';
import { fmt } from './stats.ts';

export interface Stamped<T> {
  readonly machine: Machine;
  /** 1-minute load average when the section ended. */
  readonly loadAfter: number;
  readonly command: string;
  readonly seconds: number;
  readonly result: T;
}

export interface AllResults {
  throughput?: Stamped<ThroughputResult>;
  startup?: Stamped<StartupResult>;
  scale?: Stamped<ScaleResult>;
  conformance?: Stamped<{ default: ConformanceResult; fastModeration: ConformanceResult }>;
  garbage?: Stamped<GarbageResult>;
  soak?: Stamped<SoakResult>;
}

type Verdict = 'met' | 'MISSED' | 'not measured';

interface Target {
  readonly name: string;
  readonly goal: string;
  readonly measured: string;
  readonly verdict: Verdict;
}

const ms = (value: number | undefined) => (value === undefined ? 'n/a' : `${fmt(value, 2)} ms`);
const x = (value: number | undefined) =>
  value === undefined || !Number.isFinite(value) ? 'n/a' : `${fmt(value, 2)}×`;

function stamp(section: Stamped<unknown>): string {
  const m = section.machine;
  return `_Measured ${m.date} in ${fmt(section.seconds, 0)} s; load average (1 min) ${m.load1} before, ${section.loadAfter} after. Command: \`${section.command}\`._`;
}

function ratio(results: AllResults, route: string, versus: string, subject?: string): number | undefined {
  const row = results.throughput?.result.rows.find((r) => r.route === route);
  return row?.ratios.find((r) => r.versus === versus && r.subject === subject)?.ratio;
}

/**
 * cca-kit with `--no-answer-cache` against `versus`, derived from two pair ratios of one run:
 * (cca-kit ÷ versus) ÷ (cca-kit ÷ cca-kit without the cache).
 */
function ratioWithoutCache(results: AllResults, route: string, versus: string): number | undefined {
  const cached = ratio(results, route, versus);
  const gain = ratio(results, route, CCA_KIT_COMPUTED);
  return cached === undefined || gain === undefined ? undefined : cached / gain;
}

export function targets(results: AllResults): Target[] {
  const out: Target[] = [];
  const verdict = (value: number | undefined, ok: (v: number) => boolean): Verdict =>
    value === undefined || !Number.isFinite(value) ? 'not measured' : ok(value) ? 'met' : 'MISSED';
  const ratioTarget = (name: string, goal: string, value: number | undefined, ok: (v: number) => boolean) =>
    out.push({ name, goal, measured: x(value), verdict: verdict(value, ok) });
  const detail = ratio(results, 'detail', 'Prism static');
  ratioTarget('GET action detail vs Prism (static)', '≥ 10×', detail, (v) => v >= 10);
  const list = ratio(results, 'list', 'Prism static');
  ratioTarget('GET action list (pageSize 50) vs Prism (static)', '≥ 5×', list, (v) => v >= 5);
  const listComputed = ratioWithoutCache(results, 'list', 'Prism static');
  ratioTarget(
    'GET action list (pageSize 50), no answer cache, vs Prism (static); derived: (cca-kit/Prism) ÷ (cca-kit/no cache)',
    '≥ 5×',
    listComputed,
    (v) => v >= 5,
  );
  const rows = results.throughput?.result.rows ?? [];
  for (const route of rows.filter((r) => r.isGet)) {
    const value = ratio(results, route.route, CEILING);
    ratioTarget(`${route.label} vs the ceiling`, '≥ 0.7×', value, (v) => v >= 0.7);
  }
  // Every computed read (detail is served from per-record bytes either way): measured pair by pair
  // where the run did, derived from two pair ratios otherwise.
  for (const route of rows.filter((r) => r.isGet && r.route !== 'detail')) {
    const direct = ratio(results, route.route, CEILING, CCA_KIT_COMPUTED);
    const value = direct ?? ratioWithoutCache(results, route.route, CEILING);
    ratioTarget(
      `${route.label}, no answer cache, vs the ceiling${direct === undefined ? '; derived' : ''}`,
      '≥ 0.5×',
      value,
      (v) => v >= 0.5,
    );
  }
  for (const route of rows.filter((r) => !r.isGet)) {
    const value = ratio(results, route.route, CEILING);
    ratioTarget(`${route.label} vs the ceiling (parsing the body)`, '≥ 0.3×', value, (v) => v >= 0.3);
  }
  const startup = results.startup?.result.speedup;
  ratioTarget('Start-up vs Prism', '≥ 8× faster', startup, (v) => v >= 8);
  const points = results.scale?.result.points ?? [];
  const small = points.find((p) => p.actions === 10_000);
  const big = points.find((p) => p.actions === 1_000_000);
  for (const query of ['listDefault', 'list30Days']) {
    const a = small?.latency[query]?.p50;
    const b = big?.latency[query]?.p50;
    const value = a === undefined || b === undefined ? undefined : b / a;
    ratioTarget(
      `List p50 at 1M / at 10k (${query === 'listDefault' ? 'default window' : '30-day window'})`,
      '≤ 2×',
      value,
      (v) => v <= 2,
    );
  }
  const conf = results.conformance?.result.default;
  const confSeconds = conf?.available ? conf.seconds : undefined;
  out.push({
    name: 'Full conformance run',
    goal: '< 60 s',
    measured: confSeconds === undefined ? 'n/a' : `${fmt(confSeconds, 1)} s`,
    verdict: verdict(confSeconds, (v) => v < 60),
  });
  const garbage = results.garbage?.result;
  out.push({
    name: 'Garbage long run: 5xx and crashes',
    goal: '0 over ≥ 1,000,000',
    measured:
      garbage === undefined
        ? 'n/a'
        : `${garbage.fiveHundreds} 5xx over ${fmt(garbage.responses, 0)}, alive ${garbage.aliveAfter}`,
    verdict:
      garbage === undefined
        ? 'not measured'
        : garbage.fiveHundreds === 0 && garbage.aliveAfter && garbage.responses >= 1_000_000
          ? 'met'
          : 'MISSED',
  });
  const soak = results.soak?.result;
  out.push({
    name: 'Soak heap growth after warm-up',
    goal: soak === undefined ? 'bounded' : `≤ ${soak.boundMb} MiB over ≥ 60 s`,
    measured: soak === undefined ? 'n/a' : `${fmt(soak.growthMb, 1)} MiB over ${fmt(soak.seconds, 0)} s`,
    verdict: soak === undefined ? 'not measured' : soak.withinBound && soak.seconds >= 60 ? 'met' : 'MISSED',
  });
  return out;
}

function throughputSection(section: Stamped<ThroughputResult>): string {
  const t = section.result;
  const lines = [
    '## Throughput and latency',
    '',
    stamp(section),
    '',
    `${t.generator === 'wrk' ? 'wrk (one thread)' : 'autocannon'}, ${t.load.connections} connections, pipelining ${t.load.pipelining}, ${t.load.duration} s per run, identical for every server; ` +
      `each pair (cca-kit, other) measured in ${t.rounds} alternating rounds (cca-kit, other, cca-kit, other…); ` +
      'req/s and latencies are medians over the rounds, the ratio is the median of the per-round ratios. ' +
      (t.generator === 'wrk'
        ? "Latency percentiles are wrk's (microsecond resolution); wrk only counts non-2xx/3xx answers, so every route's status is also shown from one probe request. "
        : 'Latency percentiles come from every response time (fractional ms). ') +
      (t.pinned
        ? `Servers pinned to CPU ${t.pinned.server} and wrk to CPU ${t.pinned.generator} (taskset): the generator never takes the server's core. `
        : '**The load generator runs on the same two cores as the server under test.** ') +
      'Every server is its own process: cca-kit through its CLI (`node bin/cca-kit.js mock`), Prism 5.14 (`prism mock contract/openapi.json -v warn`, and with `--dynamic`), ' +
      "the ceiling: a bare `node:http` server answering each route with the very bytes cca-kit answered (recorded first), parsing a write's JSON body first, " +
      `and on GETs \`${CCA_KIT_COMPUTED}\`: cca-kit started with \`--no-answer-cache\`, so every read is computed on every request ` +
      '(by default the answers of list, search and the reports are remembered per window range until a row changes, and the benchmark repeats one request per route); ' +
      `\`${CCA_KIT_COMPUTED} vs ${CEILING}\` rows are that server measured against the ceiling pair by pair.`,
    '',
    '| route | server | req/s | p50 | p99 | status (probe) | body bytes | responses by status |',
    '|---|---|---:|---:|---:|---:|---:|---|',
  ];
  for (const row of t.rows) {
    for (const s of row.servers) {
      const statuses = Object.entries(s.statuses)
        .map(([k, v]) => `${k}: ${fmt(v, 0)}`)
        .join(', ');
      lines.push(
        `| ${row.label} | ${s.server} | ${fmt(s.rps, 0)} | ${ms(s.p50)} | ${ms(s.p99)} | ${s.probeStatus} | ${fmt(s.bodyBytes, 0)} | ${statuses}${s.errors > 0 ? `, errors ${s.errors}` : ''} |`,
      );
    }
  }
  lines.push(
    '',
    '### Ratios (cca-kit req/s ÷ other req/s, pair by pair)',
    '',
    '| route | vs | ratio (median) | per round |',
    '|---|---|---:|---|',
  );
  for (const row of t.rows) {
    for (const r of row.ratios) {
      lines.push(
        `| ${row.label} | ${r.subject === undefined ? '' : `${r.subject} vs `}${r.versus} | ${x(r.ratio)} | ${r.perRound.map((v) => fmt(v, 2)).join(', ')} |`,
      );
    }
  }
  if (t.ccaKitRssMb !== null)
    lines.push('', `cca-kit's resident memory at the end of the section: ${fmt(t.ccaKitRssMb, 0)} MiB.`);
  return lines.join('\n');
}

function startupSection(section: Stamped<StartupResult>): string {
  const s = section.result;
  return [
    '## Start-up',
    '',
    stamp(section),
    '',
    'From `spawn` of the process to the first 200 on `GET /v0/action/list` (polled every 10 ms), runs alternating cca-kit (CLI, seed 42, 2000 actions) and Prism static.',
    '',
    '| server | median | runs (ms) |',
    '|---|---:|---|',
    `| cca-kit | ${ms(s.ccaKitMedianMs)} | ${s.ccaKitMs.map((v) => fmt(v, 0)).join(', ')} |`,
    `| Prism static | ${ms(s.prismMedianMs)} | ${s.prismMs.map((v) => fmt(v, 0)).join(', ')} |`,
    '',
    `cca-kit starts ${x(s.speedup)} faster (median over ${s.runs} runs each).`,
  ].join('\n');
}

function scaleSection(section: Stamped<ScaleResult>): string {
  const s = section.result;
  const lines = [
    '## Scale',
    '',
    stamp(section),
    '',
    `Each size seeded in its own process (\`node --expose-gc bench/servers/scale-worker.ts N\`), clock frozen, answer cache off (\`rememberAnswers: false\`: every query computed). Latencies are through \`engine.handle\` in that process (no socket: the engine's own cost, JSON serialisation included), p50/p99 over ${s.requests} requests after 20 warm-up ones. ` +
      'Memory: `heapUsed` after two full GCs, divided by the actions; the action table is columnar (typed arrays, counted in `arrayBuffers`), so the bytes added by seeding (heap + array buffers, minus the process before seeding) are given too, and the same after the queries (lazy indexes included).',
    '',
    '| actions | seeding | heapUsed / action | seeded bytes / action | after queries / action | list p50 (default window) | list p50 (30 days) | search p50 | list p99 | search p99 | totalRecords list / 30 d / search |',
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const p of s.points) {
    const l = p.latency;
    lines.push(
      `| ${fmt(p.actions, 0)} | ${fmt(p.seedMs / 1000, 2)} s | ${fmt(p.heapPerAction ?? Number.NaN, 0)} B | ${fmt(p.seededBytesPerAction ?? Number.NaN, 0)} B | ${fmt(p.queriedBytesPerAction ?? Number.NaN, 0)} B | ${ms(l['listDefault']?.p50)} | ${ms(l['list30Days']?.p50)} | ${ms(l['search']?.p50)} | ${ms(l['listDefault']?.p99)} | ${ms(l['search']?.p99)} | ${l['listDefault']?.totalRecords ?? 'n/a'} / ${l['list30Days']?.totalRecords ?? 'n/a'} / ${l['search']?.totalRecords ?? 'n/a'} |`,
    );
  }
  const statuses = new Set(s.points.flatMap((p) => Object.values(p.latency).map((l) => l.status)));
  if ([...statuses].some((st) => st !== 200))
    lines.push('', `**Note:** some queries did not answer 200 (statuses seen: ${[...statuses].join(', ')}).`);
  return lines.join('\n');
}

function conformanceRun(c: ConformanceResult): string {
  if (!c.available) return `Not measured: ${c.reason.split('\n')[0]}`;
  return [
    `Mock: \`${c.mockCommand}\`; suite: \`${c.command}\`: **${fmt(c.seconds, 1)} s** wall time, exit code ${c.exitCode}, ` +
      `${c.checks ?? 'n/a'} checks (${c.checksPerSecond === null ? 'n/a' : fmt(c.checksPerSecond, 1)} checks/s) over ${c.laws ?? 'n/a'} laws, ${c.requests ?? 'n/a'} HTTP requests` +
      `${c.requests === null ? '' : ` (${fmt(c.requests / c.seconds, 0)} req/s)`}. Slowest laws: ${c.slowestLaws || 'n/a'}.`,
    '',
    `Rules tally: \`${c.rules === '' ? 'n/a' : c.rules}\`. Last lines of its output: ${c.summary.replace(/\|/g, '\\|')}`,
  ].join('\n');
}

function conformanceSection(
  section: Stamped<{ default: ConformanceResult; fastModeration: ConformanceResult }>,
): string {
  return [
    '## Conformance suite',
    '',
    stamp(section),
    '',
    '### Full default run against the default mock',
    '',
    conformanceRun(section.result.default),
    '',
    '### The same against a mock whose moderation cases complete after 300 ms',
    '',
    conformanceRun(section.result.fastModeration),
  ].join('\n');
}

function garbageSection(section: Stamped<GarbageResult>): string {
  const g = section.result;
  const statuses = Object.entries(g.statuses)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}: ${fmt(v, 0)}`)
    .join(', ');
  return [
    '## Garbage long run',
    '',
    stamp(section),
    '',
    `${fmt(g.responses, 0)} garbage requests answered in ${fmt(g.seconds, 0)} s (**${fmt(g.rps, 0)} req/s**), wrk (one thread) over ${g.connections} keep-alive connections, replaying raw request bytes, ` +
      `against the CLI mock with \`--self-check\` (a response that breaks the contract would be a 500). Requests are drawn in turn from ${fmt(g.pool, 0)} distinct ones generated ` +
      `by the arbitrary of \`bench/lib/garbage.ts\` (seed ${g.seed}; bodies up to 64 KiB here, odd methods included), each sent with a unique \`x-garbage-seq\` header.`,
    '',
    `- **5xx: ${g.fiveHundreds}**; server alive afterwards: ${g.aliveAfter ? 'yes (list answered 200)' : '**no**'}`,
    `- connection errors seen by wrk: ${fmt(g.socketErrors, 0)} (the server closes a connection on purpose after a 413 it did not read to the end, a header overflow or a malformed request line; wrk reconnects)`,
    `- responses by status: ${statuses}`,
  ].join('\n');
}

function soakSection(section: Stamped<SoakResult>): string {
  const s = section.result;
  return [
    '## Memory soak',
    '',
    stamp(section),
    '',
    `Sustained mixed load for ${fmt(s.seconds, 0)} s after a ${s.warmupSeconds} s warm-up: reads (list, detail, search, tags, agents), a duplicate moderation submission, a repeated ingestion batch, 404s, 401s and malformed JSON, ` +
      `${fmt(s.requests, 0)} requests (${fmt(s.rps, 0)} req/s). Heap of the mock process after two full GCs (\`--expose-gc\`, asked over IPC). Unique writes (new cases, new records) are left out: they grow the state by design.`,
    '',
    `| sample | ${s.heapMb.map((_, i) => (i === 0 ? 'start' : i === s.heapMb.length - 1 ? 'end' : String(i))).join(' | ')} |`,
    `|---|${s.heapMb.map(() => '---:').join('|')}|`,
    `| heapUsed MiB | ${s.heapMb.map((v) => fmt(v, 1)).join(' | ')} |`,
    `| RSS MiB | ${s.rssMb.map((v) => fmt(v, 0)).join(' | ')} |`,
    '',
    `Growth start → end: **${fmt(s.growthMb, 2)} MiB** (bound ${s.boundMb} MiB: ${s.withinBound ? 'within' : '**exceeded**'}).`,
  ].join('\n');
}

export function renderResults(results: AllResults, notes: readonly string[]): string {
  const any =
    results.throughput ??
    results.startup ??
    results.scale ??
    results.conformance ??
    results.garbage ??
    results.soak;
  const m = any?.machine;
  const lines = [
    '# cca-kit benchmark results',
    '',
    'Generated by `npm run bench` (`tsx bench/run.ts`); every figure below comes from the run stamped in its section. Re-run one section with `npm run bench -- --only <section>` (throughput, startup, scale, conformance, garbage, soak); the others are kept.',
    '',
    m === undefined
      ? ''
      : `Machine: ${m.nproc} CPUs (${m.cpuModel}), ${m.memoryGiB} GiB memory, Node ${m.node}, ${m.platform}. The two cores are shared with the load generator and with other work on the machine (see the load averages per section).`,
    '',
    '## Targets',
    '',
    '| target | goal | measured | verdict |',
    '|---|---|---:|---|',
    ...targets(results).map((t) => `| ${t.name} | ${t.goal} | ${t.measured} | ${t.verdict} |`),
    '',
    ...notes,
    '',
  ];
  if (results.throughput) lines.push(throughputSection(results.throughput), '');
  if (results.startup) lines.push(startupSection(results.startup), '');
  if (results.scale) lines.push(scaleSection(results.scale), '');
  if (results.conformance) lines.push(conformanceSection(results.conformance), '');
  if (results.garbage) lines.push(garbageSection(results.garbage), '');
  if (results.soak) lines.push(soakSection(results.soak), '');
  return lines.join('\n');
}
