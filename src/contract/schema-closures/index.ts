/**
 * A JSON Schema 2020-12 validator that compiles each schema once into closures instead of code, for
 * pages whose Content-Security-Policy forbids `unsafe-eval`: no `new Function`, no `eval`. `ClosureAjv`
 * implements the part of ajv's `Ajv2020` that ../validator-schemas.ts and mocks/engine/data-file/schema.ts
 * use, and reports the errors ajv reports with `allErrors: true`: same instancePath, keyword, params,
 * message and schemaPath, in the same order. The order follows ajv's: the type checked up front (unless a
 * single type whose keyword group is used, then inside that group), the untyped keywords, then the
 * number, string, array and object groups, each in ajv's keyword order. Keywords outside that subset
 * throw at compile time, naming the keyword, as ajv's strict mode does.
 *
 * The modules: keywords.ts (the keyword tables and ajv's group order), settings.ts (ajv's options),
 * runtime.ts (error reporting and ajv's runtime helpers), refs.ts (reference resolution),
 * strict-types.ts (strictTypes), compiler.ts (a schema into one closure), applicators.ts, values.ts,
 * limits.ts, arrays.ts and objects.ts (the keyword compilers), formats.ts (the formats the contract uses),
 * closure-ajv.ts (the API).
 */
import type { AjvModules } from '../ajv-load.ts';
import { ClosureAjv } from './closure-ajv.ts';
import { closureFormats } from './formats.ts';

export { ClosureAjv } from './closure-ajv.ts';
/** Length in code points, as ajv's `ucs2length` (exported for its test). */
export { ucs2length } from './runtime.ts';

/**
 * Registers the formats the contract uses (./formats.ts: `date-time` and `uri`, ajv-formats' full ones
 * in outcome), where node registers all of ajv-formats'; any other format is a compile-time error.
 */
export function addFormats(ajv: ClosureAjv): ClosureAjv {
  for (const [name, format] of Object.entries(closureFormats)) ajv.addFormat(name, format);
  return ajv;
}

/**
 * The modules ../ajv-load.ts's `loadAjv()` returns, with `ClosureAjv` standing in for ajv: the cast is
 * sound for the calls this package makes (see the module comment), not for ajv's whole API.
 */
export const closureAjvModules = { Ajv2020: ClosureAjv, addFormats } as unknown as AjvModules;
