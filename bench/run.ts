/**
 * `npm run bench`: the benchmark, in one run, on loopback.
 *
 *   npm run bench                                  # every section, then bench/RESULTS.md
 *   npm run bench -- --only throughput,startup     # some sections; the others' last results are kept
 *   npm run bench -- --quick                       # short rounds and small sizes, into bench/results/quick/
 *   npm run bench -- --only ''                     # no section: re-render RESULTS.md from the kept results
 *
 *   npm run bench -- --only compare --against a3a4501   # this checkout against another git ref
 *   (throughput and compare pin the servers and wrk to separate CPUs with taskset; --no-pin does not)
 *   npm run bench -- --only state-growth --sizes 1000000  # state growth at some log lengths only
 *
 *   npm run bench -- --only mutation --mutants 300 --mutation-seed 1 --mutation-runs 3 [--slices auth,docs] [--journal-only] [--keep-kills]
 *
 * Sections: throughput, compare, startup, scale, conformance, garbage, soak, package, package-sizes, agent, agent-paging,
 * agent-conformance, agent-budget, agent-first-call (both: `--before REF` adds that commit's figures),
 * validators, state, group-commit, state-growth, mutation. Each writes
 * `<out>/<section>.json` (machine, load, command, figures); RESULTS.md is rendered from all of them
 * plus the hand-written analysis in `bench/ANALYSIS.md`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../test/support/processes.ts';
import { machine } from './lib/machine.ts';
import { defaultPinning } from './lib/pin.ts';
import { type AllResults, renderResults, type Stamped } from './lib/report.ts';
import type { RouteName } from './lib/routes.ts';
import { benchKeys, startCcaKit } from './lib/servers.ts';
import type { MutationResult } from './mutation/run.ts';
import { type AgentResult, agentSection, renderAgent } from './sections/agent.ts';
import {
  type AgentBudgetResult,
  agentBudget,
  agentBudgetBefore,
  renderAgentBudget,
} from './sections/agent-budget.ts';
import {
  type AgentConformanceResult,
  agentConformance,
  renderAgentConformance,
} from './sections/agent-conformance.ts';
import {
  agentFirstCall,
  agentFirstCallBefore,
  type FirstCallResult,
  renderAgentFirstCall,
} from './sections/agent-first-call.ts';
import { type AgentPagingResult, agentPaging, renderAgentPaging } from './sections/agent-paging.ts';
import { type CompareResult, compare, writeCompare } from './sections/compare.ts';
import { conformance } from './sections/conformance.ts';
import { garbageLongRun } from './sections/garbage.ts';
import { type GroupCommitResult, groupCommitSection, renderGroupCommit } from './sections/group-commit.ts';
import { type MutationOptions, mutationSection, renderMutation, writeMutation } from './sections/mutation.ts';
import { type PackageResult, packageSection, renderPackage } from './sections/package.ts';
import {
  type PackageSizesResult,
  packageSizes,
  renderPackageSizes,
  writeSizeFigures,
} from './sections/package-sizes.ts';
import { scale } from './sections/scale.ts';
import { soak } from './sections/soak.ts';
import { startup } from './sections/startup.ts';
import { renderState, type StateResult, stateSection } from './sections/state.ts';
import { renderStateGrowth, type StateGrowthResult, stateGrowthSection } from './sections/state-growth.ts';
import { type Comparison, throughput } from './sections/throughput.ts';
import { renderValidators, type ValidatorsResult, validatorsSection } from './sections/validators.ts';

const SECTIONS = [
  'throughput',
  'compare',
  'startup',
  'scale',
  'conformance',
  'garbage',
  'soak',
  'package',
  'package-sizes',
  'agent',
  'agent-paging',
  'agent-conformance',
  'agent-budget',
  'agent-first-call',
  'validators',
  'state',
  'group-commit',
  'state-growth',
  'mutation',
] as const;
type Section = (typeof SECTIONS)[number];

const { values } = parseArgs({
  args: process.argv.slice(2),
  options: {
    quick: { type: 'boolean', default: false },
    only: { type: 'string' },
    routes: { type: 'string' },
    compare: { type: 'string' },
    against: { type: 'string' },
    out: { type: 'string' },
    results: { type: 'string' },
    connections: { type: 'string' },
    pipelining: { type: 'string' },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    sizes: { type: 'string' },
    generator: { type: 'string' },
    'cpu-prof': { type: 'string' },
    'garbage-connections': { type: 'string' },
    'soak-seconds': { type: 'string' },
    before: { type: 'string' },
    mutants: { type: 'string' },
    'mutation-seed': { type: 'string' },
    'mutation-runs': { type: 'string' },
    slices: { type: 'string' },
    'journal-only': { type: 'boolean', default: false },
    'keep-kills': { type: 'boolean', default: false },
    'no-pin': { type: 'boolean', default: false },
  },
});

const quick = values.quick === true;
const only = (values.only ?? SECTIONS.join(','))
  .split(',')
  .map((s) => s.trim())
  .filter((s) => s !== '');
for (const s of only)
  if (!(SECTIONS as readonly string[]).includes(s)) throw new Error(`unknown section ${s}`);
const outDir = values.out ?? join(ROOT, quick ? 'bench/results/quick' : 'bench/results');
const resultsFile = values.results ?? (quick ? join(outDir, 'RESULTS.md') : join(ROOT, 'bench/RESULTS.md'));
const int = (value: string | undefined, fallback: number) =>
  value === undefined ? fallback : Number.parseFloat(value);
const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
const log = (line: string) => process.stdout.write(`${line}\n`);

mkdirSync(outDir, { recursive: true });

async function timed<T>(section: Section, run: () => Promise<T>): Promise<void> {
  log(`== ${section}`);
  const before = machine();
  const started = performance.now();
  const result = await run();
  const stamped: Stamped<T> = {
    machine: before,
    loadAfter: Math.round((loadavg()[0] ?? 0) * 100) / 100,
    command,
    seconds: (performance.now() - started) / 1000,
    result,
  };
  writeFileSync(join(outDir, `${section}.json`), `${JSON.stringify(stamped, null, 2)}\n`);
  log(`   ${section} done in ${stamped.seconds.toFixed(0)} s`);
}

const generator = values.generator === 'autocannon' ? 'autocannon' : 'wrk';
const load = {
  connections: int(values.connections, 16),
  pipelining: int(values.pipelining, generator === 'wrk' ? 1 : 10),
  duration: int(values.duration, quick ? 1 : 2),
};

for (const section of SECTIONS.filter((s) => only.includes(s))) {
  switch (section) {
    case 'throughput':
      await timed(section, () =>
        throughput({
          load,
          rounds: int(values.rounds, quick ? 1 : 3),
          warmup: quick ? 0.5 : 1,
          outDir,
          generator,
          pin: values['no-pin'] === true ? null : defaultPinning(),
          ...(values['cpu-prof'] === undefined ? {} : { cpuProfDir: values['cpu-prof'] }),
          log,
          ...(values.routes === undefined ? {} : { routes: values.routes.split(',') as RouteName[] }),
          ...(values.compare === undefined ? {} : { compare: values.compare.split(',') as Comparison[] }),
        }),
      );
      break;
    case 'compare': {
      const against = values.against;
      if (against === undefined) throw new Error('--only compare needs --against <git ref>');
      const started = performance.now();
      log(`== compare against ${against}`);
      const result = await compare({
        against,
        rounds: int(values.rounds, quick ? 2 : 6),
        load: {
          connections: int(values.connections, 10),
          pipelining: 1,
          duration: int(values.duration, quick ? 1 : 2),
        },
        generator,
        pin: values['no-pin'] === true ? null : defaultPinning(),
        log,
      });
      // One file per compared ref: comparisons against several refs are all kept.
      const file = join(outDir, `compare-${against.replace(/[^A-Za-z0-9._-]/g, '_')}.json`);
      writeFileSync(
        file,
        `${JSON.stringify({ command, seconds: (performance.now() - started) / 1000, result }, null, 2)}\n`,
      );
      log(`   compare done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
      break;
    }
    case 'startup': {
      const mock = await startCcaKit({ seed: 42 });
      const keys = await benchKeys(mock.url);
      await mock.stop();
      await timed(section, () => startup({ runs: quick ? 2 : 5, keys, log }));
      break;
    }
    case 'state':
      await timed(section, () =>
        stateSection({ connections: int(values.connections, 16), seconds: quick ? 2 : 5, log }),
      );
      break;
    case 'group-commit':
      await timed(section, () =>
        groupCommitSection({
          writers: 16,
          readers: 4,
          seconds: quick ? 2 : 3,
          rounds: quick ? 1 : 3,
          // The section's own default is autocannon (its earlier figures); `--generator wrk` asks for wrk.
          generator: values.generator === 'wrk' ? 'wrk' : 'autocannon',
          log,
        }),
      );
      break;
    case 'state-growth':
      await timed(section, () =>
        stateGrowthSection({
          sizes:
            values.sizes === undefined
              ? quick
                ? [1_000, 10_000]
                : [10_000, 100_000, 1_000_000]
              : values.sizes.split(',').map((n) => Number.parseInt(n, 10)),
          log,
        }),
      );
      break;
    case 'scale':
      await timed(section, () =>
        scale({
          sizes: quick ? [10_000, 100_000] : [10_000, 100_000, 1_000_000],
          requests: quick ? 50 : 300,
          log,
        }),
      );
      break;
    case 'conformance':
      await timed(section, async () => ({
        default: await conformance({ seed: 42, log }),
        fastModeration: await conformance({ seed: 42, moderationLatency: '300', log }),
      }));
      break;
    case 'garbage':
      await timed(section, () =>
        garbageLongRun({
          target: quick ? 20_000 : 1_000_000,
          pool: quick ? 2_000 : 50_000,
          maxSeconds: quick ? 60 : 480,
          seed: 42,
          chunkSeconds: quick ? 5 : 30,
          connections: int(values['garbage-connections'], 16),
          ...(values['cpu-prof'] === undefined ? {} : { cpuProfDir: values['cpu-prof'] }),
          log,
        }),
      );
      break;
    case 'soak':
      await timed(section, () =>
        soak({
          seconds: int(values['soak-seconds'], quick ? 10 : 60),
          warmupSeconds: quick ? 3 : 10,
          intervalSeconds: quick ? 5 : 10,
          boundMb: 16,
          connections: 10,
          pipelining: 4,
          log,
        }),
      );
      break;
    case 'package':
      await timed(section, () => packageSection({ runs: quick ? 3 : 7, log }));
      break;
    case 'package-sizes':
      await timed(section, async () => {
        const result = await packageSizes({ log });
        // The docs quote what a user measures: never a figure typed by hand, never a quick run's.
        if (!quick)
          for (const doc of writeSizeFigures(ROOT, result)) log(`   ${doc}: size figures rewritten`);
        return result;
      });
      break;
    case 'agent':
      await timed(section, () =>
        agentSection({ runs: quick ? 20 : 200, actions: quick ? 5_000 : 17_000, log }),
      );
      break;
    case 'agent-paging':
      await timed(section, () =>
        agentPaging({ actions: 10_000, engineActions: quick ? 32_000 : 40_000, log }),
      );
      break;
    case 'agent-conformance':
      await timed(section, () => agentConformance({ seeds: quick ? [1] : [1, 2, 3], runs: 10, log }));
      break;
    case 'agent-budget':
      await timed(section, async () => {
        const after = await agentBudget({ log });
        const before = values.before === undefined ? undefined : await agentBudgetBefore(values.before);
        return { ...after, ...(before === undefined ? {} : { before }) };
      });
      break;
    case 'agent-first-call':
      await timed(section, async () => {
        const runs = quick ? 2 : 5;
        const after = await agentFirstCall({ runs, log });
        const before =
          values.before === undefined ? undefined : await agentFirstCallBefore(values.before, runs);
        return { ...after, ...(before === undefined ? {} : { before }) };
      });
      break;
    case 'mutation': {
      const options: MutationOptions = {
        mutants: int(values.mutants, quick ? 20 : 200),
        seed: int(values['mutation-seed'], 1),
        runs: int(values['mutation-runs'], 3),
        slices: (values.slices ?? '').split(',').filter((s) => s !== ''),
        journalOnly: values['journal-only'] === true,
        keepKills: values['keep-kills'] === true,
        log,
      };
      await timed(section, () => mutationSection(options));
      break;
    }
    case 'validators':
      await timed(section, () => validatorsSection({ ms: quick ? 200 : 1000, log }));
      break;
  }
}

const all: AllResults = {};
for (const section of SECTIONS) {
  const file = join(outDir, `${section}.json`);
  if (existsSync(file)) Object.assign(all, { [section]: JSON.parse(readFileSync(file, 'utf8')) });
}
const analysisFile = join(ROOT, 'bench/ANALYSIS.md');
const notes = quick || !existsSync(analysisFile) ? [] : [readFileSync(analysisFile, 'utf8').trim()];
/** The rendered section of one measured result file, if the section was ever run into this folder. */
function sectionNote<T>(section: Section, render: (result: T, stamp: string) => string, detail = ''): void {
  const file = join(outDir, `${section}.json`);
  if (!existsSync(file)) return;
  const measured = JSON.parse(readFileSync(file, 'utf8')) as Stamped<T>;
  const stamp = `_Command: \`${measured.command}\`; ${measured.seconds.toFixed(0)} s${detail
    .replaceAll('{cores}', String(measured.machine.nproc))
    .replaceAll('{load}', String(measured.machine.load1))
    .replaceAll('{loadAfter}', String(measured.loadAfter))}._`;
  notes.push(render(measured.result, stamp));
}
sectionNote<PackageResult>('package', renderPackage);
sectionNote<PackageSizesResult>('package-sizes', renderPackageSizes);
sectionNote<AgentResult>(
  'agent',
  renderAgent,
  '; {cores} cores, load average {load} before, {loadAfter} after',
);
sectionNote<AgentPagingResult>('agent-paging', renderAgentPaging);
sectionNote<StateResult>('state', renderState);
sectionNote<GroupCommitResult>('group-commit', renderGroupCommit, '; load average {load} before');
sectionNote<StateGrowthResult>('state-growth', renderStateGrowth);
sectionNote<AgentConformanceResult>(
  'agent-conformance',
  renderAgentConformance,
  '; {cores} cores, load average {load} before',
);
sectionNote<ValidatorsResult>('validators', renderValidators, '; load average {load} before');
sectionNote<FirstCallResult & { readonly before?: FirstCallResult }>(
  'agent-first-call',
  renderAgentFirstCall,
  '; {cores} cores, load average {load} before',
);
sectionNote<AgentBudgetResult & { readonly before?: AgentBudgetResult }>(
  'agent-budget',
  renderAgentBudget,
  '; {cores} cores, load average {load} before',
);
// A comparison or a mutation run alone leaves the other sections' tables as they are (their results may live elsewhere).
if (only.some((s) => s !== 'compare' && s !== 'mutation') || !existsSync(resultsFile))
  writeFileSync(resultsFile, renderResults(all, notes));
for (const file of readdirSync(outDir)
  .filter((f) => /^compare-.*\.json$/.test(f))
  .sort()) {
  writeCompare(
    resultsFile,
    (JSON.parse(readFileSync(join(outDir, file), 'utf8')) as { result: CompareResult }).result,
  );
}
const mutationFile = join(outDir, 'mutation.json');
if (existsSync(mutationFile)) {
  const measured = JSON.parse(readFileSync(mutationFile, 'utf8')) as Stamped<MutationResult>;
  writeMutation(
    resultsFile,
    renderMutation(
      measured.result,
      `_Command: \`${measured.command}\`; ${measured.seconds.toFixed(0)} s; ${measured.machine.nproc} cores, load average ${measured.machine.load1} before, ${measured.loadAfter} after._`,
    ),
  );
}
log(`wrote ${resultsFile}`);
