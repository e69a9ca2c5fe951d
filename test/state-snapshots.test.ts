/**
 * Snapshots and a bounded log, with the built CLI and real processes: a `--state-file` mock writes
 * snapshots beside its log and compacts it, restarts from the latest valid snapshot (a damaged one is
 * refused with a note, the previous one used) and answers as before; a `kill -9` while it compacts
 * loses no acknowledged write. The compaction interval is set small with CCA_MOCK_SNAPSHOT_EVERY.
 */

import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { openStateFile } from '../mocks/engine/store/file.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';
import { mockKeys } from '../suites/target.ts';
import { ROOT } from './support/processes.ts';
import { json, type MockProcess, startMock } from './support/state-processes.ts';

const keys = { read: mockKeys().read ?? '', write: mockKeys().write ?? '' };
const FLAGS = ['--seed', '42', '--clock', 'frozen'];

/** Submits one case; its caseId when acknowledged (202), else undefined. */
async function submit(url: string, externalId: string): Promise<string | undefined> {
  try {
    const answer = await json(`${url}/v0/moderation/cases`, {
      method: 'POST',
      headers: { 'x-api-key': keys.write },
      body: JSON.stringify(sampleSubmission({ externalId })),
    });
    return answer.status === 202 ? (answer.body['caseId'] as string) : undefined;
  } catch {
    return undefined;
  }
}

async function caseText(url: string, caseId: string): Promise<{ status: number; text: string }> {
  const answer = await fetch(`${url}/v0/moderation/cases/${caseId}`, {
    headers: { 'x-api-key': keys.read },
  });
  return { status: answer.status, text: await answer.text() };
}

