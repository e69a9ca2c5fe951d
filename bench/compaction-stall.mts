/**
 * How long a compaction of a state file holds the event loop: writes N commands of the state-growth
 * mix (bench/sections/state-growth.ts) to a log, opens it with a snapshot due at the next write, then
 * makes that write and reports how long it took to answer, how long until the compaction was done
 * (the store closed), and the longest event-loop delay seen meanwhile (`monitorEventLoopDelay`).
 *
 * With `replica` (the default, as `cca-kit mock --state-file` runs) the image is captured by the
 * compaction replica in a worker thread; with `inline`, on the event loop.
 *
 *   npx tsx bench/compaction-stall.mts [commands=50000] [replica|inline]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { openStateFile } from '../mocks/engine/store/file.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';
import { writeGrowthLog } from './sections/state-growth.ts';

const n = Number.parseInt(process.argv[2] ?? '50000', 10);
const capture = process.argv[3] ?? 'replica';
if (capture !== 'replica' && capture !== 'inline') throw new Error('capture: replica or inline');
const dir = mkdtempSync(join(tmpdir(), 'ct-'));
const file = join(dir, 's.state');
const options = { seed: 42, clock: 'frozen' as const };
await writeGrowthLog(file, n);
const whole = await createPersistentEngine(options, (d, p, replica) =>
  openStateFile(file, d, p, { snapshotEvery: n + 1, ...(capture === 'replica' ? { replica } : {}) }),
);
// The replica replays the log in its own thread at start (about 1 s at 20,000 lines): measured once it
// has, or the first capture waits for it.
if (capture === 'replica') await new Promise((done) => setTimeout(done, 4000));
const h = monitorEventLoopDelay({ resolution: 1 });
h.enable();
const t = performance.now();
await whole.engine.execute({
  type: 'organization.moderationMode',
  organizationId: 'org_globex',
  mode: 'standard',
} as never);
const ms = performance.now() - t;
// The process's resident memory (a worker's heap included) once the compaction's write is answered.
const rss = process.memoryUsage().rss / 2 ** 20;
await whole.store.close();
const total = performance.now() - t;
h.disable();
console.log(
  `${n} (${capture}): write that compacts ${ms.toFixed(0)} ms, compaction done in ${total.toFixed(0)} ms; max loop delay ${(h.max / 1e6).toFixed(0)} ms; rss ${rss.toFixed(0)} MiB; snapshot ${JSON.stringify((await whole.store.health()).snapshot)}, captured ${capture === 'replica' && (await whole.store.health()).replicaFailure === 'the compaction replica was closed' ? 'by the replica' : 'on the event loop'}`,
);
rmSync(dir, { recursive: true, force: true });
