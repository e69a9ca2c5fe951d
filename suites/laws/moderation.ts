import fc from 'fast-check';
import { moderationSubmission } from '../../src/arbitraries/index.ts';
import type { ClientResult } from '../../src/client/types.ts';
import { runExamples, runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { CONTENT_CHANGES } from './moderation-changes.ts';
import { checkCaseRead, resultsInInputOrder, submitNew, TERMINAL } from './moderation-support.ts';
import { arr, call, expectConforming, expectJsonMediaType, obj, str } from './support.ts';

const submissions = (ctx: LawContext) => moderationSubmission({ externalIdPrefix: ctx.prefix });

export const lifecycle: Law = {
  id: 'moderation.lifecycle',
  group: 'moderation',
  title:
    '202 pending; polling reaches completed or failed in time; a decision only when completed, schema-valid; a resubmission then is a duplicate acknowledged pending',
  ruleIds: [
    'MOD-SUBMIT-202',
    'MOD-NEW-CASE-PENDING',
    'MOD-ACK-ANALYSIS-PENDING',
    'MOD-EXACT-RESUBMIT-DUPLICATE',
    'ID-MODERATION-CASEID-STABLE',
    'MOD-SINGLE-STATUS-VALUES',
    'MOD-202-ACCEPTANCE-NOT-COMPLETION',
    'MOD-DECISION-ONLY-WHEN-COMPLETED',
    'MOD-ANALYSIS-STATUS-VALUES',
    'MOD-GET-CASE-FROM-ACK',
    'SCHEMA-MODERATION-ACK',
    'SCHEMA-MODERATION-CASE-STATUS',
    'SCHEMA-MODERATION-DECISION',
    'SCHEMA-MODERATION-HIT',
    'SCHEMA-MODERATION-EVIDENCE',
    'AUTH-WRITE-KEY-WRITE-ROUTES',
    'SCOPE-MODERATION-SUBMIT-WRITE',
    'MOD-SUBMIT-STATUSES-DECLARED',
    'MOD-GET-STATUSES-DECLARED',
    'SCOPE-MODERATION-READ',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  // Most of its time is the deployment's processing delay; it reads only the cases it submitted.
  waits: true,
  // Each run submits a batch of cases first and then polls them all at once, so a live deployment's
  // processing time is waited for once per run, not once per case.
  run: (ctx) =>
    runProperty(
      ctx,
      fc.array(submissions(ctx), { minLength: 1, maxLength: Math.min(ctx.runs, 5) }),
      async (batch) => {
        const cases: { caseId: string; externalId: string; body: Record<string, unknown> }[] = [];
        for (const s of batch) {
          const externalId = ctx.unique('life');
          const body = { ...s, externalId };
          const { caseId } = await submitNew(ctx, body);
          cases.push({ caseId, externalId, body });
        }
        const deadline = performance.now() + ctx.moderationTimeoutMs;
        const read = async (caseId: string, externalId: string) =>
          checkCaseRead(
            ctx,
            await call(ctx, 'getModerationCase', { auth: 'read', path: { caseId } }),
            caseId,
            externalId,
          );
        await Promise.all(
          cases.map(async ({ caseId, externalId, body }) => {
            let status = await read(caseId, externalId);
            while (!TERMINAL.has(status)) {
              if (performance.now() > deadline) {
                violate(
                  'MOD-202-ACCEPTANCE-NOT-COMPLETION',
                  'timeout',
                  `case ${caseId} still ${status} after ${ctx.moderationTimeoutMs} ms (raise --moderation-timeout for slow deployments)`,
                );
              }
              await ctx.poll();
              status = await read(caseId, externalId);
            }
            const again = await call(ctx, 'submitModerationCase', { auth: 'write', json: body });
            expectDuplicateAck(
              ctx,
              again,
              caseId,
              `after its status read said ${status}`,
              `resubmit-after-${status}`,
            );
          }),
        );
      },
      // Each case waits for the deployment's processing: the first failing batch is reported as is.
      { runs: 2, shrink: false },
    ),
};

/**
 * The answer to an exact resubmission of case `caseId`: 202 `duplicate` naming the same case, replayed,
 * and acknowledged `pending` (section 4.14), whatever the case's evaluation has reached meanwhile: an
 * acknowledgement acknowledges the submission, it is not a status read. `when` says what came before.
 */
export function expectDuplicateAck(
  ctx: LawContext,
  res: ClientResult,
  caseId: string,
  when: string,
  tag: string,
): void {
  expectConforming(ctx, 'submitModerationCase', res, {
    status: 202,
    statusRule: 'MOD-EXACT-RESUBMIT-DUPLICATE',
    before: (parsed) => {
      const p = obj(parsed);
      if (p['status'] !== 'duplicate')
        violate(
          'MOD-EXACT-RESUBMIT-DUPLICATE',
          `${tag}-status:${String(p['status'])}`,
          `exact resubmission of case ${caseId} ${when} answered status ${JSON.stringify(p['status'])}, expected duplicate`,
        );
      if (obj(p['idempotency'])['replayed'] !== true)
        violate(
          'MOD-EXACT-RESUBMIT-DUPLICATE',
          `${tag}-not-replayed`,
          `exact resubmission of case ${caseId} ${when} has idempotency.replayed ${JSON.stringify(obj(p['idempotency'])['replayed'])}`,
        );
      if (p['caseId'] !== caseId)
        violate(
          'ID-MODERATION-CASEID-STABLE',
          `${tag}-case-id`,
          `exact resubmission of case ${caseId} ${when} names case ${JSON.stringify(p['caseId'])}`,
        );
      if (p['analysisStatus'] !== 'pending')
        violate(
          'MOD-ACK-ANALYSIS-PENDING',
          `${tag}-analysis:${String(p['analysisStatus'])}`,
          `the acknowledgement of an exact resubmission of case ${caseId} ${when} has analysisStatus ${JSON.stringify(p['analysisStatus'])}; an acknowledgement says pending (section 4.14)`,
        );
    },
  });
}

/** Same content, keys in another order: JSON object order is not content. */
function reorder(s: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(s).reverse());
}

/**
 * The same resubmission with its body framed chunked (no Content-Length) is answered as the one just
 * sent with Content-Length: same status, same outcome, same case. Or refused with 411 Length Required,
 * which RFC 9112 section 6.3 lets a server (or a proxy in front of it) answer to a body without
 * Content-Length: that refusal says what it is, unlike a 400 that reads the body as missing.
 */
async function expectChunkedAlike(ctx: LawContext, body: Record<string, unknown>, plain: ClientResult) {
  const op = ctx.contract.getOperation('submitModerationCase');
  const chunked = await ctx.client.request({
    method: op.method,
    path: op.pathTemplate,
    auth: 'write',
    operationId: op.operationId,
    json: body,
    chunked: true,
  });
  if (chunked.status === 411) return;
  const outcome = (res: ClientResult) => {
    const p = res.kind === 'http' && res.ok ? obj(res.body) : {};
    return `${res.status} ${String(p['status'])} ${String(p['caseId'])}`;
  };
  if (outcome(chunked) !== outcome(plain))
    violate(
      'HTTP-CHUNKED-REQUEST-BODY',
      `chunked:${chunked.status}`,
      `an exact resubmission answered ${outcome(plain)} (status, outcome, caseId) with Content-Length is answered ${outcome(chunked)} with the same body framed Transfer-Encoding: chunked: ${chunked.raw.slice(0, 200)}`,
    );
  expectJsonMediaType(`${op.method} ${op.pathTemplate} (chunked)`, chunked);
}

export const idempotency: Law = {
  id: 'moderation.idempotency',
  group: 'moderation',
  title: 'exact resubmission is a duplicate of the same case with replayed true; changed content is a 409',
  ruleIds: [
    'MOD-EXACT-RESUBMIT-DUPLICATE',
    'ID-MODERATION-CASEID-STABLE',
    'MOD-ACK-ANALYSIS-PENDING',
    'MOD-CHANGED-CONTENT-409',
    'ERR-409-IDENTIFIER-CONFLICT',
    'ID-MODERATION-EXTERNALID-IMMUTABLE',
    'MOD-SINGLE-STATUS-VALUES',
    'ERR-MODERATION-BODY',
    'HTTP-CHUNKED-REQUEST-BODY',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  run: (ctx) => {
    // Every other resubmission, the first among them, is framed chunked without Content-Length, as
    // streaming clients and proxies send bodies: HTTP/1.1 servers must read both framings alike.
    let examples = 0;
    return runProperty(
      ctx,
      fc.record({
        s: submissions(ctx),
        reordered: fc.boolean(),
        title: fc.string({ minLength: 1, maxLength: 20 }),
      }),
      async ({ s, reordered, title }) => {
        const chunked = examples++ % 2 === 0;
        const externalId = ctx.unique('idem');
        const first: Record<string, unknown> = { ...s, externalId };
        const { caseId } = await submitNew(ctx, first);
        const again = await call(ctx, 'submitModerationCase', {
          auth: 'write',
          json: reordered ? reorder(first) : first,
        });
        expectDuplicateAck(ctx, again, caseId, `(${externalId}, sent again at once)`, 'resubmit');
        if (chunked) await expectChunkedAlike(ctx, first, again);
        const changed = { ...first, title: `${String(first['title']).slice(0, 400)} ${title}` };
        const conflict = await call(ctx, 'submitModerationCase', { auth: 'write', json: changed });
        expectConforming(ctx, 'submitModerationCase', conflict, {
          status: 409,
          statusRule: 'MOD-CHANGED-CONTENT-409',
          what: `changed content under ${externalId}`,
        });
        checkCaseRead(
          ctx,
          await call(ctx, 'getModerationCase', { auth: 'read', path: { caseId } }),
          caseId,
          externalId,
        );
      },
      { runs: Math.min(ctx.runs, 8) },
    );
  },
};

export const batch: Law = {
  id: 'moderation.batch',
  group: 'moderation',
  title:
    'batch: one result per input in input order; valid items accepted despite a bad, a conflicting and a duplicate item',
  ruleIds: [
    'MOD-BATCH-ORDER',
    'MOD-BATCH-ITEM-ISOLATION',
    'MOD-BATCH-CONFLICT-REJECTED',
    'MOD-BATCH-REJECTED-DETAILS',
    'MOD-EXACT-RESUBMIT-DUPLICATE',
    'MOD-ACK-ANALYSIS-PENDING',
    'MOD-ACK-EXTERNALID-ECHO',
    'SCHEMA-MODERATION-BATCH-RESULT',
    'MOD-GET-CASE-FROM-ACK',
    'SCOPE-MODERATION-BATCH-WRITE',
    'MOD-BATCH-STATUSES-DECLARED',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  run: (ctx) => {
    const arb = fc.record({
      valid: fc.array(submissions(ctx), { minLength: 1, maxLength: 4 }),
      existing: submissions(ctx),
      order: fc.array(fc.nat(), { minLength: 20, maxLength: 20 }),
      dropField: fc.constantFrom('title', 'media', 'targeting', 'market'),
    });
    return runProperty(
      ctx,
      arb,
      async ({ valid, existing, order, dropField }) => {
        const prior: Record<string, unknown> = { ...existing, externalId: ctx.unique('prior') };
        const { caseId: priorCase } = await submitNew(ctx, prior);
        type Item = {
          readonly kind: 'valid' | 'invalid' | 'conflict' | 'duplicate';
          readonly body: Record<string, unknown>;
        };
        const invalid = { ...valid[0], externalId: ctx.unique('bad') } as Record<string, unknown>;
        delete invalid[dropField];
        const items: Item[] = [
          ...valid.map((v) => ({ kind: 'valid' as const, body: { ...v, externalId: ctx.unique('ok') } })),
          { kind: 'invalid', body: invalid },
          {
            kind: 'conflict',
            body: { ...prior, title: `${String(prior['title']).slice(0, 400)} (changed)` },
          },
          { kind: 'duplicate', body: prior },
        ];
        // A seeded shuffle so the bad items land anywhere.
        for (let i = items.length - 1; i > 0; i--) {
          const j = (order[i] ?? 0) % (i + 1);
          [items[i], items[j]] = [items[j] as Item, items[i] as Item];
        }
        const res = await call(ctx, 'submitModerationBatch', {
          auth: 'write',
          json: { cases: items.map((i) => i.body) },
        });
        const ok = expectConforming(ctx, 'submitModerationBatch', res, {
          status: 202,
          statusRule: 'MOD-BATCH-ITEM-ISOLATION',
          before: (parsed) => {
            const results = resultsInInputOrder(parsed, items);
            // Isolation of the valid items before each bad item's own verdict.
            results.forEach((r, i) => {
              if ((items[i] as Item).kind === 'valid' && r['status'] !== 'accepted')
                violate(
                  'MOD-BATCH-ITEM-ISOLATION',
                  `valid-item:${String(r['status'])}`,
                  `valid item ${i} was ${JSON.stringify(r['status'])} next to bad items`,
                );
            });
            results.forEach((r, i) => {
              const item = items[i] as Item;
              const status = r['status'];
              if (item.kind === 'invalid') {
                if (status !== 'rejected')
                  violate(
                    'MOD-BATCH-REJECTED-DETAILS',
                    `invalid-item:${String(status)}`,
                    `item ${i} without ${dropField} was ${JSON.stringify(status)}, expected rejected`,
                  );
                const named = [
                  ...arr(r['missingFields']),
                  ...arr(r['invalidFields']),
                  ...arr(r['errors']),
                ].some((f) => typeof f === 'string' && f.includes(dropField));
                const explained = named || typeof r['message'] === 'string' || r['code'] !== undefined;
                if (!explained)
                  violate(
                    'MOD-BATCH-REJECTED-DETAILS',
                    'rejected-unexplained',
                    `rejected item ${i} carries no errors, message, code or field lists`,
                  );
              }
              if (item.kind === 'conflict' && status !== 'rejected')
                violate(
                  'MOD-BATCH-CONFLICT-REJECTED',
                  `conflict-item:${String(status)}`,
                  `item ${i} (changed content under ${String(item.body['externalId'])}) was ${JSON.stringify(status)}, expected rejected`,
                );
              if (item.kind === 'duplicate') {
                if (status !== 'duplicate')
                  violate(
                    'MOD-EXACT-RESUBMIT-DUPLICATE',
                    `batch-duplicate:${String(status)}`,
                    `item ${i} (exact resubmission) was ${JSON.stringify(status)}, expected duplicate`,
                  );
                if (r['caseId'] !== priorCase)
                  violate(
                    'ID-MODERATION-CASEID-STABLE',
                    'batch-duplicate-case',
                    `duplicate item ${i} names case ${JSON.stringify(r['caseId'])}, first accepted as ${priorCase}`,
                  );
              }
              if (
                (status === 'accepted' || status === 'duplicate') &&
                r['analysisStatus'] !== undefined &&
                r['analysisStatus'] !== 'pending'
              ) {
                violate(
                  'MOD-ACK-ANALYSIS-PENDING',
                  'batch-analysis',
                  `result ${i} analysisStatus ${JSON.stringify(r['analysisStatus'])}`,
                );
              }
            });
          },
        });
        for (const r of arr(obj(ok.parsed)['results']).map(obj)) {
          const caseId = str(r['caseId']);
          if (r['status'] !== 'accepted' || caseId === undefined) continue;
          checkCaseRead(
            ctx,
            await call(ctx, 'getModerationCase', { auth: 'read', path: { caseId } }),
            caseId,
            str(r['externalId']),
          );
        }
      },
      { runs: Math.min(ctx.runs, 6) },
    );
  },
};

export const validatedBeforeEnqueue: Law = {
  id: 'moderation.validated-before-enqueue',
  group: 'moderation',
  title: 'a refused submission leaves nothing behind: the corrected one with the same externalId is accepted',
  ruleIds: ['MOD-VALIDATED-BEFORE-ENQUEUE'],
  needs: { keys: ['write'], writes: true },
  run: (ctx) =>
    runProperty(
      ctx,
      fc.record({ s: submissions(ctx), breakage: fc.constantFrom('media-type', 'cta', 'no-geos') }),
      async ({ s, breakage }) => {
        const externalId = ctx.unique('venq');
        const good = { ...s, externalId };
        const bad: Record<string, unknown> =
          breakage === 'media-type'
            ? { ...good, media: [{ url: 'https://cdn.example.org/x', type: 'hologram', position: 1 }] }
            : breakage === 'cta'
              ? { ...good, callToAction: 'BUY_TWICE' }
              : { ...good, targeting: { ageMin: null, geos: [] } };
        const refused = await call(ctx, 'submitModerationCase', { auth: 'write', json: bad });
        expectConforming(ctx, 'submitModerationCase', refused, {
          status: [400, 422],
          statusRule: 'MOD-VALIDATED-BEFORE-ENQUEUE',
          what: `invalid submission (${breakage})`,
        });
        const res = await call(ctx, 'submitModerationCase', { auth: 'write', json: good });
        expectConforming(ctx, 'submitModerationCase', res, {
          status: 202,
          statusRule: 'MOD-VALIDATED-BEFORE-ENQUEUE',
          before: (parsed) => {
            if (obj(parsed)['status'] !== 'accepted')
              violate(
                'MOD-VALIDATED-BEFORE-ENQUEUE',
                'left-behind',
                `after a refused submission, the valid one under ${externalId} was ${JSON.stringify(obj(parsed)['status'])}`,
              );
          },
        });
      },
      { runs: Math.min(ctx.runs, 5) },
    ),
};

export const changedContentEachField: Law = {
  id: 'moderation.changed-content-each-field',
  group: 'moderation',
  title: 'a change to any one content field under an existing externalId is a 409, nested fields included',
  ruleIds: ['MOD-CHANGED-CONTENT-409', 'ID-MODERATION-EXTERNALID-IMMUTABLE'],
  needs: { keys: ['write'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const [s] = fc.sample(submissions(ctx), { seed: ctx.seed, numRuns: 1 });
      const externalId = ctx.unique('each');
      const first: Record<string, unknown> = { ...s, externalId };
      await submitNew(ctx, first);
      for (const { field, change } of CONTENT_CHANGES) {
        const res = await call(ctx, 'submitModerationCase', { auth: 'write', json: change(first) });
        expectConforming(ctx, 'submitModerationCase', res, {
          status: 409,
          statusRule: 'MOD-CHANGED-CONTENT-409',
          what: `resubmission of ${externalId} with only ${field} changed`,
        });
      }
      return CONTENT_CHANGES.length;
    }),
};

export const moderationLaws: readonly Law[] = [
  lifecycle,
  idempotency,
  changedContentEachField,
  batch,
  validatedBeforeEnqueue,
];
