/**
 * Replay cost of a --state-file log: writes N commands of the given kinds (mod, ing, cf) through a
 * persistent engine, then times opening it again (replay) and the heap after.
 *
 *   npx tsx bench/replay-profile.mts ing,mod 2000,4000
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { openStateFile } from '../mocks/engine/store/file.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';

const kinds = (process.argv[2] ?? 'mod').split(',');
const sizes = (process.argv[3] ?? '2000,4000').split(',').map((s) => Number.parseInt(s, 10));
for (const n of sizes) {
  const file = join(mkdtempSync(join(tmpdir(), 'prof-')), 's.state');
  const opts = { seed: 42, clock: 'real' as const };
  const a = await createPersistentEngine(opts, (d, p) => openStateFile(file, d, p));
  let t = performance.now();
  for (let i = 0; i < n; i++) {
    const kind = kinds[i % kinds.length];
    const cmd =
      kind === 'mod'
        ? {
            type: 'moderation.submit',
            organizationId: 'org_acme',
            submission: sampleSubmission({ externalId: `e-${i}` }),
          }
        : kind === 'ing'
          ? {
              type: 'ingestion.batch',
              organizationId: 'org_acme',
              batch: {
                platform: 'DISCORD',
                serverId: '42',
                serverName: 'G',
                records: [
                  {
                    externalId: `r${i}`,
                    threadExternalId: `t${i % 50}`,
                    authorId: '1',
                    authorName: 'a',
                    body: 'b',
                    createdAt: '2026-11-20T10:00:00Z',
                    recordType: 'message',
                  },
                ],
              },
            }
          : {
              type: 'customFields.update',
              organizationId: 'org_acme',
              actionId: a.engine.state.data ? 'x' : 'x',
              fields: {},
              keyName: 'k',
            };
    try {
      await a.engine.execute(cmd as never);
    } catch {}
  }
  console.log('write', n, Math.round(performance.now() - t));
  await a.store.close();
  t = performance.now();
  const b = await createPersistentEngine(opts, (d, p) => openStateFile(file, d, p));
  console.log(
    kinds.join(','),
    'replay',
    n,
    Math.round(performance.now() - t),
    'ms',
    Math.round(process.memoryUsage().heapUsed / 1e6),
    'MB',
  );
  await b.store.close();
}
