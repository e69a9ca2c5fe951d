/**
 * The CPU a compaction replica adds per write: N moderation cases through a persistent engine on a
 * state file, with the replica and without, snapshots off (so only the replica's following is
 * measured). Prints the process's CPU time (every thread) per write for each, and the difference.
 *
 *   npx tsx bench/replica-cpu.mts [writes=20000] [rounds=2]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { openStateFile } from '../mocks/engine/store/file.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';

const writes = Number.parseInt(process.argv[2] ?? '20000', 10);
const rounds = Number.parseInt(process.argv[3] ?? '2', 10);
if (!Number.isSafeInteger(writes) || writes < 1 || !Number.isSafeInteger(rounds) || rounds < 1)
  throw new Error('usage: replica-cpu.mts [writes ≥ 1] [rounds ≥ 1]');
const dir = mkdtempSync(join(tmpdir(), 'cca-replica-cpu-'));

async function run(withReplica: boolean, round: number): Promise<number> {
  const file = join(dir, `${withReplica ? 'replica' : 'inline'}-${round}.state`);
  const opened = await createPersistentEngine({ seed: 42, clock: 'real' }, (describe, proposal, replica) =>
    openStateFile(file, describe, proposal, { snapshotEvery: 0, ...(withReplica ? { replica } : {}) }),
  );
  // Let a replica finish loading: its start is not what is measured.
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const before = process.cpuUsage();
  // Four writes a turn, as the HTTP adapter starts them under load.
  for (let i = 0; i < writes; i += 4) {
    const turn: Promise<unknown>[] = [];
    for (let j = i; j < Math.min(writes, i + 4); j++) {
      turn.push(
        opened.engine.execute({
          type: 'moderation.submit',
          organizationId: 'org_acme',
          submission: sampleSubmission({ externalId: `rc-${round}-${j}` }),
        } as never),
      );
    }
    await Promise.all(turn);
    await new Promise((resolve) => setImmediate(resolve));
  }
  // Wait until the replica has applied everything (the health answer's count), then close.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const used = process.cpuUsage(before);
  await opened.store.close();
  return (used.user + used.system) / writes;
}

try {
  for (let round = 1; round <= rounds; round++) {
    const inline = await run(false, round);
    const replica = await run(true, round);
    console.log(
      `round ${round}: ${inline.toFixed(1)} µs CPU a write without the replica, ${replica.toFixed(1)} with it (+${(replica - inline).toFixed(1)})`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
