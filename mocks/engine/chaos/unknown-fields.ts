/**
 * Unknown fields: one field the contract does not declare is added to every object of a response
 * (records, envelopes, nested objects, error bodies), with a seeded name and a value of a varying JSON
 * type. Section 9 says clients must tolerate them; every response object of the contract is open, so
 * the responses still validate. Dynamic maps (`customFields`...) are left alone: a key added there would
 * read as organization data, not as a new field.
 */
import type { Random } from '../../../fixtures/generate/prng.ts';
import { OPAQUE_KEYS } from './ids.ts';

const NAMES = [
  'newField',
  'betaScore',
  'experimentalFlags',
  'futureMetric',
  'x_internal',
  'previewNote',
] as const;

function unknownValue(random: Random): unknown {
  switch (random.int(6)) {
    case 0:
      return `added-${random.int(1_000_000)}`;
    case 1:
      return random.int(100_000) / 100;
    case 2:
      return random.chance(0.5);
    case 3:
      return null;
    case 4:
      return [random.int(10), `tag-${random.int(100)}`];
    default:
      return { nested: true, level: random.int(5) };
  }
}

/** A copy of `body` with one unknown field in every object; returns the copy and how many it added. */
export function addUnknownFields(body: unknown, random: Random): { body: unknown; added: number } {
  let added = 0;
  const visit = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(visit);
    if (typeof value !== 'object' || value === null) return value;
    const out: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) out[key] = OPAQUE_KEYS.has(key) ? field : visit(field);
    let name = `${NAMES[random.int(NAMES.length)] ?? 'newField'}_${random.int(1000)}`;
    while (Object.hasOwn(out, name)) name = `${name}_`;
    out[name] = unknownValue(random);
    added += 1;
    return out;
  };
  return { body: visit(body), added };
}