describe('cca-kit mock --state-file: snapshots and compaction', () => {
  let dir: string;
  let mock: MockProcess | undefined;
  const previous = process.env['CCA_MOCK_SNAPSHOT_EVERY'];
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cca-snapshots-'));
  });
  afterAll(async () => {
    await mock?.stop('SIGKILL');
    if (previous === undefined) delete process.env['CCA_MOCK_SNAPSHOT_EVERY'];
    else process.env['CCA_MOCK_SNAPSHOT_EVERY'] = previous;
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes snapshots, keeps the log bounded, restarts from the latest and answers byte for byte as before; a damaged snapshot is refused and the previous one used', async () => {
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '20';
    const file = join(dir, 'bounded.state');
    mock = await startMock([...FLAGS, '--state-file', file]);
    const ids: string[] = [];
    for (let i = 0; i < 75; i += 1) ids.push((await submit(mock.url, `snap-${i}`)) as string);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    const before = await Promise.all(ids.map((id) => caseText(mock?.url as string, id)));
    await mock.stop('SIGTERM');
    expect(existsSync(`${file}.snapshot`)).toBe(true);
    expect(existsSync(`${file}.snapshot.prev`)).toBe(true);
    // A compaction runs beside the writes, so it captures where the writes are when it starts: a
    // snapshot 20 commands or more after the one before (at 20, 40 and 60 when the writes are slower).
    const positionOf = (path: string): number =>
      (
        JSON.parse(readFileSync(path).subarray(0, readFileSync(path).indexOf(10)).toString()) as {
          position: number;
        }
      ).position;
    const previous = positionOf(`${file}.snapshot.prev`);
    const latestAt = positionOf(`${file}.snapshot`);
    expect(previous).toBeGreaterThanOrEqual(20);
    expect(latestAt - previous).toBeGreaterThanOrEqual(20);
    // Compacted past the previous snapshot: the commands after it remain.
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.length - 1).toBe(75 - previous);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ base: previous });

    mock = await startMock([...FLAGS, '--state-file', file]);
    expect(mock.output()).toMatch(new RegExp(`snapshot at ${latestAt}, 75 writes in all`));
    const health = await json(`${mock.url}/__mock/health`);
    expect(health.body).toMatchObject({
      status: 'ready',
      store: { position: 75, snapshot: { position: latestAt } },
    });
    const after = await Promise.all(ids.map((id) => caseText(mock?.url as string, id)));
    expect(after).toEqual(before);
    await mock.stop('SIGTERM');

    // Damage the latest snapshot: it is refused by name, the previous one and the log rebuild the same.
    const latest = readFileSync(`${file}.snapshot`);
    latest[latest.length - 10] = (latest[latest.length - 10] ?? 0) ^ 0xff;
    writeFileSync(`${file}.snapshot`, latest);
    mock = await startMock([...FLAGS, '--state-file', file]);
    expect(mock.output()).toMatch(/refused snapshot .*bounded\.state\.snapshot: checksum mismatch/);
    expect(mock.output()).toMatch(new RegExp(`snapshot at ${previous}, 75 writes in all`));
    const rebuilt = await Promise.all(ids.map((id) => caseText(mock?.url as string, id)));
    expect(rebuilt).toEqual(before);
    await mock.stop('SIGTERM');
    mock = undefined;
  });

  it('a reset is a snapshot: the log is cut, not appended to', async () => {
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '1000';
    const file = join(dir, 'reset.state');
    mock = await startMock([...FLAGS, '--state-file', file]);
    const id = (await submit(mock.url, 'before-reset')) as string;
    expect((await json(`${mock.url}/__mock/reset`, { method: 'POST' })).status).toBe(200);
    expect((await caseText(mock.url, id)).status).toBe(404);
    await mock.stop('SIGTERM');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ base: 2 });
    mock = await startMock([...FLAGS, '--state-file', file]);
    expect((await caseText(mock.url, id)).status).toBe(404);
    await mock.stop('SIGTERM');
    mock = undefined;
  });

  it('kill -9 during compaction (a snapshot every 3 writes, 4 writers) loses no acknowledged write', async () => {
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '3';
    const file = join(dir, 'killed.state');
    const acknowledged = new Map<string, string>();
    for (let round = 0; round < 3; round += 1) {
      mock = await startMock([...FLAGS, '--state-file', file]);
      const url = mock.url;
      let stop = false;
      const writers = [0, 1, 2, 3].map(async (writer) => {
        for (let i = 0; !stop; i += 1) {
          const externalId = `kill-${round}-${writer}-${i}`;
          const caseId = await submit(url, externalId);
          // A 202 that arrives after the kill was sent is acknowledged as much as any other.
          if (caseId !== undefined) acknowledged.set(externalId, caseId);
          if (caseId === undefined) return;
        }
      });
      await new Promise((resolve) => setTimeout(resolve, 400 + round * 150));
      const killed = mock.stop('SIGKILL');
      stop = true;
      await killed;
      await Promise.all(writers);
    }
    mock = await startMock([...FLAGS, '--state-file', file]);
    expect(acknowledged.size).toBeGreaterThan(10);
    for (const [, caseId] of acknowledged) expect((await caseText(mock.url, caseId)).status).toBe(200);
    await mock.stop('SIGTERM');
    mock = undefined;
  });

  it('the port answers 503 with Retry-After and the replay progress until the state is loaded, then serves; ready is printed after', async () => {
    process.env['CCA_MOCK_SNAPSHOT_EVERY'] = '0';
    const file = join(dir, 'long.state');
    const made = await createPersistentEngine({ seed: 42, clock: 'frozen' }, (d, p) =>
      openStateFile(file, d, p, { snapshotEvery: 0 }),
    );
    await made.store.close();
    const lines: string[] = [];
    for (let i = 0; i < 30_000; i += 1) {
      const command = {
        type: 'moderation.submit',
        organizationId: 'org_acme',
        submission: sampleSubmission({ externalId: `long-${i % 3_000}` }),
      };
      lines.push(JSON.stringify({ real: made.origin.clockStart, command }));
    }
    appendFileSync(file, `${lines.join('\n')}\n`);
    const child = spawn(
      process.execPath,
      [`${ROOT}bin/cca-kit.js`, 'mock', '--port', '0', ...FLAGS, '--state-file', file],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
    });
    try {
      const deadline = performance.now() + 30_000;
      while (!/starting on/.test(output) && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 5));
      const url = /starting on (http:\/\/\S+)/.exec(output)?.[1] as string;
      const refusals: { retryAfter: string | null; body: Record<string, unknown> }[] = [];
      let status = 0;
      while (status !== 200 && performance.now() < deadline) {
        const answer = await fetch(`${url}/v0/agents`, { headers: { 'x-api-key': keys.read } });
        status = answer.status;
        if (status === 503) {
          refusals.push({
            retryAfter: answer.headers.get('retry-after'),
            body: (await answer.json()) as Record<string, unknown>,
          });
        } else await answer.arrayBuffer();
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(status).toBe(200);
      expect(refusals.length).toBeGreaterThan(0);
      for (const refusal of refusals) {
        expect(refusal.retryAfter).toBe('1');
        expect(refusal.body).toMatchObject({ success: false, status: 'starting' });
        expect(refusal.body['error']).toMatch(/the mock is starting/);
      }
      expect(refusals.some((r) => (r.body['progress'] as { phase: string }).phase === 'replay')).toBe(true);
      while (!/ready in/.test(output) && performance.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 5));
      expect(output).toMatch(/ready in \d+ ms \(first answer served\)/);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
