import fc from 'fast-check';
import { runExamples, runProperty, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import type { CheckOutcome } from '../../src/conformance/kit/outcome.ts';
import { historyWindow, sampleActionIds } from './discover.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/** A registered field as the read shows it. */
export interface FieldInfo {
  readonly fieldName: string;
  readonly fieldType: string;
  readonly value: unknown;
}

type TypeKind = 'text' | 'number' | 'boolean' | 'date' | 'datetime' | 'select' | 'multiselect' | 'json';

/** Names a deployment may give each kind of field type, compared without case or separators. */
const TYPE_NAMES: Readonly<Record<TypeKind, readonly string[]>> = {
  text: ['text', 'string', 'shorttext', 'longtext', 'textarea', 'richtext'],
  number: ['number', 'numeric', 'integer', 'int', 'float', 'decimal', 'double'],
  boolean: ['boolean', 'bool', 'checkbox'],
  date: ['date'],
  datetime: ['datetime', 'timestamp'],
  select: ['singleselect', 'select', 'enum', 'dropdown', 'picklist', 'radio'],
  multiselect: ['multiselect', 'multipicklist', 'multienum'],
  json: ['json', 'object'],
};

/**
 * The kind of a registered field type. The spec types `fieldType` as a string and names no values,
 * so `number`, `NUMBER` and `Number` are one kind, as are `single_select` and `singleSelect`.
 */
export function typeKind(fieldType: string): TypeKind | undefined {
  const name = fieldType.toLowerCase().replace(/[^a-z]/g, '');
  for (const [kind, names] of Object.entries(TYPE_NAMES) as [TypeKind, readonly string[]][])
    if (names.includes(name)) return kind;
  return undefined;
}

/** A value of the field's registered type, for the types whose values can be generated blind. */
export function valueFor(fieldType: string): fc.Arbitrary<unknown> | undefined {
  const dates = fc.date({
    min: new Date('2000-01-01T00:00:00Z'),
    max: new Date('2035-12-31T00:00:00Z'),
    noInvalidDate: true,
  });
  switch (typeKind(fieldType)) {
    case 'text':
      return fc.string({ minLength: 1, maxLength: 30 });
    case 'number':
      return fc.integer({ min: -1_000_000, max: 1_000_000 });
    case 'boolean':
      return fc.boolean();
    case 'date':
      return dates.map((d) => d.toISOString().slice(0, 10));
    case 'datetime':
      return dates.map((d) => d.toISOString());
    case 'json':
      return fc.jsonValue({ maxDepth: 2 });
    default:
      return undefined;
  }
}

/** A value of the wrong type for the field, or undefined when every JSON value fits. */
export function wrongValueFor(fieldType: string): unknown {
  const kind = typeKind(fieldType);
  if (kind === undefined || kind === 'json') return undefined;
  return {
    text: 12345,
    number: 'not a number',
    boolean: 'yes',
    date: 'not-a-date',
    datetime: 'not-a-date',
    select: 12345,
    multiselect: 12345,
  }[kind];
}

/**
 * Values of the wrong type for the field: `wrongValueFor`, then for a date field the near misses a
 * lenient parser takes (a day the month does not have, which Date.parse reads as 2 March, and a
 * thirteenth month): no calendar has them, so they do not match a date type (4.4).
 */
export function wrongValuesFor(fieldType: string): unknown[] {
  const wrong = wrongValueFor(fieldType);
  if (wrong === undefined) return [];
  return typeKind(fieldType) === 'date' ? [wrong, '2023-02-30', '2023-13-01'] : [wrong];
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

/** Sample actions read at most to find one holding a value of every registered field type. */
const SAMPLED_FOR_FIELDS = 24;

/**
 * Writable fields of a sample action: every field holding a value now, so that value can be written
 * back afterwards (restoring by writing `null` is never relied on: a deployment may refuse it). The
 * value a field holds is of its registered type whatever the type is called, so each is written back
 * once; only the types whose values the suite can generate (`valueFor`) get new values.
 */
export interface FieldTarget {
  readonly actionId: string;
  readonly fields: readonly FieldInfo[];
}

export async function writableFields(
  ctx: LawContext,
): Promise<(FieldTarget & { readonly others: readonly FieldTarget[] }) | undefined> {
  if (!ctx.customFieldWrites) return undefined;
  return ctx.memo('sample:custom-fields', async () => {
    // Of the first sample actions, the one whose writable fields cover the most field types (the
    // first that covers every type registered stops the search): every type a write can reach is
    // then written, at the latest when its value is put back.
    let best: { actionId: string; fields: readonly FieldInfo[]; types: number } | undefined;
    const read: FieldTarget[] = [];
    for (const actionId of (await sampleActionIds(ctx)).slice(0, SAMPLED_FOR_FIELDS)) {
      const all = await readFields(ctx, actionId);
      const fields = all.filter((f) => f.fieldName !== '' && f.value !== null && f.value !== undefined);
      read.push({ actionId, fields });
      const types = new Set(fields.map((f) => f.fieldType)).size;
      if (types > (best?.types ?? 0)) best = { actionId, fields, types };
      if (types > 0 && types === new Set(all.map((f) => f.fieldType)).size) break;
    }
    if (best === undefined) return undefined;
    // A type the chosen action holds no value of, held by another action read: that one field, so
    // each type is written at least with the value it holds.
    const covered = new Set(best.fields.map((f) => f.fieldType));
    const others: FieldTarget[] = [];
    for (const { actionId, fields } of read)
      for (const field of fields)
        if (!covered.has(field.fieldType)) {
          covered.add(field.fieldType);
          others.push({ actionId, fields: [field] });
        }
    return { actionId: best.actionId, fields: best.fields, others };
  });
}

/** Why a custom-field write law found nothing to write to. */
export function noTargetReason(ctx: LawContext): string {
  return ctx.customFieldWrites
    ? 'no action with a custom field holding a value the run could put back'
    : 'writes to existing records: left alone by --no-custom-field-writes';
}

/** The action's summary in the history window's list (the page the sample came from), read afresh. */
async function listedSummary(
  ctx: LawContext,
  actionId: string,
): Promise<Record<string, unknown> | undefined> {
  const res = await call(ctx, 'listActions', {
    auth: 'read',
    query: { ...historyWindow(ctx), pageSize: 200 },
  });
  const ok = expectConforming(ctx, 'listActions', res, { status: 200, statusRule: 'LIST-RESPONSE-ENVELOPE' });
  return arr(obj(ok.parsed)['data'])
    .map(obj)
    .find((a) => a['actionId'] === actionId);
}

async function attempt<T>(what: () => Promise<T>): Promise<T | Error> {
  try {
    return await what();
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * The actions this run could not put back, run-wide (one set shared through the run's memo): once
 * one is recorded, no law writes again to data the run did not create.
 */
function leftChanged(ctx: LawContext): Promise<Set<string>> {
  return ctx.memo('left-changed', async () => new Set<string>());
}

interface LeftChanged {
  readonly fieldName: string;
  readonly putBack: unknown;
  readonly why: string;
}

/**
 * Puts back the original values of an action's fields, value by value, each read back; a field this
 * run created (its name has the run prefix: only a faulty deployment accepts one) is reported too.
 * A refused restore or a value that reads back different throws `LEFT-CHANGED`, naming the action,
 * the field and the original value to put back. Returns how many fields it checked.
 */
export async function restoreFields(
  ctx: LawContext,
  actionId: string,
  originals: readonly FieldInfo[],
): Promise<number> {
  const problems: LeftChanged[] = [];
  const current = await attempt(() => readFields(ctx, actionId));
  for (const field of originals) {
    const now = current instanceof Error ? undefined : current.find((f) => f.fieldName === field.fieldName);
    if (now !== undefined && canonical(now.value) === canonical(field.value)) continue;
    const res = await attempt(() =>
      call(ctx, 'updateCustomFields', {
        auth: 'write',
        path: { actionId },
        json: { fields: [{ fieldName: field.fieldName, value: field.value }] },
      }),
    );
    if (res instanceof Error || res.status !== 200) {
      const answer =
        res instanceof Error
          ? res.message
          : res.kind === 'network'
            ? res.error.code
            : `${res.status} ${res.raw.slice(0, 200)}`;
      problems.push({
        fieldName: field.fieldName,
        putBack: field.value,
        why: `the restore was answered ${answer}`,
      });
      continue;
    }
    const back = await attempt(() => readFields(ctx, actionId));
    const value =
      back instanceof Error ? undefined : back.find((f) => f.fieldName === field.fieldName)?.value;
    if (back instanceof Error || canonical(value) !== canonical(field.value))
      problems.push({
        fieldName: field.fieldName,
        putBack: field.value,
        why:
          back instanceof Error
            ? `the read-back failed: ${back.message}`
            : `it reads back ${canonical(value)}`,
      });
  }
  const after = await attempt(() => readFields(ctx, actionId));
  if (!(after instanceof Error))
    for (const f of after.filter((f) => f.fieldName.startsWith(ctx.prefix)))
      problems.push({ fieldName: f.fieldName, putBack: '(remove the field)', why: 'this run created it' });
  if (problems.length > 0) (await leftChanged(ctx)).add(actionId);
  // Said at the end of the run, restored or not: a value put back is the same value, but its
  // provenance (when and by whom it was last written, a confidence or rationale given with it) now
  // shows this run's write, which no client can undo.
  ctx.noteExistingWrite({
    record: `custom fields of action ${actionId}`,
    fields: originals.map((f) => f.fieldName),
    restored: problems.length === 0,
    note:
      problems.length === 0
        ? 'every value put back and read back equal; what no client can put back: when and by whom each was last written'
        : `not put back: ${problems.map((p) => `${p.fieldName} = ${canonical(p.putBack)} (${p.why})`).join('; ')}`,
  });
  if (problems.length > 0)
    violate(
      'LEFT-CHANGED',
      `left-changed:${problems.map((p) => p.fieldName).join(',')}`,
      `this run left action ${actionId} changed; put back by hand: ${problems
        .map((p) => `${p.fieldName} = ${canonical(p.putBack)} (${p.why})`)
        .join('; ')}`,
      { actionId, putBack: Object.fromEntries(problems.map((p) => [p.fieldName, p.putBack])) },
    );
  return originals.length;
}

/**
 * Runs a law's writes, then restores the fields whatever happened. A failed restore is the law's
 * outcome: data left changed outranks any other finding and is never swallowed. After one, no law
 * writes again (a re-run of the law included): it is not run.
 */
export async function withRestore(
  ctx: LawContext,
  target: { readonly actionId: string; readonly fields: readonly FieldInfo[] },
  writes: () => Promise<CheckOutcome>,
): Promise<CheckOutcome> {
  const left = await leftChanged(ctx);
  if (left.size > 0)
    return {
      kind: 'not-run',
      ruleIds: ctx.ruleIds,
      reason: `no more writes to data this run did not create: it could not put back action ${[...left].join(', ')} (LEFT-CHANGED)`,
    };
  let outcome: CheckOutcome;
  try {
    outcome = await writes();
  } catch (error) {
    const restored = await runExamples(ctx, () => restoreFields(ctx, target.actionId, target.fields));
    if (restored.kind === 'failed') return restored;
    throw error;
  }
  const restored = await runExamples(ctx, () => restoreFields(ctx, target.actionId, target.fields));
  return restored.kind === 'failed' ? restored : outcome;
}

/** Each field PATCHed once with the value it holds (of the field's type by the deployment's own answer). */
function writeOwnValues(ctx: LawContext, target: FieldTarget): Promise<CheckOutcome> {
  return runExamples(ctx, async () => {
    for (const field of target.fields) {
      const res = await call(ctx, 'updateCustomFields', {
        auth: 'write',
        path: { actionId: target.actionId },
        json: { fields: [{ fieldName: field.fieldName, value: field.value }] },
      });
      expectConforming(ctx, 'updateCustomFields', res, {
        status: 200,
        statusRule: 'CF-PATCH-STATUSES-DECLARED',
        what: `PATCH ${field.fieldName} (${field.fieldType}) with the value it holds, ${canonical(field.value)}`,
      });
    }
    return target.fields.length;
  });
}

export const patchPersists: Law = {
  id: 'custom-fields.patch-persists',
  group: 'custom-fields',
  title:
    'a PATCHed value of the registered type is echoed and read back, and the action list shows it (original values restored afterwards)',
  ruleIds: [
    'CF-PATCH-PERSISTS',
    'CF-PATCH-SHOWS-IN-LIST',
    'CF-PATCH-RESPONSE-SHAPE',
    'CF-GET-ACTIONID-MATCHES-PATH',
    'SCOPE-CUSTOM-FIELDS-WRITE',
    'AUTH-WRITE-KEY-WRITE-ROUTES',
    'CF-PATCH-STATUSES-DECLARED',
    'LEFT-CHANGED',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  run: async (ctx) => {
    const target = await writableFields(ctx);
    if (target === undefined)
      return {
        kind: 'not-run',
        ruleIds: patchPersists.ruleIds,
        reason: noTargetReason(ctx),
      };
    const { actionId, fields } = target;
    const generable = fields.filter((f) => valueFor(f.fieldType) !== undefined);
    return withRestore(ctx, target, async () => {
      // Each field once with the value the deployment holds for it (of the field's type by its own
      // answer): random picks of a few runs may miss a type.
      const own = await writeOwnValues(ctx, target);
      if (own.kind === 'failed') return own;
      for (const other of target.others) {
        const written = await withRestore(ctx, other, () => writeOwnValues(ctx, other));
        if (written.kind === 'failed') return written;
      }
      if (generable.length === 0) return own;
      const arb = fc
        .constantFrom(...generable)
        .chain((f) => (valueFor(f.fieldType) ?? fc.constant(null)).map((value) => ({ field: f, value })));
      return runProperty(ctx, arb, async ({ field, value }) => {
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
        // The action's summary in the list is the same action (spec 2.1 customFields): it shows the
        // written value too, where it lists the field at all (keys present only, as the reads-agree law).
        const listed = await listedSummary(ctx, actionId);
        const map = obj(listed?.['customFields']);
        if (
          listed !== undefined &&
          field.fieldName in map &&
          canonical(map[field.fieldName]) !== canonical(value)
        )
          violate(
            'CF-PATCH-SHOWS-IN-LIST',
            'list-stale',
            `after PATCH ${field.fieldName}=${canonical(value)} of ${actionId}, the action list shows customFields.${field.fieldName} ${canonical(map[field.fieldName])}`,
          );
      });
    });
  },
};

/**
 * A 422 for a body refused because of one item: section 7 says a 422 carries fieldErrors "on validation
 * failure", so the map holds at least one message; section 4.4 maps "field name to validation message",
 * read as the item's fieldName (a should: the spec does not rule out a request path as the key).
 */
function checkItemNamed(parsed: unknown, label: string, itemName: string): void {
  const errors = obj(obj(parsed)['fieldErrors']);
  if (Object.keys(errors).length === 0)
    violate(
      'ERR-CUSTOM-FIELD-422-FIELDERRORS',
      'field-errors-empty',
      `422 for ${label} has no message in fieldErrors: ${JSON.stringify(obj(parsed)['fieldErrors'])}`,
    );
  else if (!(itemName in errors))
    violate(
      'CF-FIELDERRORS-NAME-THE-ITEM',
      'field-errors-key',
      `422 for ${label} has fieldErrors ${JSON.stringify(errors)} without the item's fieldName ${itemName}`,
    );
}

export const patchInputs: Law = {
  id: 'custom-fields.patch-inputs',
  group: 'custom-fields',
  title:
    'PATCH refuses a body that is no object, empty fields, missing or empty fieldName, missing value, confidence outside 0..1 (naming the item, also past the tenth), non-string rationale, wrong types and unregistered names (422 with fieldErrors); unknown action 404',
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
    'CF-FIELDERRORS-NAME-THE-ITEM',
    'MOCK-CF-UNKNOWN-FIELD-422',
    'LEFT-CHANGED',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  run: async (ctx) => {
    const target = await writableFields(ctx);
    if (target === undefined)
      return {
        kind: 'not-run',
        ruleIds: patchInputs.ruleIds,
        reason: noTargetReason(ctx),
      };
    const { actionId, fields } = target;
    const field = fields[0] as FieldInfo;
    // Its current value (never null: writableFields keeps only fields holding one) written back.
    const same = { fieldName: field.fieldName, value: field.value };
    // One field of each type with values known to be of another type.
    const typed = [
      ...new Map(
        fields.filter((f) => wrongValuesFor(f.fieldType).length > 0).map((f) => [f.fieldType, f]),
      ).values(),
    ];
    type Case = readonly [
      label: string,
      rule: string,
      body: unknown,
      status: number | readonly number[],
      fieldErrorsFor?: string | undefined,
      // The item's fieldName, for a body the contract refuses because of that item.
      itemName?: string,
    ];
    // A body the contract refuses: 400 or 422 (section 7: "the condition that selects 400 versus 422
    // outside moderation: not shown"; choice validationStatus). A value of the wrong registered type is 422.
    const BAD_BODY = [400, 422] as const;
    const cases: Case[] = [
      ['fields: []', 'CF-PATCH-FIELDS-MIN-1', { fields: [] }, BAD_BODY],
      ['no fields key', 'CF-PATCH-FIELDS-MIN-1', {}, BAD_BODY],
      // A body that is JSON but no object at all: refused like a body without fields, never a 500.
      ['the JSON body null', 'CF-PATCH-FIELDS-MIN-1', null, BAD_BODY],
      ['the JSON body []', 'CF-PATCH-FIELDS-MIN-1', [], BAD_BODY],
      ['fieldName ""', 'CF-PATCH-FIELDNAME-REQUIRED', { fields: [{ fieldName: '', value: 1 }] }, BAD_BODY],
      ['fieldName missing', 'CF-PATCH-FIELDNAME-REQUIRED', { fields: [{ value: 1 }] }, BAD_BODY],
      // An item that is JSON null has no fieldName either: refused like one without it, never a 500
      // (null is the one non-object a reader of the item's fieldName can trip over).
      ['an item null', 'CF-PATCH-FIELDNAME-REQUIRED', { fields: [null] }, BAD_BODY],
      [
        'value missing',
        'CF-PATCH-VALUE-REQUIRED',
        { fields: [{ fieldName: field.fieldName }] },
        BAD_BODY,
        undefined,
        field.fieldName,
      ],
      [
        'confidence -0.001',
        'CF-PATCH-CONFIDENCE-RANGE',
        { fields: [{ ...same, confidence: -0.001 }] },
        BAD_BODY,
        undefined,
        field.fieldName,
      ],
      [
        'confidence 1.001',
        'CF-PATCH-CONFIDENCE-RANGE',
        { fields: [{ ...same, confidence: 1.001 }] },
        BAD_BODY,
        undefined,
        field.fieldName,
      ],
      ['confidence 0', 'CF-PATCH-CONFIDENCE-RANGE', { fields: [{ ...same, confidence: 0 }] }, 200],
      ['confidence 1', 'CF-PATCH-CONFIDENCE-RANGE', { fields: [{ ...same, confidence: 1 }] }, 200],
      [
        'rationale 123',
        'CF-PATCH-RATIONALE-STRING',
        { fields: [{ ...same, rationale: 123 }] },
        BAD_BODY,
        undefined,
        field.fieldName,
      ],
      [
        'unregistered field',
        'CF-PATCH-UNKNOWN-FIELD-REJECTED',
        { fields: [{ fieldName: `${ctx.prefix}unregistered`, value: 'x' }] },
        [404, 422],
        `${ctx.prefix}unregistered`,
      ],
    ];
    for (const wrong of typed)
      for (const value of wrongValuesFor(wrong.fieldType))
        cases.push([
          `${wrong.fieldName} (${wrong.fieldType}) = ${JSON.stringify(value)}`,
          'CF-PATCH-TYPE-MATCH-422',
          { fields: [{ fieldName: wrong.fieldName, value }] },
          422,
          wrong.fieldName,
        ]);
    // The refused item at index 10: an index of two digits names that item, not the one its first
    // digit would point at. Ten items of the first field before it (any deployment refuses the body
    // for the eleventh alone), and a second field of the action for the eleventh so the two names
    // differ, with the value it holds now (a deployment that wrongly took the body changes nothing).
    const other =
      fields.find((f) => f.fieldName !== field.fieldName) ??
      (await readFields(ctx, actionId)).find((f) => f.fieldName !== '' && f.fieldName !== field.fieldName);
    if (other !== undefined) {
      cases.push([
        `eleven items, the eleventh (${other.fieldName}) with confidence 1.5`,
        'CF-PATCH-CONFIDENCE-RANGE',
        {
          fields: [
            ...Array.from({ length: 10 }, () => same),
            { fieldName: other.fieldName, value: other.value, confidence: 1.5 },
          ],
        },
        BAD_BODY,
        undefined,
        other.fieldName,
      ]);
    }
    const outcome = await withRestore(ctx, target, () =>
      runExamples(ctx, async () => {
        for (const [label, rule, json, status, fieldErrorsFor, itemName] of cases) {
          const res = await call(ctx, 'updateCustomFields', { auth: 'write', path: { actionId }, json });
          expectConforming(ctx, 'updateCustomFields', res, {
            status,
            statusRule: rule,
            what: `PATCH custom fields with ${label}`,
            before: (parsed) => {
              if (res.status !== 422) return;
              if (itemName !== undefined) checkItemNamed(parsed, label, itemName);
              if (fieldErrorsFor === undefined) return;
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
      }),
    );
    if (outcome.kind === 'failed') return outcome;
    // The types the chosen action holds no value of: a value of another type, on the action that holds one.
    for (const other of target.others) {
      const wrongField = other.fields[0] as FieldInfo;
      const values = wrongValuesFor(wrongField.fieldType);
      if (values.length === 0) continue;
      const refused = await withRestore(ctx, other, () =>
        runExamples(ctx, async () => {
          for (const wrong of values) {
            const label = `${wrongField.fieldName} (${wrongField.fieldType}) = ${JSON.stringify(wrong)}`;
            const res = await call(ctx, 'updateCustomFields', {
              auth: 'write',
              path: { actionId: other.actionId },
              json: { fields: [{ fieldName: wrongField.fieldName, value: wrong }] },
            });
            expectConforming(ctx, 'updateCustomFields', res, {
              status: 422,
              statusRule: 'CF-PATCH-TYPE-MATCH-422',
              what: `PATCH custom fields with ${label}`,
              before: (parsed) => checkItemNamed(parsed, label, wrongField.fieldName),
            });
          }
          return values.length;
        }),
      );
      if (refused.kind === 'failed') return refused;
    }
    return outcome;
  },
};

export const customFieldLaws: readonly Law[] = [patchPersists, patchInputs];
