/**
 * Nothing lost, nothing doubled: many requests in flight at once against the real HTTP server on a
 * loopback port. The intake's check-and-insert is synchronous, so the interleaving of requests can
 * never let two of them create the same case or the same record.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { orgData } from '../mocks/engine/records/state.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { AD_ORG } from './write-support.ts';

let server: MockServer;
let writeKey: string;
let importKey: string;

beforeAll(async () => {
  server = await startMockServer({
    host: '127.0.0.1',
    port: 0,
    actions: 40,
    clock: 'frozen',
    selfCheck: true,
    ingestion: { latency: 'instant' },
  });
  writeKey = server.engine.admin.createKey({ organizationId: AD_ORG, profile: 'write', expiry: 'none' }).key;
  importKey = server.engine.admin.createKey({
    organizationId: AD_ORG,
    profile: 'import',
    expiry: 'none',
  }).key;
});

afterAll(async () => {
  expect(server.engine.selfCheckFailures).toEqual([]);
  expect(server.engine.unexpectedErrors).toEqual([]);
  await server.close();
});

async function post(
  path: string,
  key: string,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { 'x-api-key': key, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('concurrent moderation submissions', () => {
  it('MOD-EXACT-RESUBMIT-DUPLICATE: 50 identical submissions in flight → exactly one accepted, 49 duplicates', async () => {
    const submission = sampleSubmission({ externalId: 'same-content' });
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => post('/v0/moderation/cases', writeKey, submission)),
    );
    expect(answers.every((a) => a.status === 202)).toBe(true);
    const statuses = answers.map((a) => a.body['status']);
    expect(statuses.filter((s) => s === 'accepted')).toHaveLength(1);
    expect(statuses.filter((s) => s === 'duplicate')).toHaveLength(49);
    expect(new Set(answers.map((a) => a.body['caseId'])).size).toBe(1);
    expect(new Set(answers.map((a) => a.body['evaluationId'])).size).toBe(1);
  });

  it('MOD-CHANGED-CONTENT-409: 40 conflicting submissions in flight → one accepted, 39 conflicts', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        post(
          '/v0/moderation/cases',
          writeKey,
          sampleSubmission({ externalId: 'contested', title: `Title ${i}` }),
        ),
      ),
    );
    expect(answers.filter((a) => a.status === 202 && a.body['status'] === 'accepted')).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409)).toHaveLength(39);
  });

  it('MOD-BATCH-ITEM-ISOLATION: overlapping batches in flight → each externalId accepted exactly once', async () => {
    const items = Array.from({ length: 20 }, (_, i) => sampleSubmission({ externalId: `batch-${i}` }));
    const batches = Array.from({ length: 10 }, (_, b) => ({ cases: items.slice(b, b + 10) }));
    const answers = await Promise.all(
      batches.map((body) => post('/v0/moderation/cases/batch', writeKey, body)),
    );
    const results = answers.flatMap((a) => a.body['results'] as Record<string, unknown>[]);
    expect(results).toHaveLength(100);
    const accepted = results.filter((r) => r['status'] === 'accepted').map((r) => r['externalId']);
    expect(accepted.sort()).toEqual([...new Set(items.slice(0, 19).map((s) => s['externalId']))].sort());
    expect(results.filter((r) => r['status'] === 'rejected')).toHaveLength(0);
    const caseIds = new Map<unknown, unknown>();
    for (const result of results) {
      const known = caseIds.get(result['externalId']);
      if (known === undefined) caseIds.set(result['externalId'], result['caseId']);
      else expect(result['caseId']).toBe(known);
    }
  });
});

describe('concurrent ingestion', () => {
  it('ID-INGEST-EXTERNALID-RETRIES: 20 overlapping batches in flight → every record counted once and stored once', async () => {
    const record = (n: number) => ({
      externalId: `rec-${String(n).padStart(4, '0')}`,
      threadExternalId: `thread-${n % 25}`,
      authorId: `9007199254740${String(n).padStart(3, '0')}`,
      authorName: `Author ${n}`,
      body: `message ${n}`,
      createdAt: new Date(Date.UTC(2026, 10, 20, 10, 0, n)).toISOString(),
      recordType: 'message',
    });
    // Batch b carries records 25b .. 25b+49: every record but the first and last 25 is in two batches.
    const batches = Array.from({ length: 20 }, (_, b) => ({
      platform: 'SLACK',
      serverId: 'T0001',
      serverName: 'Workspace',
      records: Array.from({ length: 50 }, (_, i) => record(25 * b + i)),
    }));
    const answers = await Promise.all(batches.map((body) => post('/v0/ingest/records', importKey, body)));
    expect(answers.every((a) => a.status === 202 && a.body['status'] === 'accepted')).toBe(true);
    expect(answers.reduce((sum, a) => sum + Number(a.body['accepted']), 0)).toBe(20 * 50);

    const distinct = 25 * 19 + 50;
    const ingestion = server.engine.state.ingestion;
    const stored = [...ingestion.records.values()].filter((r) => r.identity.serverId === 'T0001');
    expect(stored).toHaveLength(distinct);
    const org = orgData(server.engine.state.data, AD_ORG);
    const actions = [...org.ingested.values()].filter((a) => a.serverId === 'T0001');
    expect(actions).toHaveLength(25);
    const messageIds = actions.flatMap((a) => a.messages.map((m) => m.id));
    expect(messageIds).toHaveLength(distinct);
    expect(new Set(messageIds).size).toBe(distinct);
  });
});
