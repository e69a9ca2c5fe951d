/**
 * Validation against schemas a deployment gives at run time (tool `outputSchema`, `spec(id)`):
 * compiled once per schema text with a lenient ajv (unknown keywords are annotations, the
 * schema is the deployment's, not ours), answers as data naming the path.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';

const addFormats = formatsModule.default;

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true, allowUnionTypes: true });
addFormats(ajv);
const cache = new Map<string, ValidateFunction | string>();

/**
 * The schema with closed objects opened: section 9 says clients must tolerate unknown fields, so an
 * extra member in an answer is never a violation, even where the deployment's schema closes the object.
 */
export function tolerant(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(tolerant);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'additionalProperties' || key === 'unevaluatedProperties') && value === false) continue;
    out[key] = tolerant(value);
  }
  return out;
}

export type SchemaCheck =
  | { readonly ok: true }
  | { readonly ok: false; readonly errors: readonly string[] }
  | { readonly ok: 'uncompilable'; readonly reason: string };

/** Validates `value` against a deployment's schema. */
export function checkAgainst(schema: unknown, value: unknown): SchemaCheck {
  if (schema === true || schema === undefined) return { ok: true };
  const key = JSON.stringify(schema);
  let compiled = cache.get(key);
  if (compiled === undefined) {
    try {
      const { $schema: _ignored, ...rest } = tolerant(schema) as Record<string, unknown>;
      compiled = ajv.compile(rest);
    } catch (error) {
      compiled = error instanceof Error ? error.message : String(error);
    }
    cache.set(key, compiled);
  }
  if (typeof compiled === 'string') return { ok: 'uncompilable', reason: compiled };
  if (compiled(value)) return { ok: true };
  return {
    ok: false,
    errors: (compiled.errors ?? []).slice(0, 5).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`),
  };
}
