/**
 * The contract without its prose, for the browser build. A page that bundles `cca-kit/msw` carries the
 * whole OpenAPI document (the engine routes, coerces and validates from it); its descriptions,
 * summaries and examples are ~60% of its bytes and no part of the mock's behaviour reads them. The
 * package build (scripts/build.js) writes this lean copy beside the full one, and the package.json
 * `browser` field points the browser build's loader at it. In node, `/docs/json` serves the full
 * document; in a browser it serves this one, still a valid OpenAPI 3.1 document describing every
 * operation, parameter and schema (see docs/install.md, "In a browser").
 */

/** Keys that are prose or samples wherever they stand (OpenAPI and JSON Schema alike). */
const PROSE_KEYS = new Set([
  'description',
  'summary',
  'example',
  'examples',
  'x-spec-gap',
  'x-invalid-examples',
]);

/**
 * Keys whose value is a map from user-chosen names to schemas or OpenAPI objects: a property named
 * `description` is a name, not prose, so the map's own keys are all kept.
 */
const NAMED_MAPS = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/** Keys whose value is data (an enum's members, a default value): copied untouched. */
const DATA_KEYS = new Set(['enum', 'const', 'default', 'required']);

/** What `info.description` says in the lean copy, so a reader of `/docs/json` knows where the prose went. */
export const LEAN_NOTE =
  'The cca-kit browser build serves this contract without descriptions, summaries and examples, to keep ' +
  'the page small. The full document is contract/openapi.json of the cca-kit package, and /docs/json of `cca-kit mock`.';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function lean(value: Json, isResponse: boolean): Json {
  if (Array.isArray(value)) return value.map((item) => lean(item, false));
  if (value === null || typeof value !== 'object') return value;
  const out: { [key: string]: Json } = {};
  for (const [key, child] of Object.entries(value)) {
    if (PROSE_KEYS.has(key)) continue;
    if (DATA_KEYS.has(key)) out[key] = child;
    else if (key === 'responses' && child !== null && typeof child === 'object' && !Array.isArray(child)) {
      out[key] = Object.fromEntries(
        Object.entries(child).map(([name, response]) => [name, lean(response, true)]),
      );
    } else if (NAMED_MAPS.has(key) && child !== null && typeof child === 'object' && !Array.isArray(child)) {
      out[key] = Object.fromEntries(
        Object.entries(child).map(([name, schema]) => [name, lean(schema, false)]),
      );
    } else out[key] = lean(child, false);
  }
  // A Response Object must have a description (OpenAPI 3.1, 4.8.17.1); a reference stands for one.
  if (isResponse && !('$ref' in out)) out['description'] = '';
  return out;
}

/**
 * A copy of an OpenAPI 3.1 document without prose: every description, summary, example and prose
 * extension removed (a response keeps an empty description, which OpenAPI requires), `info.description`
 * replaced by `LEAN_NOTE`. Paths, operations, parameters, schemas, `x-` keywords the engine reads,
 * enums and defaults are unchanged, so every validator compiled from it checks exactly what the full
 * document's does.
 */
export function leanDocument<T>(document: T): T {
  const copy = lean(document as Json, false) as { info?: { [key: string]: Json } };
  if (copy.info !== undefined) copy.info = { ...copy.info, description: LEAN_NOTE };
  return copy as T;
}
