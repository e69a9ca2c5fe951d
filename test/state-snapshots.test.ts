/**
 * Snapshots and a bounded log, with the built CLI and real processes: a `--state-file` mock writes
 * snapshots beside its log and compacts it, restarts from the latest valid snapshot (a damaged one is
 * refused with a note, the previous one used) and answers as before; a `kill -9` while it compacts
 * loses no acknowledged write. The compaction interval is set small with CCA_MOCK_SNAPSHOT_EVERY.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { mockKeys } from '../suites/target.ts';
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
    // Compacted past the previous snapshot (at 40): 75 - 40 commands remain.
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines.length - 1).toBe(35);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ base: 40 });

    mock = await startMock([...FLAGS, '--state-file', file]);
    expect(mock.output()).toMatch(/snapshot at 60, 75 writes in all/);
    const health = await json(`${mock.url}/__mock/health`);
    expect(health.body).toMatchObject({
      status: 'ready',
      store: { position: 75, snapshot: { position: 60 } },
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
    expect(mock.output()).toMatch(/snapshot at 40, 75 writes in all/);
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
          if (caseId !== undefined && !stop) acknowledged.set(externalId, caseId);
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
});
