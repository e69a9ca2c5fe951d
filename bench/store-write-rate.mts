/**
 * The write rate of the stores, one mock at a time: 16 wrk writers (`POST /v0/moderation/cases`, a new
 * externalId each) for 4 s after 1 s of warm-up, against the built CLI in memory and with a state file
 * captured by the replica or on the event loop, with snapshots on or off. Variants alternate round by
 * round, each a fresh process, so a busy moment of the machine falls on all alike. What the
 * group-commit section does not separate: how much of a state file's cost is the replica's second
 * apply of every write (on two cores, it takes CPU the writers would have had).
 *
 *   npx tsx bench/store-write-rate.mts [rounds=2] [variant...]
 *
 * Variants: memory, file, file-inline, file-no-snapshots, file-inline-no-snapshots. Prints one line
 * per run, then the writes a second of every round per variant as JSON.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { mockKeys } from '../suites/target.ts';
import { startMock } from '../test/support/state-processes.ts';
import { runWrk, type WrkRequest } from './lib/wrk.ts';

const keys = mockKeys();
const marker = 'store-write-rate-marker';
const [prefix = '', suffix = ''] = JSON.stringify(sampleSubmission({ externalId: marker })).split(marker);
const request = (tag: string): WrkRequest => ({
  method: 'POST',
  path: '/v0/moderation/cases',
  headers: { 'x-api-key': keys.write ?? '', 'content-type': 'application/json' },
  unique: { prefix: `${prefix}swr-`, suffix, tag },
});

const dir = mkdtempSync(join(tmpdir(), 'cca-store-write-rate-'));
const NO_SNAPSHOTS = { CCA_MOCK_SNAPSHOT_EVERY: '0' };
const INLINE = { CCA_MOCK_COMPACTION: 'inline' };
const variants: Record<string, { file: boolean; env: Record<string, string> }> = {
  memory: { file: false, env: {} },
  file: { file: true, env: {} },
  'file-inline': { file: true, env: INLINE },
  'file-no-snapshots': { file: true, env: NO_SNAPSHOTS },
  'file-inline-no-snapshots': { file: true, env: { ...INLINE, ...NO_SNAPSHOTS } },
};

const [roundsText, ...picked] = process.argv.slice(2);
const rounds = Number.parseInt(roundsText ?? '2', 10);
if (!Number.isSafeInteger(rounds) || rounds < 1)
  throw new Error(`rounds must be a whole number ≥ 1, got ${roundsText}`);
const unknown = picked.filter((name) => !(name in variants));
if (unknown.length > 0)
  throw new Error(`unknown variants ${unknown.join(', ')}; one of ${Object.keys(variants).join(', ')}`);
const chosen = picked.length > 0 ? picked : Object.keys(variants);

const rates: Record<string, number[]> = {};
try {
  for (let round = 1; round <= rounds; round++) {
    for (const name of chosen) {
      const variant = variants[name] as (typeof variants)[string];
      // The mock inherits this process's environment: set the variant's for its start only.
      const saved = { ...process.env };
      Object.assign(process.env, variant.env);
      const mock = await startMock([
        '--seed',
        '42',
        ...(variant.file ? ['--state-file', join(dir, `${name}-${round}.state`)] : []),
      ]).finally(() => {
        process.env = saved;
      });
      try {
        await runWrk(mock.url, request(`warm-${round}`), { connections: 16, pipelining: 1, duration: 1 });
        const run = await runWrk(mock.url, request(`run-${round}`), {
          connections: 16,
          pipelining: 1,
          duration: 4,
        });
        const measured = rates[name] ?? [];
        measured.push(Math.round(run.rps));
        rates[name] = measured;
        console.log(`${name} round ${round}: ${Math.round(run.rps)} writes/s, p99 ${run.p99} ms`);
      } finally {
        await mock.stop();
      }
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(rates));
