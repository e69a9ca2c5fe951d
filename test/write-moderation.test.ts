/**
 * Moderation intake, status read and lifecycle through the in-process engine (self-check on: every
 * response is also validated against the contract).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { AD_ORG, createHarness, obj, STANDARD_ORG, type WriteHarness } from './write-support.ts';

let harness: WriteHarness;
const fresh = (options: Parameters<typeof createHarness>[0] = {}) => {
  harness = createHarness(options);
  return harness;
};
afterEach(() => {
  expect(harness.engine.selfCheckFailures).toEqual([]);
  expect(harness.engine.unexpectedErrors).toEqual([]);
});

const submit = (h: WriteHarness, body: unknown, key = h.keys.write) =>
  h.request('POST', '/v0/moderation/cases', key, body);
const submitBatch = (h: WriteHarness, cases: unknown[], key = h.keys.write) =>
  h.request('POST', '/v0/moderation/cases/batch', key, { cases });
const read = (h: WriteHarness, caseId: string, key = h.keys.reporting) =>
  h.request('GET', `/v0/moderation/cases/${encodeURIComponent(caseId)}`, key);

describe('moderation intake', () => {
  it('MOD-SUBMIT-202, MOD-NEW-CASE-PENDING, MOD-GET-CASE-FROM-ACK: accepted, pending, readable', async () => {
    const h = fresh();
    const { status, body } = await submit(h, sampleSubmission());
    expect(status).toBe(202);
    const ack = obj(body);
    expect(ack).toMatchObject({ externalId: 'ext-0001', status: 'accepted', analysisStatus: 'pending' });
    expect(obj(ack['idempotency'])['replayed']).toBe(false);
    const got = await read(h, String(ack['caseId']));
    expect(got.status).toBe(200);
    expect(got.body).toEqual({
      caseId: ack['caseId'],
      externalId: 'ext-0001',
      analysisStatus: 'pending',
      evaluationId: ack['evaluationId'],
    });
  });

  it('MOD-EXACT-RESUBMIT-DUPLICATE, ID-MODERATION-CASEID-STABLE: any key order or whitespace is the same content', async () => {
    const h = fresh();
    const first = obj((await submit(h, sampleSubmission())).body);
    await fc.assert(
      fc.asyncProperty(
        fc.infiniteStream(fc.double()),
        fc.integer({ min: 0, max: 6 }),
        async (rnd, indent) => {
          const shuffled = shuffleKeys(sampleSubmission(), () => rnd.next().value);
          const again = await submit(h, JSON.stringify(shuffled, null, indent));
          expect(again.status).toBe(202);
          expect(again.body).toEqual({
            ...first,
            status: 'duplicate',
            idempotency: { ...obj(first['idempotency']), replayed: true },
          });
        },
      ),
      { numRuns: 40 },
    );
  });

  it('MOD-CHANGED-CONTENT-409, ERR-409-IDENTIFIER-CONFLICT: any change of a content field is a conflict', async () => {
    const h = fresh();
    expect((await submit(h, sampleSubmission())).status).toBe(202);
    await fc.assert(
      fc.asyncProperty(contentChange, async (change) => {
        const changed = change(sampleSubmission());
        const answer = await submit(h, changed);
        expect(answer.status).toBe(409);
        expect(obj(answer.body)).toMatchObject({
          success: false,
          error: expect.stringContaining('ext-0001'),
        });
        expect(obj(answer.body)).not.toHaveProperty('code');
      }),
      { numRuns: 60 },
    );
  });

  it('MOD-VALIDATED-BEFORE-ENQUEUE: a refused submission creates no case', async () => {
    const h = fresh();
    const refused = await submit(h, sampleSubmission({ title: '' }));
    expect(refused.status).toBe(422);
    const later = await submit(h, sampleSubmission());
    expect(obj(later.body)['status']).toBe('accepted');
  });

  it('ORG-MODERATION-EXTERNALID-PER-ORGANIZATION, ORG-OTHER-ORG-ID-NOT-RESOLVED: cases are per organization', async () => {
    const h = fresh();
    h.engine.admin.setModerationMode(STANDARD_ORG, 'ad_policy');
    const mine = obj((await submit(h, sampleSubmission())).body);
    const theirs = obj((await submit(h, sampleSubmission({ title: 'other content' }), h.standardKey)).body);
    expect(theirs['status']).toBe('accepted');
    expect(theirs['caseId']).not.toBe(mine['caseId']);
    expect((await read(h, String(mine['caseId']), h.standardKey)).status).toBe(404);
  });

  it('MOD-GET-UNKNOWN-404: an unknown caseId is 404 with the general body', async () => {
    const h = fresh();
    const answer = await read(h, 'mc_0000000000000000');
    expect(answer.status).toBe(404);
    expect(obj(answer.body)['success']).toBe(false);
  });

  it('MOCK-NO-AD-POLICY-403, MOD-AD-POLICY-MODE-REQUIRED: intake of other organizations is refused with supported', async () => {
    const h = fresh();
    for (const answer of [
      await submit(h, sampleSubmission(), h.standardKey),
      await submitBatch(h, [sampleSubmission()], h.standardKey),
    ]) {
      expect(answer.status).toBe(403);
      expect(obj(answer.body)).toMatchObject({ success: false, supported: ['ad_policy'] });
    }
  });

  it('SCOPE-MODERATION-SUBMIT-WRITE, SCOPE-MODERATION-BATCH-WRITE, SCOPE-MODERATION-READ, AUTH-READ-WRITE-KEY-BOTH: scopes', async () => {
    const h = fresh();
    expect((await submit(h, sampleSubmission(), h.keys.reporting)).status).toBe(403);
    expect((await submitBatch(h, [sampleSubmission()], h.keys.reporting)).status).toBe(403);
    expect((await submit(h, sampleSubmission(), h.keys.import)).status).toBe(403);
    const ack = obj((await submit(h, sampleSubmission(), h.keys.read_write)).body);
    expect((await read(h, String(ack['caseId']), h.keys.write)).status).toBe(403);
    expect((await read(h, String(ack['caseId']), h.keys.import)).status).toBe(403);
    expect((await read(h, String(ack['caseId']), h.keys.read_write)).status).toBe(200);
  });
});

describe('moderation batch', () => {
  it('MOD-BATCH-ORDER, MOD-BATCH-ITEM-ISOLATION: one result per input in input order, as if sent one by one', async () => {
    const h = fresh();
    const item = fc.record({
      id: fc.constantFrom('a', 'b', 'c', '007', '😀'),
      variant: fc.constantFrom('same', 'changed', 'invalid', 'missing'),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 1, maxLength: 12 }), async (items) => {
        run += 1;
        const prefix = `run${run}-`;
        const cases = items.map(({ id, variant }) => {
          const externalId = `${prefix}${id}`;
          if (variant === 'invalid') return sampleSubmission({ externalId, media: [] });
          if (variant === 'missing') return { ...sampleSubmission({ externalId }), title: undefined };
          return sampleSubmission({ externalId, title: variant === 'changed' ? 'Changed' : 'Same' });
        });
        const { status, body } = await submitBatch(h, JSON.parse(JSON.stringify(cases)));
        expect(status).toBe(202);
        const results = obj(body)['results'] as Record<string, unknown>[];
        expect(results).toHaveLength(items.length);
        // The model: sequential single submissions.
        const seen = new Map<string, { title: string; caseId: unknown }>();
        results.forEach((result, i) => {
          const { id, variant } = items[i] ?? { id: '', variant: '' };
          expect(result['externalId']).toBe(`${prefix}${id}`);
          if (variant === 'invalid' || variant === 'missing') {
            expect(result).toMatchObject({
              status: 'rejected',
              caseId: null,
              code: variant === 'invalid' ? 'MODERATION_INPUT_INVALID' : 'MODERATION_INPUT_INCOMPLETE',
            });
            return;
          }
          const title = variant === 'changed' ? 'Changed' : 'Same';
          const earlier = seen.get(id);
          if (earlier === undefined) {
            expect(result['status']).toBe('accepted');
            seen.set(id, { title, caseId: result['caseId'] });
          } else if (earlier.title === title) {
            expect(result).toMatchObject({ status: 'duplicate', caseId: earlier.caseId });
          } else {
            expect(result).toMatchObject({ status: 'rejected', caseId: earlier.caseId });
            expect(result).not.toHaveProperty('code');
          }
        });
      }),
      { numRuns: 40 },
    );
  });

  it('MOD-BATCH-SIZE-RANGE: 0 or 101 cases are refused as a whole with 400', async () => {
    const h = fresh();
    expect((await submitBatch(h, [])).status).toBe(400);
    const many = Array.from({ length: 101 }, (_, i) => sampleSubmission({ externalId: `m${i}` }));
    expect((await submitBatch(h, many)).status).toBe(400);
    const hundred = many.slice(0, 100);
    const ok = await submitBatch(h, hundred);
    expect(ok.status).toBe(202);
    expect(obj(ok.body)['results']).toHaveLength(100);
  });

  it('MOD-BATCH-CONFLICT-REJECTED, MOD-BATCH-REJECTED-DETAILS: a conflict is rejected with errors, no code', async () => {
    const h = fresh();
    await submit(h, sampleSubmission());
    const { status, body } = await submitBatch(h, [
      sampleSubmission({ title: 'changed' }),
      sampleSubmission({ externalId: 'new' }),
    ]);
    expect(status).toBe(202);
    const [conflict, accepted] = obj(body)['results'] as Record<string, unknown>[];
    expect(conflict).toMatchObject({
      status: 'rejected',
      errors: [expect.stringContaining('already exists')],
    });
    expect(accepted).toMatchObject({ status: 'accepted', externalId: 'new' });
  });
});

describe('identifiers are preserved byte for byte', () => {
  it('ID-STRING-PRESERVED, MOD-ACK-EXTERNALID-ECHO: any externalId through the single route, the batch and the status read', async () => {
    const h = fresh();
    const externalId = fc.oneof(
      fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 17, maxLength: 30 }),
      fc.nat().map((n) => `000${n}`),
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }),
      fc.constant('9007199254740993'),
      fc.constant('1234567890123456789012345'),
    );
    await fc.assert(
      fc.asyncProperty(externalId, async (id) => {
        const single = await submit(h, sampleSubmission({ externalId: id }));
        expect(single.status).toBe(202);
        expect(obj(single.body)['externalId']).toBe(id);
        expect(single.text).toContain(
          JSON.stringify(id).slice(1, -1) === id ? `"externalId":"${id}"` : '"externalId":"',
        );
        const batch = await submitBatch(h, [sampleSubmission({ externalId: id })]);
        const [result] = obj(batch.body)['results'] as Record<string, unknown>[];
        expect(result).toMatchObject({
          externalId: id,
          status: 'duplicate',
          caseId: obj(single.body)['caseId'],
        });
        const status = await read(h, String(obj(single.body)['caseId']));
        expect(obj(status.body)['externalId']).toBe(id);
        expect(obj(status.body)['caseId']).toBe(obj(single.body)['caseId']);
      }),
      { numRuns: 60 },
    );
  });
});

describe('lifecycle through the engine clock and the admin API', () => {
  it('moves pending → running → completed when the clock advances; no decision before', async () => {
    const h = fresh();
    const ack = obj((await submit(h, sampleSubmission({ copy: { body: 'A miracle tent' } }))).body);
    const caseId = String(ack['caseId']);
    h.engine.admin.advanceClock(1000);
    expect(obj((await read(h, caseId)).body)).toEqual({
      caseId,
      externalId: 'ext-0001',
      analysisStatus: 'running',
      evaluationId: ack['evaluationId'],
    });
    await h.admin('POST', '/__mock/clock/advance', { ms: 2000 });
    const done = obj((await read(h, caseId)).body);
    expect(done['analysisStatus']).toBe('completed');
    expect(obj(done['decision'])['disposition']).toBe('reject');
  });

  it('POST /__mock/moderation/cases/{caseId}/step moves one case one state', async () => {
    const h = fresh({ moderation: { latency: 'manual' } });
    const ack = obj((await submit(h, sampleSubmission({ title: 'boom [[fail]]' }))).body);
    const caseId = String(ack['caseId']);
    const path = `/__mock/moderation/cases/${caseId}/step`;
    expect(await h.admin('POST', path)).toMatchObject({
      status: 200,
      body: { case: { analysisStatus: 'running' } },
    });
    expect(await h.admin('POST', path)).toMatchObject({
      status: 200,
      body: { case: { analysisStatus: 'failed', failureCode: 'EVALUATION_TIMEOUT' } },
    });
    expect((await h.admin('POST', path)).status).toBe(400);
    expect((await h.admin('POST', '/__mock/moderation/cases/nope/step')).status).toBe(404);
    const status = obj((await read(h, caseId)).body);
    expect(status).toEqual({
      caseId,
      externalId: 'ext-0001',
      analysisStatus: 'failed',
      evaluationId: ack['evaluationId'],
      failureCode: 'EVALUATION_TIMEOUT',
    });
  });

  it('MOD-ANALYSIS-STATUS-VALUES: with no policy workflow every read answers policy_not_configured', async () => {
    const h = fresh({ moderation: { latency: 'instant' } });
    const ack = obj((await submit(h, sampleSubmission())).body);
    const caseId = String(ack['caseId']);
    expect((await h.admin('DELETE', `/__mock/organizations/${AD_ORG}/policy`)).status).toBe(200);
    expect((await read(h, caseId)).body).toEqual({
      caseId,
      externalId: 'ext-0001',
      analysisStatus: 'policy_not_configured',
    });
    expect(await h.admin('GET', `/__mock/organizations/${AD_ORG}/policy`)).toMatchObject({
      body: { policy: null },
    });
    const put = await h.admin('PUT', `/__mock/organizations/${AD_ORG}/policy`, { policyId: 'ad-policy-v2' });
    expect(put).toMatchObject({ status: 200, body: { policy: { policyId: 'ad-policy-v2' } } });
    expect(obj((await read(h, caseId)).body)['analysisStatus']).toBe('completed');
    expect((await h.admin('PUT', '/__mock/organizations/org_nope/policy', {})).status).toBe(404);
  });

  it('MOD-NO-FALLBACK-OLD-EVALUATION: after a policy change the old completed decision is never shown', async () => {
    const h = fresh();
    const ack = obj((await submit(h, sampleSubmission())).body);
    const caseId = String(ack['caseId']);
    h.engine.admin.advanceClock(5000);
    expect(obj((await read(h, caseId)).body)['analysisStatus']).toBe('completed');
    await h.admin('PUT', `/__mock/organizations/${AD_ORG}/policy`, { policyId: 'ad-policy-v2' });
    for (const [advance, expected] of [
      [0, 'pending'],
      [1000, 'running'],
      [1999, 'running'],
    ] as const) {
      h.engine.admin.advanceClock(advance);
      const status = obj((await read(h, caseId)).body);
      expect(status['analysisStatus']).toBe(expected);
      expect(status).not.toHaveProperty('decision');
      expect(status['evaluationId']).not.toBe(ack['evaluationId']);
    }
    h.engine.admin.advanceClock(1);
    expect(obj((await read(h, caseId)).body)['analysisStatus']).toBe('completed');
    const listed = await h.admin('GET', `/__mock/moderation/cases?organizationId=${AD_ORG}`);
    const [entry] = obj(listed.body)['cases'] as Record<string, unknown>[];
    expect(entry?.['evaluations']).toHaveLength(2);
  });
});

/** Rebuilds a value with its object keys in a random order, at every depth. */
function shuffleKeys(value: unknown, random: () => number): unknown {
  if (Array.isArray(value)) return value.map((item) => shuffleKeys(item, random));
  if (typeof value !== 'object' || value === null) return value;
  const entries = Object.entries(value).map(([k, v]) => [k, shuffleKeys(v, random), random()] as const);
  entries.sort((a, b) => a[2] - b[2]);
  return Object.fromEntries(entries.map(([k, v]) => [k, v]));
}

