import fc from 'fast-check';
import { runExamples, runProperty, violate } from '../../src/conformance/check.ts';
import type { Law, LawContext } from '../../src/conformance/law.ts';
import { sampleActionIds } from './discover.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/** A registered field as the read shows it. */
export interface FieldInfo {
  readonly fieldName: string;
  readonly fieldType: string;
  readonly value: unknown;
}

/** A value of the field's registered type, for the types whose values can be generated blind. */
export function valueFor(fieldType: string): fc.Arbitrary<unknown> | undefined {
  switch (fieldType) {
    case 'text':
      return fc.string({ minLength: 1, maxLength: 30 });
    case 'number':
      return fc.integer({ min: -1_000_000, max: 1_000_000 });
    case 'boolean':
      return fc.boolean();
    case 'date':
      return fc
        .date({
          min: new Date('2000-01-01T00:00:00Z'),
          max: new Date('2035-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString().slice(0, 10));
    case 'json':
      return fc.jsonValue({ maxDepth: 2 });
    default:
      return undefined;
  }
}

/** A value of the wrong type for the field, or undefined when every JSON value fits. */
export function wrongValueFor(fieldType: string): unknown {
  return { text: 12345, number: 'not a number', boolean: 'yes', date: 'not-a-date', single_select: 12345 }[
    fieldType
  ];
}

/** Canonical JSON: sorted keys, so stored objects compare regardless of key order. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

export async function readFields(ctx: LawContext, actionId: string): Promise<readonly FieldInfo[]> {
  const res = await call(ctx, 'getCustomFields', { auth: 'read', path: { actionId } });
  const ok = expectConforming(ctx, 'getCustomFields', res, { status: 200 });
  return arr(obj(ok.parsed)['fields'])
    .map(obj)
    .map((f) => ({
      fieldName: str(f['fieldName']) ?? '',
      fieldType: str(f['fieldType']) ?? '',
      value: f['value'],
    }));
}

/** Writable fields of a sample action: those of a type whose values the suite can generate. */
export async function writableFields(
  ctx: LawContext,
): Promise<{ actionId: string; fields: readonly FieldInfo[] } | undefined> {
  return ctx.memo('sample:custom-fields', async () => {
    for (const actionId of (await sampleActionIds(ctx)).slice(0, 5)) {
      const fields = (await readFields(ctx, actionId)).filter((f) => valueFor(f.fieldType) !== undefined);
      if (fields.length > 0) return { actionId, fields };
    }
    return undefined;
  });
}

async function restore(ctx: LawContext, actionId: string, fields: readonly FieldInfo[]): Promise<void> {
  await call(ctx, 'updateCustomFields', {
    auth: 'write',
    path: { actionId },
    json: { fields: fields.map((f) => ({ fieldName: f.fieldName, value: f.value ?? null })) },
  });
}

export const patchPersists: Law = {
  id: 'custom-fields.patch-persists',
  group: 'custom-fields',
  title:
    'a PATCHed value of the registered type is echoed and read back (original values restored afterwards)',
  ruleIds: [
    'CF-PATCH-PERSISTS',
    'CF-PATCH-RESPONSE-SHAPE',
    'CF-GET-ACTIONID-MATCHES-PATH',
    'SCOPE-CUSTOM-FIELDS-WRITE',
    'AUTH-WRITE-KEY-WRITE-ROUTES',
    'CF-PATCH-STATUSES-DECLARED',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  run: async (ctx) => {
    const target = await writableFields(ctx);
    if (target === undefined)
      return {
        kind: 'not-run',
        ruleIds: patchPersists.ruleIds,
        reason: 'no action with a custom field of a generable type (text, number, boolean, date, json)',
      };
    const { actionId, fields } = target;
    const arb = fc
      .constantFrom(...fields)
      .chain((f) => (valueFor(f.fieldType) ?? fc.constant(null)).map((value) => ({ field: f, value })));
    try {
      return await runProperty(ctx, arb, async ({ field, value }) => {
        const res = await call(ctx, 'updateCustomFields', {
          auth: 'write',
          path: { actionId },
          json: {
            fields: [{ fieldName: field.fieldName, value, confidence: 0.5, rationale: 'cca-conform' }],
          },
        });
        expectConforming(ctx, 'updateCustomFields', res, {
          status: 200,
          statusRule: 'CF-PATCH-STATUSES-DECLARED',
          before: (parsed) => {
            const p = obj(parsed);
            if (p['actionId'] !== actionId)
              violate(
                'CF-GET-ACTIONID-MATCHES-PATH',
                'patch-action-id',
                `PATCH of ${actionId} answered actionId ${JSON.stringify(p['actionId'])}`,
              );
            const updated = arr(p['updated'])
              .map(obj)
              .find((u) => u['fieldName'] === field.fieldName);
            if (updated === undefined || canonical(updated['value']) !== canonical(value)) {
              violate(
                'CF-PATCH-RESPONSE-SHAPE',
                'updated-echo',
                `PATCH ${field.fieldName}=${canonical(value)} answered updated ${JSON.stringify(p['updated'])}`,
              );
            }
          },
        });
        const after = (await readFields(ctx, actionId)).find((f) => f.fieldName === field.fieldName);
        if (after === undefined || canonical(after.value) !== canonical(value)) {
          violate(
            'CF-PATCH-PERSISTS',
            'not-persisted',
            `after PATCH ${field.fieldName}=${canonical(value)}, the read gives ${canonical(after?.value)}`,
          );
        }
      });
    } finally {
      await restore(ctx, actionId, fields).catch(() => undefined);
    }
  },
};

export const patchInputs: Law = {
  id: 'custom-fields.patch-inputs',
  group: 'custom-fields',
  title:
    'PATCH refuses empty fields, missing or empty fieldName, missing value, confidence outside 0..1, non-string rationale, wrong types and unregistered names (422 with fieldErrors); unknown action 404',
  ruleIds: [
    'CF-PATCH-FIELDS-MIN-1',
    'CF-PATCH-FIELDNAME-REQUIRED',
    'CF-PATCH-VALUE-REQUIRED',
    'CF-PATCH-CONFIDENCE-RANGE',
    'CF-PATCH-RATIONALE-STRING',
    'CF-PATCH-TYPE-MATCH-422',
    'CF-PATCH-UNKNOWN-FIELD-REJECTED',
    'CF-PATCH-UNKNOWN-ACTION-404',
    'ERR-CUSTOM-FIELD-422-FIELDERRORS',
    'ERR-CUSTOM-FIELD-FIELDERRORS',
    'MOCK-CF-UNKNOWN-FIELD-422',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  run: async (ctx) => {
    const target = await writableFields(ctx);
    if (target === undefined)
      return {
        kind: 'not-run',
        ruleIds: patchInputs.ruleIds,
        reason: 'no action with a custom field of a generable type',
      };
    const { actionId, fields } = target;
    const field = fields[0] as FieldInfo;
    const same = { fieldName: field.fieldName, value: field.value ?? null };
    const typed = fields.find((f) => wrongValueFor(f.fieldType) !== undefined);
    type Case = readonly [
      label: string,
      rule: string,
      body: unknown,
      status: number | readonly number[],
      fieldErrorsFor?: string,
    ];
    // A body the contract refuses: 400 or 422 (section 7: "the condition that selects 400 versus 422
    // outside moderation: not shown"; choice validationStatus). A value of the wrong registered type is 422.
    const BAD_BODY = [400, 422] as const;
    const cases: Case[] = [
      ['fields: []', 'CF-PATCH-FIELDS-MIN-1', { fields: [] }, BAD_BODY],
      ['no fields key', 'CF-PATCH-FIELDS-MIN-1', {}, BAD_BODY],
      ['fieldName ""', 'CF-PATCH-FIELDNAME-REQUIRED', { fields: [{ fieldName: '', value: 1 }] }, BAD_BODY],
      ['fieldName missing', 'CF-PATCH-FIELDNAME-REQUIRED', { fields: [{ value: 1 }] }, BAD_BODY],
      ['value missing', 'CF-PATCH-VALUE-REQUIRED', { fields: [{ fieldName: field.fieldName }] }, BAD_BODY],
      [
        'confidence -0.001',
        'CF-PATCH-CONFIDENCE-RANGE',
        { fields: [{ ...same, confidence: -0.001 }] },
        BAD_BODY,
      ],
      [
        'confidence 1.001',
        'CF-PATCH-CONFIDENCE-RANGE',
        { fields: [{ ...same, confidence: 1.001 }] },
        BAD_BODY,
      ],
      ['confidence 0', 'CF-PATCH-CONFIDENCE-RANGE', { fields: [{ ...same, confidence: 0 }] }, 200],
      ['confidence 1', 'CF-PATCH-CONFIDENCE-RANGE', { fields: [{ ...same, confidence: 1 }] }, 200],
      ['rationale 123', 'CF-PATCH-RATIONALE-STRING', { fields: [{ ...same, rationale: 123 }] }, BAD_BODY],
      [
        'unregistered field',
        'CF-PATCH-UNKNOWN-FIELD-REJECTED',
        { fields: [{ fieldName: `${ctx.prefix}unregistered`, value: 'x' }] },
        [404, 422],
        `${ctx.prefix}unregistered`,
      ],
    ];
    if (typed !== undefined) {
      cases.push([
        `${typed.fieldName} (${typed.fieldType}) = ${JSON.stringify(wrongValueFor(typed.fieldType))}`,
        'CF-PATCH-TYPE-MATCH-422',
        { fields: [{ fieldName: typed.fieldName, value: wrongValueFor(typed.fieldType) }] },
        422,
        typed.fieldName,
      ]);
    }
    try {
      return await runExamples(ctx, async () => {
        for (const [label, rule, json, status, fieldErrorsFor] of cases) {
          const res = await call(ctx, 'updateCustomFields', { auth: 'write', path: { actionId }, json });
          expectConforming(ctx, 'updateCustomFields', res, {
            status,
            statusRule: rule,
            what: `PATCH custom fields with ${label}`,
            before: (parsed) => {
              if (fieldErrorsFor === undefined || res.status !== 422) return;
              const errors = obj(obj(parsed)['fieldErrors']);
              if (!(fieldErrorsFor in errors))
                violate(
                  'ERR-CUSTOM-FIELD-422-FIELDERRORS',
                  'field-errors-missing',
                  `422 for ${label} has fieldErrors ${JSON.stringify(errors)} without ${fieldErrorsFor}`,
                );
            },
          });
        }
        const unknown = await call(ctx, 'updateCustomFields', {
          auth: 'write',
          path: { actionId: `${ctx.prefix}missing-action` },
          json: { fields: [same] },
        });
        expectConforming(ctx, 'updateCustomFields', unknown, {
          status: 404,
          statusRule: 'CF-PATCH-UNKNOWN-ACTION-404',
        });
        return cases.length + 1;
      });
    } finally {
      await restore(ctx, actionId, fields).catch(() => undefined);
    }
  },
};

export const customFieldLaws: readonly Law[] = [patchPersists, patchInputs];
