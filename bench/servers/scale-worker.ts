/**
 * One size of the scale section, in its own process so sizes never share a heap:
 *
 *   node --expose-gc --import tsx bench/servers/scale-worker.ts <actions> <requests>
 *
 * Seeds an engine with <actions> actions (timed), measures the heap after a full GC, then times
 * <requests> calls of each query through `engine.handle` (in-process: no socket, so the figure is the
 * engine's own cost, serialisation included). Prints one JSON line.
 */
import { createEngine } from '../../mocks/engine/index.ts';
import { percentileOfSorted } from '../lib/stats.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with --expose-gc');

const actions = Number.parseInt(process.argv[2] ?? '10000', 10);
const requests = Number.parseInt(process.argv[3] ?? '200', 10);

/** heapUsed, and the typed arrays of the columnar action table (off the JS heap, in arrayBuffers). */
function memory(): { heap: number; arrayBuffers: number } {
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  return { heap: usage.heapUsed, arrayBuffers: usage.arrayBuffers };
}

const before = memory();
const t0 = performance.now();
// Answers computed on every request: the point is the cost of a window query at each size, not the
// answer cache (which would serve the repeated requests below from memory).
const engine = createEngine({ seed: 42, actions, clock: 'frozen', rememberAnswers: false });
const seedMs = performance.now() - t0;
const seeded = memory();

const org = engine.admin.listOrganizations()[0];
const key = engine.admin.listKeys(org?.id).find((k) => k.profile === 'read_write' && k.status === 'active');
if (key === undefined) throw new Error('no active read_write key');
const now = engine.clock.now();
const day = 86_400_000;
const from30 = new Date(now - 30 * day).toISOString();
const to = new Date(now).toISOString();

const queries = {
  listDefault: '/v0/action/list?pageSize=50',
  list30Days: `/v0/action/list?pageSize=50&from=${from30}&to=${to}`,
  search: '/v0/conversations/search?pageSize=50',
} as const;

async function call(path: string): Promise<{ status: number; text: string }> {
  const response = await engine.handle(
    new Request(`http://mock.local${path}`, { headers: { 'x-api-key': key?.key ?? '' } }),
  );
  return { status: response.status, text: await response.text() };
}

const latency: Record<string, { p50: number; p99: number; status: number; totalRecords: number | null }> = {};
for (const [name, path] of Object.entries(queries)) {
  const first = await call(path);
  const parsed = JSON.parse(first.text) as { totalRecords?: number };
  for (let i = 0; i < 20; i++) await call(path);
  const times: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    await call(path);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  latency[name] = {
    p50: percentileOfSorted(times, 50),
    p99: percentileOfSorted(times, 99),
    status: first.status,
    totalRecords: parsed.totalRecords ?? null,
  };
}

// Indexes or caches built lazily by the first queries count too.
const queried = memory();
const per = (bytes: number) => (actions === 0 ? null : bytes / actions);
process.stdout.write(
  `${JSON.stringify({
    actions,
    seedMs,
    heapBytes: seeded.heap,
    heapPerAction: per(seeded.heap),
    /** Heap + array buffers added by seeding (modules and the compiled contract excluded). */
    seededBytesPerAction: per(seeded.heap + seeded.arrayBuffers - before.heap - before.arrayBuffers),
    /** The same after the timed queries (lazy indexes and caches included). */
    queriedBytesPerAction: per(queried.heap + queried.arrayBuffers - before.heap - before.arrayBuffers),
    arrayBufferBytes: queried.arrayBuffers,
    latency,
  })}\n`,
);
