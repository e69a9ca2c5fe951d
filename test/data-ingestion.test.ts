/** Ingestion batches and moderation cases in a data file: loaded through their slices, exported back as they were. */
import { describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { scenario } from '../mocks/engine/data-file/builder.ts';
import { exportDataFile } from '../mocks/engine/data-file/export.ts';
import type { DataFile } from '../mocks/engine/data-file/types.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { at, get, list } from './data-support.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const clock = (): MockClock => new MockClock({ start: START });

function file(): DataFile {
  const base = scenario()
    .organization('org_ing', { moderationMode: 'ad_policy' })
    .key({ key: 'ing_reporting_key', profile: 'reporting' })
    .moderationCase({ caseId: 'mc_1', analysisStatus: 'completed' })
    .moderationCase({ caseId: 'mc_2', analysisStatus: 'pending' })
    .build();
  return {
    ...base,
    ingestionBatches: [
      {
        organizationId: 'org_ing',
        platform: 'DISCOURSE',
        serverId: 'forum-1',
        serverName: 'Community forum',
        records: [
          {
            externalId: '9007199254740993001',
            authorId: 'u_1',
            authorName: 'Kim',
            body: 'Login broken?',
            createdAt: '2026-11-19T08:00:00Z',
            recordType: 'topic',
          },
          {
            externalId: '9007199254740993002',
            threadExternalId: '9007199254740993001',
            parentExternalId: '9007199254740993001',
            authorId: 'u_2',
            authorName: 'Lee',
            body: 'Same here',
            createdAt: '2026-11-19T09:00:00Z',
            recordType: 'post',
          },
        ],
      },
    ],
  };
}

describe('ingestion batches and moderation cases in data files', () => {
  it('loads batches through intake and processing: one threaded action of two messages', async () => {
    const engine = createEngine({ data: file(), clock: clock(), selfCheck: true });
    const page = await get(engine, '/v0/action/list?fullFilter=', 'ing_reporting_key');
    const items = list(page.body, 'data');
    expect(items).toHaveLength(1);
    expect(at(items[0], 'platform')).toBe('DISCOURSE');
    expect(at(items[0], 'totalMessages')).toBe(2);
    expect(at(items[0], 'serverName')).toBe('Community forum');
    const pending = await get(engine, '/v0/moderation/cases/mc_2', 'ing_reporting_key');
    expect(at(pending.body, 'analysisStatus')).toBe('pending');
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('exports them back as batches and cases (not as actions); loading the export gives the same export', () => {
    const engine = createEngine({ data: file(), clock: clock() });
    const exported = exportDataFile(engine.state);
    expect(exported.actions).toEqual([]);
    expect(exported.ingestionBatches?.map((b) => b.records[0]?.['externalId'])).toEqual([
      '9007199254740993001',
      '9007199254740993002',
    ]);
    expect(exported.moderationCases?.map((c) => [c.caseId, c.analysisStatus])).toEqual([
      ['mc_1', 'completed'],
      ['mc_2', 'pending'],
    ]);
    const again = createEngine({ data: exported, clock: clock() });
    expect(exportDataFile(again.state)).toEqual(exported);
  });

  it('refuses a batch the ingestion endpoint would refuse, by pointer', () => {
    const bad = file();
    const broken = {
      ...bad,
      ingestionBatches: [
        { ...bad.ingestionBatches?.[0], platform: 'MYSPACE', records: [{ externalId: '' }] },
      ],
    } as DataFile;
    expect(() => createEngine({ data: broken, clock: clock() })).toThrow(/\/ingestionBatches\/0\/platform/);
  });
});
