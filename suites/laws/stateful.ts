import fc from 'fast-check';
import { ingestionBatch, moderationSubmission } from '../../src/arbitraries/index.ts';
import { runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import {
  canonical,
  type FieldInfo,
  readFields,
  valueFor,
  withRestore,
  writableFields,
} from './custom-fields.ts';
import { checkCaseRead, resultsInInputOrder, submitNew } from './moderation-support.ts';
import { arr, call, expectConforming, obj } from './support.ts';

/** What the spec promises, tracked while a sequence runs. */
interface Model {
  readonly cases: {
    readonly externalId: string;
    readonly content: Record<string, unknown>;
    readonly caseId: string;
  }[];
  readonly fields: Map<string, string>;
}
type Real = Record<string, never>;
type Cmd = fc.AsyncCommand<Model, Real>;

const short = (s: Record<string, unknown>): string => JSON.stringify(String(s['title']).slice(0, 24));

function commands(
  ctx: LawContext,
  target: { actionId: string; fields: readonly FieldInfo[] } | undefined,
): fc.Arbitrary<Cmd>[] {
  const submission = moderationSubmission({ externalIdPrefix: ctx.prefix });
  const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

  class SubmitNew implements Cmd {
    constructor(readonly s: Record<string, unknown>) {}
    check = () => true;
    async run(m: Model) {
      const content = { ...this.s, externalId: ctx.unique('mb') };
      const { caseId } = await submitNew(ctx, content);
      m.cases.push({ externalId: String(content['externalId']), content, caseId });
    }
    toString = () => `submit(new, title=${short(this.s)})`;
  }

  class ResubmitSame implements Cmd {
    constructor(readonly i: number) {}
    check = (m: Readonly<Model>) => m.cases.length > 0;
    async run(m: Model) {
      const c = pick(m.cases, this.i);
      const res = await call(ctx, 'submitModerationCase', { auth: 'write', json: c.content });
      expectConforming(ctx, 'submitModerationCase', res, {
        status: 202,
        statusRule: 'MOD-EXACT-RESUBMIT-DUPLICATE',
        before: (p) => {
          if (obj(p)['status'] !== 'duplicate')
            violate(
              'MOD-EXACT-RESUBMIT-DUPLICATE',
              `model-resubmit:${String(obj(p)['status'])}`,
              `resubmitting ${c.externalId} unchanged gave ${JSON.stringify(obj(p)['status'])}`,
            );
          if (obj(p)['caseId'] !== c.caseId)
            violate(
              'ID-MODERATION-CASEID-STABLE',
              'model-duplicate-case',
              `duplicate of ${c.externalId} names case ${JSON.stringify(obj(p)['caseId'])}, expected ${c.caseId}`,
            );
        },
      });
    }
    toString = () => `resubmit(same, #${this.i})`;
  }

  class ResubmitChanged implements Cmd {
    constructor(
      readonly i: number,
      readonly title: string,
    ) {}
    check = (m: Readonly<Model>) => m.cases.length > 0;
    async run(m: Model) {
      const c = pick(m.cases, this.i);
      const changed = { ...c.content, title: `${String(c.content['title']).slice(0, 400)} ${this.title}` };
      const res = await call(ctx, 'submitModerationCase', { auth: 'write', json: changed });
      expectConforming(ctx, 'submitModerationCase', res, {
        status: 409,
        statusRule: 'MOD-CHANGED-CONTENT-409',
        what: `changed resubmission of ${c.externalId}`,
      });
    }
    toString = () => `resubmit(changed, #${this.i})`;
  }

  class Batch implements Cmd {
    constructor(
      readonly fresh: readonly Record<string, unknown>[],
      readonly dup: number | null,
      readonly conflict: number | null,
    ) {}
    // Never an empty batch: the duplicate and conflict items need an existing case.
    check = (m: Readonly<Model>) => this.fresh.length > 0 || m.cases.length > 0;
    async run(m: Model) {
      type Item = {
        readonly expect: 'accepted' | 'duplicate' | 'rejected';
        readonly body: Record<string, unknown>;
        readonly caseId?: string;
      };
      const items: Item[] = this.fresh.map((s) => ({
        expect: 'accepted',
        body: { ...s, externalId: ctx.unique('mbb') },
      }));
      if (this.dup !== null && m.cases.length > 0) {
        const c = pick(m.cases, this.dup);
        items.push({ expect: 'duplicate', body: c.content, caseId: c.caseId });
      }
      if (this.conflict !== null && m.cases.length > 0) {
        const c = pick(m.cases, this.conflict);
        items.push({
          expect: 'rejected',
          body: { ...c.content, title: `${String(c.content['title']).slice(0, 400)} (batch change)` },
        });
      }
      const res = await call(ctx, 'submitModerationBatch', {
        auth: 'write',
        json: { cases: items.map((i) => i.body) },
      });
      const ok = expectConforming(ctx, 'submitModerationBatch', res, {
        status: 202,
        statusRule: 'MOD-BATCH-ITEM-ISOLATION',
        before: (p) => {
          resultsInInputOrder(p, items, 'model-').forEach((r, i) => {
            const item = items[i] as Item;
            if (r['status'] !== item.expect) {
              const rule =
                item.expect === 'duplicate'
                  ? 'MOD-EXACT-RESUBMIT-DUPLICATE'
                  : item.expect === 'rejected'
                    ? 'MOD-BATCH-CONFLICT-REJECTED'
                    : 'MOD-BATCH-ITEM-ISOLATION';
              violate(
                rule,
                `model-batch:${item.expect}:${String(r['status'])}`,
                `batch item ${i} expected ${item.expect}, got ${JSON.stringify(r['status'])}`,
              );
            }
            if (item.caseId !== undefined && r['caseId'] !== item.caseId)
              violate(
                'ID-MODERATION-CASEID-STABLE',
                'model-batch-duplicate-case',
                `batch duplicate ${i} names case ${JSON.stringify(r['caseId'])}, expected ${item.caseId}`,
              );
          });
        },
      });
      arr(obj(ok.parsed)['results'])
        .map(obj)
        .forEach((r, i) => {
          const item = items[i] as Item;
          if (item.expect === 'accepted')
            m.cases.push({
              externalId: String(item.body['externalId']),
              content: item.body,
              caseId: String(r['caseId']),
            });
        });
    }
    toString = () =>
      `batch(${this.fresh.length} new${this.dup === null ? '' : `, dup #${this.dup}`}${this.conflict === null ? '' : `, conflict #${this.conflict}`})`;
  }

  class ReadStatus implements Cmd {
    constructor(readonly i: number) {}
    check = (m: Readonly<Model>) => m.cases.length > 0;
    async run(m: Model) {
      const c = pick(m.cases, this.i);
      checkCaseRead(
        ctx,
        await call(ctx, 'getModerationCase', { auth: 'read', path: { caseId: c.caseId } }),
        c.caseId,
        c.externalId,
      );
    }
    toString = () => `read-status(#${this.i})`;
  }

  class Ingest implements Cmd {
    constructor(readonly batch: Record<string, unknown>) {}
    check = () => ctx.client.hasKey('ingest');
    async run() {
      const records = arr(this.batch['records']).map((r) => ({ ...obj(r), externalId: ctx.unique('mi') }));
      const res = await call(ctx, 'ingestRecords', { auth: 'ingest', json: { ...this.batch, records } });
      expectConforming(ctx, 'ingestRecords', res, {
        status: 202,
        statusRule: 'ING-202-ACCEPTED',
        before: (p) => {
          if (obj(p)['accepted'] !== records.length)
            violate(
              'ING-ACCEPTED-COUNT',
              'model-accepted',
              `ingested ${records.length} records, accepted ${JSON.stringify(obj(p)['accepted'])}`,
            );
        },
      });
    }
    toString = () => `ingest(${arr(this.batch['records']).length} records)`;
  }

  const list: fc.Arbitrary<Cmd>[] = [
    submission.map((s) => new SubmitNew(s)),
    fc.nat(50).map((i) => new ResubmitSame(i)),
    fc
      .record({ i: fc.nat(50), t: fc.string({ minLength: 1, maxLength: 8 }) })
      .map(({ i, t }) => new ResubmitChanged(i, t)),
    fc
      .record({
        fresh: fc.array(submission, { minLength: 0, maxLength: 3 }),
        dup: fc.option(fc.nat(50)),
        conflict: fc.option(fc.nat(50)),
      })
      .filter((b) => b.fresh.length > 0 || b.dup !== null || b.conflict !== null)
      .map((b) => new Batch(b.fresh, b.dup, b.conflict)),
    fc.nat(50).map((i) => new ReadStatus(i)),
    ingestionBatch({ externalIdPrefix: ctx.prefix, maxRecords: 3 }).map((b) => new Ingest(b)),
  ];

  if (target !== undefined) {
    const { actionId, fields } = target;
    class PatchField implements Cmd {
      constructor(
        readonly field: FieldInfo,
        readonly value: unknown,
      ) {}
      check = () => true;
      async run(m: Model) {
        const res = await call(ctx, 'updateCustomFields', {
          auth: 'write',
          path: { actionId },
          json: { fields: [{ fieldName: this.field.fieldName, value: this.value }] },
        });
        expectConforming(ctx, 'updateCustomFields', res, {
          status: 200,
          statusRule: 'CF-PATCH-STATUSES-DECLARED',
        });
        m.fields.set(this.field.fieldName, canonical(this.value));
      }
      toString = () => `patch(${this.field.fieldName}=${canonical(this.value)})`;
    }
    class ReadFields implements Cmd {
      check = (m: Readonly<Model>) => m.fields.size > 0;
      async run(m: Model) {
        const current = await readFields(ctx, actionId);
        for (const [name, expected] of m.fields) {
          const got = canonical(current.find((f) => f.fieldName === name)?.value);
          if (got !== expected)
            violate(
              'CF-PATCH-PERSISTS',
              'model-not-persisted',
              `custom field ${name} reads ${got}, last written ${expected}`,
            );
        }
      }
      toString = () => 'read-custom-fields()';
    }
    list.push(
      fc
        .constantFrom(...fields)
        .chain((f) => (valueFor(f.fieldType) ?? fc.constant(null)).map((v) => new PatchField(f, v))),
      fc.constant(new ReadFields()),
    );
  }
  return list;
}

export const modelBased: Law = {
  id: 'stateful.model-based',
  group: 'stateful',
  title:
    'random sequences of submissions, resubmissions, batches, status reads, custom-field writes/reads and ingestion agree with a model of the spec',
  ruleIds: [
    'MOD-EXACT-RESUBMIT-DUPLICATE',
    'MOD-CHANGED-CONTENT-409',
    'MOD-BATCH-ORDER',
    'MOD-BATCH-ITEM-ISOLATION',
    'MOD-BATCH-CONFLICT-REJECTED',
    'ID-MODERATION-CASEID-STABLE',
    'ID-MODERATION-EXTERNALID-IMMUTABLE',
    'MOD-DECISION-ONLY-WHEN-COMPLETED',
    'MOD-202-ACCEPTANCE-NOT-COMPLETION',
    'CF-PATCH-PERSISTS',
    'ING-ACCEPTED-COUNT',
    'LEFT-CHANGED',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  run: async (ctx) => {
    // Custom fields join the sequences when the deployment has a writable one; the rest runs regardless.
    // A failed discovery is not swallowed: it is this law's outcome (a failure, or not run on a budget).
    const target = await writableFields(ctx);
    const arb = fc.commands(commands(ctx, target), { maxCommands: 10 });
    const sequences = () =>
      runProperty(
        ctx,
        arb,
        async (cmds) => {
          await fc.asyncModelRun(() => ({ model: { cases: [], fields: new Map() }, real: {} }), cmds);
        },
        { runs: Math.min(ctx.runs, 15), format: (cmds) => String(cmds) },
      );
    // The custom-field writes are put back value by value and read back (LEFT-CHANGED if not).
    return target === undefined ? sequences() : withRestore(ctx, target, sequences);
  },
};

export const statefulLaws: readonly Law[] = [modelBased];
