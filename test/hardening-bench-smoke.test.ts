/**
 * Smoke test of the benchmark harness (`npm run bench`): a few hundred requests through the same code
 * paths (cca-kit started through its CLI, the node:http replay ceiling, one scale worker, the
 * RESULTS.md renderer). It asserts only that a well-formed result comes out, never a speed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderResults } from '../bench/lib/report.ts';
import type { RouteName } from '../bench/lib/routes.ts';
import { fmt } from '../bench/lib/stats.ts';
import { runScaleWorker } from '../bench/sections/scale.ts';
import { type Comparison, throughput } from '../bench/sections/throughput.ts';
import { scaled } from './support/timeouts.ts';

describe('the benchmark harness produces well-formed results', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'cca-bench-smoke-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));
  /** One short autocannon round per pair: enough to exercise the harness, never a speed. */
  const shortThroughput = (routes: RouteName[], compare: Comparison[]) =>
    throughput({
      load: { connections: 2, pipelining: 1, duration: 0.3 },
      rounds: 1,
      warmup: 0.1,
      routes,
      compare,
      generator: 'autocannon',
      outDir,
      log: () => undefined,
    });

  it(
    'throughput: cca-kit vs the ceiling on GET detail, one short round',
    async () => {
      const result = await shortThroughput(['detail'], ['ceiling']);
      expect(result.rows).toHaveLength(1);
      const row = result.rows[0];
      expect(row?.servers.map((s) => s.server)).toEqual(['cca-kit', 'node:http ceiling']);
      for (const server of row?.servers ?? []) {
        expect(server.probeStatus).toBe(200);
        expect(Object.keys(server.statuses)).toEqual(['200']);
        expect(server.rps).toBeGreaterThan(0);
        expect(Number.isFinite(server.p50) && Number.isFinite(server.p99)).toBe(true);
      }
      // The ceiling replays cca-kit's bytes: same body size.
      expect(row?.servers[0]?.bodyBytes).toBe(row?.servers[1]?.bodyBytes);
      expect(row?.ratios).toHaveLength(1);
      expect(row?.ratios[0]?.ratio).toBeGreaterThan(0);

      const machine = {
        date: new Date().toISOString(),
        nproc: 2,
        cpuModel: 'test',
        memoryGiB: 1,
        node: process.version,
        platform: 'test',
        load1: 0,
      };
      const markdown = renderResults(
        { throughput: { machine, loadAfter: 0, command: 'smoke', seconds: 1, result } },
        [],
      );
      expect(markdown).toContain('| GET action detail | cca-kit |');
      expect(markdown).toContain('| GET action detail vs the ceiling | ≥ 0.7× |');
    },
    scaled(60_000),
  );

  it(
    'throughput: cca-kit without its answer cache is a fifth server on GETs, and the derived rows are its quotients',
    async () => {
      const result = await shortThroughput(['list'], ['ceiling', 'cca-kit-computed']);
      const row = result.rows[0];
      expect(row?.servers.map((s) => s.server)).toEqual([
        'cca-kit',
        'node:http ceiling',
        'cca-kit, no answer cache',
      ]);
      // Same answers with or without the cache: the bodies have the same size.
      expect(row?.servers[2]?.probeStatus).toBe(200);
      expect(row?.servers[2]?.bodyBytes).toBe(row?.servers[0]?.bodyBytes);
      const ceiling = row?.ratios.find((r) => r.versus === 'node:http ceiling')?.ratio ?? Number.NaN;
      const gain = row?.ratios.find((r) => r.versus === 'cca-kit, no answer cache')?.ratio ?? Number.NaN;
      const machine = {
        date: '',
        nproc: 2,
        cpuModel: 'test',
        memoryGiB: 1,
        node: '',
        platform: '',
        load1: 0,
      };
      const markdown = renderResults(
        { throughput: { machine, loadAfter: 0, command: 'smoke', seconds: 1, result } },
        [],
      );
      // Measured pair by pair (the no-cache server against the ceiling) where the run did, as here;
      // derived from the two pair ratios only where it did not.
      const direct = row?.ratios.find(
        (r) => r.versus === 'node:http ceiling' && r.subject === 'cca-kit, no answer cache',
      )?.ratio;
      expect(direct).toBeTypeOf('number');
      expect(markdown).toContain(
        `| GET action list (pageSize 50), no answer cache, vs the ceiling | ≥ 0.5× | ${fmt(direct ?? Number.NaN, 2)}× |`,
      );
      expect(Number.isFinite(ceiling / gain)).toBe(true);
    },
    scaled(60_000),
  );

  it(
    'scale: one worker seeds 1,000 actions and reports timings and memory',
    async () => {
      const point = await runScaleWorker(1_000, 10);
      expect(point.actions).toBe(1_000);
      expect(point.seedMs).toBeGreaterThan(0);
      expect(point.heapPerAction).toBeGreaterThan(0);
      for (const name of ['listDefault', 'list30Days', 'search']) {
        expect(point.latency[name]?.status).toBe(200);
        expect(point.latency[name]?.p50).toBeGreaterThan(0);
      }
    },
    scaled(60_000),
  );
});
