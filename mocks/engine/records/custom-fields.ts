/**
 * Custom fields (spec 2.4, 4.3, 4.4): reading every registered field of an action and writing
 * values checked against the registered type. A PATCH is all or nothing: one bad item and nothing
 * is stored. `null` clears a value of any type. Items naming the same field twice: the last wins.
 */

import { FLAG_INGESTED } from '../../../fixtures/generate/table.ts';
import type { CustomFieldDefinition } from '../../../fixtures/generate/types.ts';
import { rowChanged } from './answer-cache.ts';
import type { OrgData, Provenance, StoredCustomValue } from './state.ts';
import { customFieldsOfRow } from './view.ts';

export interface FieldRecord {
  readonly fieldName: string;
  readonly displayName: string;
  readonly fieldType: string;
  readonly value: unknown;
  readonly provenance?: Provenance;
}

/** Every registered field (value null when unset), then unregistered names present on the action. */
export function readFields(org: OrgData, row: number): FieldRecord[] {
  const values = customFieldsOfRow(org, row);
  const written = org.customValues.get(row);
  const seededOrigin: Provenance = !org.table.hasFlag(row, FLAG_INGESTED)
    ? { origin: 'seed' }
    : org.ingested.get(row)?.extras !== undefined
      ? { origin: 'data' }
      : { origin: 'ingestion' };
  const record = (name: string, displayName: string, fieldType: string): FieldRecord => {
    const stored = written?.get(name);
    if (stored !== undefined)
      return { fieldName: name, displayName, fieldType, value: stored.value, provenance: stored.provenance };
    if (name in values)
      return { fieldName: name, displayName, fieldType, value: values[name], provenance: seededOrigin };
    return { fieldName: name, displayName, fieldType, value: null };
  };
  const registered = new Set(org.catalog.customFields.map((f) => f.name));
  const out = org.catalog.customFields.map((f) => record(f.name, f.displayName, f.type));
  for (const name of Object.keys(values))
    if (!registered.has(name)) out.push(record(name, name, 'unregistered'));
  return out;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Why `value` does not fit the field, or null when it does. */
export function typeError(field: CustomFieldDefinition, value: unknown): string | null {
  if (value === null) return null;
  const got = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
  switch (field.type) {
    case 'text':
      return typeof value === 'string' ? null : `${field.name} is a text field; got ${got}`;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? null
        : `${field.name} is a number field; got ${got}`;
    case 'boolean':
      return typeof value === 'boolean' ? null : `${field.name} is a boolean field; got ${got}`;
    case 'single_select': {
      const options = field.options ?? [];
      if (typeof value === 'string' && options.includes(value)) return null;
      return `${field.name} is a single_select field; expected one of ${options.map((o) => JSON.stringify(o)).join(', ')}`;
    }
    case 'date': {
      const m = typeof value === 'string' ? DATE.exec(value) : null;
      if (m) {
        const [y, mo, d] = [m[1], m[2], m[3]].map((v) => Number.parseInt(v ?? '', 10)) as [
          number,
          number,
          number,
        ];
        const probe = new Date(Date.UTC(y, mo - 1, d));
        if (probe.getUTCFullYear() === y && probe.getUTCMonth() === mo - 1 && probe.getUTCDate() === d)
          return null;
      }
      return `${field.name} is a date field; expected a calendar date YYYY-MM-DD`;
    }
    case 'json':
      return null;
  }
}

export interface FieldWrite {
  readonly fieldName: string;
  readonly value: unknown;
  readonly confidence?: number;
  readonly rationale?: string;
}

export type WriteOutcome =
  | { readonly ok: true; readonly updated: { fieldName: string; value: unknown }[] }
  | { readonly ok: false; readonly fieldErrors: Record<string, string> };

/** Checks every item first; stores all of them only when none has an error. */
export function writeFields(
  org: OrgData,
  row: number,
  items: unknown,
  keyName: string,
  now: number,
): WriteOutcome {
  // A Map, not an object: a field named `__proto__` must be reported like any other.
  const fieldErrors = new Map<string, string>();
  const writes: FieldWrite[] = [];
  const list = Array.isArray(items) ? items : [];
  if (list.length === 0)
    return { ok: false, fieldErrors: { fields: 'fields must be an array of at least 1 item' } };
  list.forEach((item: unknown, i) => {
    const entry = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const name = entry['fieldName'];
    if (typeof name !== 'string' || name === '') {
      fieldErrors.set(`fields[${i}]`, 'fieldName must be a non-empty string');
      return;
    }
    const field = org.catalog.customFields.find((f) => f.name === name);
    if (field === undefined) {
      fieldErrors.set(name, `${name} is not a registered custom field`);
      return;
    }
    if (!('value' in entry)) {
      fieldErrors.set(name, `${name}: value is required`);
      return;
    }
    const confidence = entry['confidence'];
    if (
      confidence !== undefined &&
      (typeof confidence !== 'number' || !(confidence >= 0 && confidence <= 1))
    ) {
      fieldErrors.set(name, `${name}: confidence must be a number from 0 to 1`);
      return;
    }
    const rationale = entry['rationale'];
    if (rationale !== undefined && typeof rationale !== 'string') {
      fieldErrors.set(name, `${name}: rationale must be a string`);
      return;
    }
    const error = typeError(field, entry['value']);
    if (error !== null) {
      fieldErrors.set(name, error);
      return;
    }
    writes.push({
      fieldName: name,
      value: entry['value'],
      ...(typeof confidence === 'number' ? { confidence } : {}),
      ...(typeof rationale === 'string' ? { rationale } : {}),
    });
  });
  if (fieldErrors.size > 0) return { ok: false, fieldErrors: Object.fromEntries(fieldErrors) };
  const stored = org.customValues.get(row) ?? new Map<string, StoredCustomValue>();
  const updatedAt = new Date(now).toISOString();
  for (const w of writes) {
    stored.set(w.fieldName, {
      value: w.value,
      provenance: {
        origin: 'api',
        confidence: w.confidence ?? null,
        rationale: w.rationale ?? null,
        updatedAt,
        keyName,
      },
    });
  }
  org.customValues.set(row, stored);
  rowChanged(org, row);
  return { ok: true, updated: writes.map((w) => ({ fieldName: w.fieldName, value: w.value })) };
}