type Change = (submission: Record<string, unknown>) => Record<string, unknown>;
const text = (max: number) => fc.string({ minLength: 1, maxLength: max });
/** A valid change of one content field (never a no-op). */
const contentChange: fc.Arbitrary<Change> = fc.oneof(
  text(500)
    .filter((t) => t !== 'Lightweight tents for every trip')
    .map(
      (title): Change =>
        (s) => ({ ...s, title }),
    ),
  text(128)
    .filter((m) => m !== 'US')
    .map(
      (market): Change =>
        (s) => ({ ...s, market }),
    ),
  text(200).map(
    (body): Change =>
      (s) => ({ ...s, copy: { body: `${body}!` } }),
  ),
  fc.integer({ min: 2, max: 20 }).map(
    (position): Change =>
      (s) => ({ ...s, media: [{ url: 'https://cdn.acme.example/tent.jpg', type: 'image', position }] }),
  ),
  fc.array(text(3), { minLength: 2, maxLength: 4 }).map(
    (geos): Change =>
      (s) => ({ ...s, targeting: { ageMin: 18, geos } }),
  ),
  fc.dictionary(text(8), fc.jsonValue(), { minKeys: 1, maxKeys: 3 }).map(
    (providerMetadata): Change =>
      (s) => ({ ...s, providerMetadata }),
  ),
  fc.constant<Change>((s) => ({ ...s, language: 'en' })),
  fc.constant<Change>((s) => ({ ...s, landingPageUrl: null })),
  fc.constant<Change>((s) => ({ ...s, copy: { body: 'Pitch up in minutes. ' } })),
);
