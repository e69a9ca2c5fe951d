/**
 * Start-up from a snapshot, in process: writes N commands of the state-growth mix (bench/sections/
 * state-growth.ts) to a --state-file log, makes one snapshot of them, then times opening the file
 * again (the snapshot loaded, nothing replayed) and the heap after. Run with --cpu-prof to see where it goes.
 *
 *   npx tsx bench/snapshot-profile.mts 100000 [dir]
 */
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStateFile } from '../mocks/engine/store/file.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';
import { writeGrowthLog } from './sections/state-growth.ts';

const n = Number.parseInt(process.argv[2] ?? '100000', 10);
const dir = process.argv[3] ?? mkdtempSync(join(tmpdir(), 'snap-prof-'));
const file = join(dir, `growth-${n}.state`);
const options = { seed: 42, clock: 'frozen' as const };
let exists = false;
try {
  exists = statSync(`${file}.snapshot`).size > 0;
} catch {}
if (!exists) {
  await writeGrowthLog(file, n);
  // Replays the log; the interval is the log's length, so the first write after it compacts.
  const whole = await createPersistentEngine(options, (d, p) =>
    openStateFile(file, d, p, { snapshotEvery: 1 }),
  );
  await whole.engine.execute({
    type: 'organization.moderationMode',
    organizationId: 'org_globex',
    mode: 'standard',
  } as never);
  await whole.store.close();
  console.log(`log and snapshot written in ${dir}`);
}
globalThis.gc?.();
const before = process.memoryUsage();
const t = performance.now();
const opened = await createPersistentEngine(options, (d, p) =>
  openStateFile(file, d, p, { snapshotEvery: 0 }),
);
const ms = performance.now() - t;
globalThis.gc?.();
const after = process.memoryUsage();
console.log(
  `${n}: start from snapshot ${ms.toFixed(0)} ms; heap ${((after.heapUsed - before.heapUsed) / 2 ** 20).toFixed(1)} MiB; rss ${(after.rss / 2 ** 20).toFixed(1)} MiB; snapshot ${(statSync(`${file}.snapshot`).size / 2 ** 20).toFixed(1)} MiB; notes ${JSON.stringify(opened.notes)}`,
);
await opened.store.close();
