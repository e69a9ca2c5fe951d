/**
 * `cca-kit mock --state-file` with group commit, killed with SIGKILL in the middle of a burst of 16
 * concurrent writers, twice: every write it acknowledged is in the file the moment it is killed (its
 * bytes were written, and flushed, before its answer) and there after each restart, and the file
 * always reopens.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { mockKeys } from '../suites/target.ts';
import { json, type MockProcess, startMock } from './support/state-processes.ts';
import { scaled } from './support/timeouts.ts';

const keys = mockKeys();
const WRITERS = 16;

/** Writes until the mock dies; resolves the externalIds it acknowledged. */
async function writer(base: string, tag: string, until: () => boolean): Promise<string[]> {
  const acknowledged: string[] = [];
  for (let n = 0; !until(); n++) {
    const externalId = `kill-${tag}-${n}`;
    try {
      const answer = await fetch(`${base}/v0/moderation/cases`, {
        method: 'POST',
        headers: { 'x-api-key': keys.write ?? '', 'content-type': 'application/json' },
        body: JSON.stringify(sampleSubmission({ externalId })),
      });
      if (answer.status === 202) acknowledged.push(externalId);
      await answer.arrayBuffer();
    } catch {
      break;
    }
  }
  return acknowledged;
}

describe('--state-file group commit under kill -9', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cca-group-commit-'));
  const file = join(dir, 'sandbox.state');
  let mock: MockProcess | undefined;
  afterAll(async () => {
    await mock?.stop('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'nothing acknowledged is lost when the mock is killed mid-burst, twice',
    async () => {
      const everything: string[] = [];
      for (const round of [1, 2]) {
        mock = await startMock(['--seed', '42', '--state-file', file]);
        const running = mock;
        let dead = false;
        const writers = Array.from({ length: WRITERS }, (_, i) =>
          writer(running.url, `${round}-${i}`, () => dead),
        );
        // Let the burst run, then kill while writes are queued and flushing.
        const deadline = Date.now() + scaled(10_000);
        while (Date.now() < deadline) {
          const health = await json(`${running.url}/__mock/health`);
          const store = health.body['store'] as { position: number };
          if (store.position >= everything.length + 300) break;
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        await running.stop('SIGKILL');
        dead = true;
        const acknowledged = (await Promise.all(writers)).flat();
        expect(acknowledged.length).toBeGreaterThan(100);
        everything.push(...acknowledged);
        // Read before any restart could repair or replay it: each answered write has its line.
        const logged = new Set(
          readFileSync(file, 'utf8')
            .split('\n')
            .map((line) => /"externalId":"(kill-[^"]+)"/.exec(line)?.[1]),
        );
        expect(everything.filter((id) => !logged.has(id))).toEqual([]);

        mock = await startMock(['--seed', '42', '--state-file', file]);
        const cases = (await json(`${mock.url}/__mock/moderation/cases`)).body['cases'] as {
          externalId: string;
        }[];
        const kept = new Set(cases.map((c) => c.externalId));
        expect(everything.filter((id) => !kept.has(id))).toEqual([]);
        const health = await json(`${mock.url}/__mock/health`);
        expect((health.body['store'] as { position: number }).position).toBeGreaterThanOrEqual(
          everything.length,
        );
        await mock.stop('SIGTERM');
        mock = undefined;
      }
    },
    scaled(60_000),
  );
});
