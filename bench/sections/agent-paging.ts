/**
 * Paging 10,000 actions through `query.search.actions` cursors, in process (the registry, no transport),
 * the way an export resumes page by page: the first walk over rows nothing has read yet (derivation of
 * every record), then warm walks; unfiltered and filtered; limit 100 and 20. Also the latency of one
 * page and the throughput while records are ingested mid-walk. Target: at least 20,000 items/s.
 *
 *   npm run bench -- --only agent-paging
 */
import { createOperationRegistry } from '../../mocks/agent/operations/index.ts';
import type { AgentContext } from '../../mocks/agent/types.ts';
import { MockClock } from '../../mocks/engine/clock.ts';
import { createEngine, type Engine } from '../../mocks/engine/engine.ts';
import { percentileOfSorted } from '../lib/stats.ts';

export interface PagingRun {
  readonly label: string;
  readonly limit: number;
  readonly items: number;
  readonly pages: number;
  readonly itemsPerSecond: number;
  readonly pageP50Ms: number;
  readonly pageP99Ms: number;
}

export interface AgentPagingResult {
  readonly actions: number;
  readonly target: number;
  readonly runs: readonly PagingRun[];
}

const START = Date.parse('2026-11-20T12:00:00Z');

function contextOf(engine: Engine): AgentContext {
  return {
    engine,
    identity: {
      organizationId: 'org_acme',
      keyName: 'bench',
      profile: 'read_write',
      scopes: ['read', 'write'],
    },
    publicOrigin: null,
    signal: new AbortController().signal,
  };
}

export async function agentPaging(options: {
  readonly actions: number;
  readonly engineActions: number;
  readonly log: (line: string) => void;
}): Promise<AgentPagingResult> {
  const engine = createEngine({ actions: options.engineActions, clock: new MockClock({ start: START }) });
  const registry = createOperationRegistry();
  const ctx = contextOf(engine);
  const everything = { dateRange: { from: '2000-01-01' } };
  // Compiles the catalog's validators once: start-up, not paging.
  await registry.call(ctx, 'query.search.actions', { limit: 1 });

  const walk = async (
    label: string,
    input: Record<string, unknown>,
    between?: (page: number) => Promise<void>,
  ) => {
    const times: number[] = [];
    let items = 0;
    let cursor: string | null = null;
    do {
      const p0 = performance.now();
      const outcome = await registry.call(
        ctx,
        'query.search.actions',
        cursor === null ? input : { ...input, cursor },
      );
      times.push(performance.now() - p0);
      if (!outcome.ok) throw new Error(`search failed: ${outcome.failure.message}`);
      const page = outcome.value as { items: unknown[]; nextCursor: string | null };
      items += page.items.length;
      cursor = page.nextCursor;
      if (between !== undefined) await between(times.length);
    } while (cursor !== null && items < options.actions);
    // Items per second of paging time only: the ingestion between pages is not paging.
    const seconds = times.reduce((a, b) => a + b, 0) / 1000;
    times.sort((a, b) => a - b);
    const run: PagingRun = {
      label,
      limit: Number(input['limit']),
      items,
      pages: times.length,
      itemsPerSecond: items / seconds,
      pageP50Ms: percentileOfSorted(times, 50),
      pageP99Ms: percentileOfSorted(times, 99),
    };
    options.log(
      `  ${label}: ${items} items, ${Math.round(run.itemsPerSecond)} items/s, page p50 ${run.pageP50Ms.toFixed(2)} ms`,
    );
    return run;
  };

  const runs: PagingRun[] = [];
  runs.push(
    await walk('first walk (records derived on first read), limit 100', { ...everything, limit: 100 }),
  );
  runs.push(await walk('warm, limit 100', { ...everything, limit: 100 }));
  runs.push(await walk('warm, limit 20 (the default)', { ...everything, limit: 20 }));
  const filter = {
    filterType: 'and',
    filters: [{ filterType: 'status', operator: 'in', value: ['OPEN', 'PENDING', 'CLOSED'] }],
  };
  runs.push(await walk('warm, status filter, limit 100', { ...everything, filter, limit: 100 }));
  const key = engine.admin.createKey({ organizationId: 'org_acme', profile: 'import', expiry: 'none' }).key;
  let batch = 0;
  runs.push(
    await walk(
      'warm, limit 100, a 50-record ingestion batch landing every 10 pages',
      { ...everything, limit: 100 },
      async (page) => {
        if (page % 10 !== 0) return;
        batch++;
        const records = Array.from({ length: 50 }, (_, i) => ({
          externalId: `bench-${batch}-${i}`,
          authorId: '1',
          authorName: 'Bench',
          body: 'mid-walk record',
          createdAt: new Date(START - (batch * 50 + i) * 3_600_000).toISOString(),
          recordType: 'message',
        }));
        const response = await engine.handle(
          new Request('http://bench/v0/ingest/records', {
            method: 'POST',
            headers: { 'x-api-key': key, 'content-type': 'application/json' },
            body: JSON.stringify({ platform: 'DISCORD', serverId: '1', serverName: 'Bench', records }),
          }),
        );
        if (response.status !== 202) throw new Error(`ingestion answered ${response.status}`);
        engine.admin.advanceClock(500);
      },
    ),
  );
  return { actions: options.actions, target: 20_000, runs };
}

export function renderAgentPaging(result: AgentPagingResult, stamp: string): string {
  return [
    '## Agent paging: query.search.actions through cursors, in process',
    '',
    stamp,
    '',
    `Up to ${result.actions.toLocaleString('en')} actions of one organization followed through \`nextCursor\` with the registry (\`mocks/agent/operations/\`, input validation, HMAC cursors, records built by the REST view); each run starts from the first page. Items/s over the time spent in the calls (the ingestion between pages excluded).`,
    '',
    '| walk | items | pages | items/s | page p50 | page p99 | target |',
    '|---|---|---|---|---|---|---|',
    ...result.runs.map(
      (r) =>
        `| ${r.label} | ${r.items} | ${r.pages} | **${Math.round(r.itemsPerSecond).toLocaleString('en')}** | ${r.pageP50Ms.toFixed(2)} ms | ${r.pageP99Ms.toFixed(2)} ms | ${r.itemsPerSecond >= result.target ? 'met' : 'MISSED'} (≥ ${result.target.toLocaleString('en')}) |`,
    ),
  ].join('\n');
}
