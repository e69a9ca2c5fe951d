import { describe, expect, it } from 'vitest';
import { submitBatch } from './batch.ts';
import type { SchemaIssue } from './fields.ts';
import { submitCase } from './intake.ts';
import { sampleSubmission } from './sample.ts';
import { createModerationState } from './state.ts';
import { readCaseStatus } from './status.ts';

const ORG = 'org_1';
const noIssues = (): readonly SchemaIssue[] => [];

function freshState() {
  let now = 1_000;
  const clock = { now: () => now };
  const state = createModerationState({ clock, seed: 7 });
  return { state, advance: (ms: number) => (now += ms) };
}

describe('submitCase', () => {
  it('MOD-NEW-CASE-PENDING, MOD-ACK-EXTERNALID-ECHO: a new case is accepted, pending, with the externalId as sent', () => {
    const { state } = freshState();
    const outcome = submitCase(state, ORG, sampleSubmission({ externalId: '0012345678901234567890123' }), []);
    expect(outcome).toMatchObject({
      kind: 'ack',
      ack: {
        externalId: '0012345678901234567890123',
        status: 'accepted',
        analysisStatus: 'pending',
        idempotency: { replayed: false },
      },
    });
  });

  it('MOD-EXACT-RESUBMIT-DUPLICATE: the same content again is a duplicate with the same ids', () => {
    const { state } = freshState();
    const first = submitCase(state, ORG, sampleSubmission(), []);
    const again = submitCase(state, ORG, JSON.parse(JSON.stringify(sampleSubmission(), null, 2)), []);
    if (first.kind !== 'ack' || again.kind !== 'ack') throw new Error('expected acks');
    expect(again.ack).toEqual({
      ...first.ack,
      status: 'duplicate',
      idempotency: { ...first.ack.idempotency, replayed: true },
    });
  });

  it('MOD-CHANGED-CONTENT-409: the same externalId with other content is a conflict naming the case', () => {
    const { state } = freshState();
    const first = submitCase(state, ORG, sampleSubmission(), []);
    const other = submitCase(state, ORG, sampleSubmission({ title: 'Another title' }), []);
    if (first.kind !== 'ack') throw new Error('expected an ack');
    expect(other).toMatchObject({ kind: 'refused', refusal: { kind: 'conflict', caseId: first.ack.caseId } });
  });

  it('ORG-MODERATION-EXTERNALID-PER-ORGANIZATION: externalIds are scoped per organization', () => {
    const { state } = freshState();
    const a = submitCase(state, 'org_a', sampleSubmission(), []);
    const b = submitCase(state, 'org_b', sampleSubmission(), []);
    if (a.kind !== 'ack' || b.kind !== 'ack') throw new Error('expected acks');
    expect(b.ack.status).toBe('accepted');
    expect(b.ack.caseId).not.toBe(a.ack.caseId);
    expect(readCaseStatus(state, 'org_b', a.ack.caseId)).toBeNull();
  });

  it('MOCK-MODERATION-INCOMPLETE-400: missing fields win over invalid ones, both listed', () => {
    const { state } = freshState();
    const issues: SchemaIssue[] = [
      { field: 'title', keyword: 'required' },
      { field: 'media[0].url', keyword: 'pattern', message: 'must match pattern' },
    ];
    expect(submitCase(state, ORG, {}, issues)).toMatchObject({
      kind: 'refused',
      refusal: {
        kind: 'input',
        code: 'MODERATION_INPUT_INCOMPLETE',
        missingFields: ['title'],
        invalidFields: ['media[0].url'],
      },
    });
    expect(state.byCaseId.size).toBe(0);
  });

  it('MOCK-MODERATION-INVALID-422: only invalid fields give MODERATION_INPUT_INVALID', () => {
    const { state } = freshState();
    const issues: SchemaIssue[] = [{ field: 'targeting.geos', keyword: 'minItems' }];
    expect(submitCase(state, ORG, sampleSubmission(), issues)).toMatchObject({
      refusal: { code: 'MODERATION_INPUT_INVALID', missingFields: [], invalidFields: ['targeting.geos'] },
    });
  });
});

describe('submitBatch', () => {
  it('MOD-BATCH-ORDER, MOD-BATCH-ITEM-ISOLATION: one result per input in input order; duplicates inside a batch act sequentially', () => {
    const { state } = freshState();
    const items = [
      sampleSubmission({ externalId: 'a' }),
      sampleSubmission({ externalId: 'b' }),
      sampleSubmission({ externalId: 'a' }),
      sampleSubmission({ externalId: 'b', title: 'changed' }),
      { externalId: 'c' },
    ];
    const issuesOf = (item: unknown): readonly SchemaIssue[] =>
      item === items[4] ? [{ field: 'title', keyword: 'required' }] : noIssues();
    const results = submitBatch(state, ORG, items, issuesOf);
    expect(results.map((r) => [r.externalId, r.status])).toEqual([
      ['a', 'accepted'],
      ['b', 'accepted'],
      ['a', 'duplicate'],
      ['b', 'rejected'],
      ['c', 'rejected'],
    ]);
    expect(results[2]?.caseId).toBe(results[0]?.caseId);
    expect(results[3]).not.toHaveProperty('code');
    expect(results[4]).toMatchObject({ code: 'MODERATION_INPUT_INCOMPLETE', missingFields: ['title'] });
  });
});
