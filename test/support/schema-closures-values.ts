/**
 * Values for test/schema-closures.test.ts: ones that fit a schema, the same values broken in one place
 * (a property deleted or added, a value of the wrong type, a string lengthened or emptied, a number out of
 * range, an array grown or emptied), and any JSON at all.
 */
import fc from 'fast-check';
import { arbitraryFromSchema } from '../../src/arbitraries/from-schema.ts';
import type { JsonSchema, RefResolver } from '../../src/arbitraries/json-schema.ts';

type Json = unknown;

/** Every object and array inside a value, the value itself first. */
function containers(value: Json, found: Json[] = []): Json[] {
  if (typeof value !== 'object' || value === null) return found;
  found.push(value);
  for (const child of Object.values(value)) containers(child, found);
  return found;
}

/** The value with one thing in it broken; `pick` chooses where, `kind` how, `junk` is what goes in. */
export function mutate(value: Json, pick: number, kind: number, junk: Json): Json {
  const copy = structuredClone(value);
  const places = containers(copy);
  const place = places[pick % Math.max(places.length, 1)];
  if (place === undefined) return kind % 2 === 0 ? junk : `${String(copy)}\u{1F600}`.repeat(300);
  const record = place as Record<string, Json>;
  const keys = Object.keys(record);
  const key = keys[pick % Math.max(keys.length, 1)];
  const old = key === undefined ? undefined : record[key];
  switch (kind % 8) {
    case 0:
      if (key !== undefined) delete record[key];
      break;
    case 1:
      if (Array.isArray(place)) place.push(junk);
      else record[`extra${pick % 3}`] = junk;
      break;
    case 2:
      if (key !== undefined) record[key] = junk;
      break;
    case 3:
      if (key !== undefined) record[key] = typeof old === 'string' ? `${old}é\u{1F600}`.repeat(400) : 'x';
      break;
    case 4:
      if (key !== undefined) record[key] = typeof old === 'string' ? '' : [];
      break;
    case 5:
      if (key !== undefined) record[key] = typeof old === 'number' ? old * 1000 + 0.5 : -1;
      break;
    case 6:
      if (key !== undefined) record[key] = typeof old === 'number' ? -old - 1e9 : null;
      break;
    default:
      if (Array.isArray(place)) place.push(...place, ...place, ...place);
      else if (key !== undefined) record[key] = Array.isArray(old) ? [] : { [key]: old };
  }
  return copy;
}

/** Values for one schema: fitting (3), fitting but broken in one place (3), any JSON (1). */
export function valuesFor(schema: unknown, resolve: RefResolver): fc.Arbitrary<Json> {
  const fitting = arbitraryFromSchema(schema as JsonSchema, { resolve, extraItems: 2 });
  const broken = fc
    .tuple(fitting, fc.nat(), fc.nat(), fc.jsonValue({ maxDepth: 2 }))
    .map(([value, pick, kind, junk]) => mutate(value, pick, kind, junk));
  return fc.oneof(
    { weight: 3, arbitrary: fitting },
    { weight: 3, arbitrary: broken },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  );
}
