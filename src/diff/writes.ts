/**
 * The write requests `cca-kit diff --allow-writes` sends to both targets, built with the conformance
 * suite's own generators (src/arbitraries, the custom-field value generator of suites/laws) and its run
 * prefix (`cca-conform-<runId>-`) on every external id, so a team cleans both deployments up the same way.
 */
import fc from 'fast-check';
import { valueFor } from '../../suites/laws/custom-fields.ts';
import { ingestionBatch, moderationSubmission } from '../arbitraries/index.ts';
import { isRecord } from '../drift/walk.ts';

/** One generated value of an arbitrary, reproducible from the seed. */
function sampleOne<T>(arbitrary: fc.Arbitrary<T>, seed: number): T {
  const [value] = fc.sample(arbitrary, { seed, numRuns: 1 });
  if (value === undefined) throw new Error('fast-check produced no sample');
  return value;
}

export interface WriteBodies {
  /** A `ModerationSubmission`; its externalId starts with the prefix. */
  readonly moderation: Record<string, unknown>;
  /** An `IngestionBatch`; its serverId and every record externalId start with the prefix. */
  readonly ingestion: Record<string, unknown>;
}

/** The same bodies go to both sides: the two deployments are distinct, so the ids collide with nothing. */
export function writeBodies(seed: number, prefix: string): WriteBodies {
  return {
    moderation: sampleOne(moderationSubmission({ externalIdPrefix: prefix }), seed),
    ingestion: sampleOne(ingestionBatch({ externalIdPrefix: prefix, maxRecords: 3 }), seed),
  };
}

export interface WritableField {
  readonly fieldName: string;
  readonly fieldType: string;
  /** The value before the PATCH, written back afterwards. */
  readonly original: unknown;
}

/**
 * The first field of a `getCustomFields` answer whose type the suite can generate values for (the
 * custom-field laws use the same rule). Each side has its own registered fields, so each side is asked.
 */
export function writableField(body: unknown): WritableField | undefined {
  const fields = isRecord(body) ? body['fields'] : undefined;
  if (!Array.isArray(fields)) return undefined;
  for (const f of fields) {
    if (!isRecord(f) || typeof f['fieldName'] !== 'string' || typeof f['fieldType'] !== 'string') continue;
    if (valueFor(f['fieldType']) === undefined) continue;
    return { fieldName: f['fieldName'], fieldType: f['fieldType'], original: f['value'] ?? null };
  }
  return undefined;
}

/** The PATCH body for a field, as the custom-field law sends it; the value is seeded by its type. */
export function patchBody(field: WritableField, seed: number): Record<string, unknown> {
  const arbitrary = valueFor(field.fieldType) ?? fc.constant(null);
  return {
    fields: [
      {
        fieldName: field.fieldName,
        value: sampleOne(arbitrary, seed),
        confidence: 0.5,
        rationale: 'cca-conform',
      },
    ],
  };
}

/** The PATCH that writes the original value back (what the custom-field law does after its run). */
export function restoreBody(field: WritableField): Record<string, unknown> {
  return { fields: [{ fieldName: field.fieldName, value: field.original }] };
}
