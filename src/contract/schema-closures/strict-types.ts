/**
 * ajv's strictTypes at compile time: a schema's types narrow the types its context allows, union
 * types need allowUnionTypes, and a typed keyword needs its type in the context. ajv only warns in
 * its "log" mode; ClosureAjv, like ajv with `strictTypes: true`, throws.
 */
import { GROUPS, schemaTypes } from './keywords.ts';
import type { Compiler, Cx, Obj } from './types.ts';

/** The schema's types (ajv's `getSchemaTypes`), checked against the context in strict mode. */
export function typesOf(c: Compiler, schema: Obj, cx: Cx): string[] {
  const types = schemaTypes(schema);
  if (schema['nullable'] !== undefined && typeof schema['nullable'] !== 'boolean')
    throw new Error('nullable value must be ["boolean"]');
  if (!c.settings.strictTypes) return types;
  const at = ` at "${cx.doc.baseId}${cx.sp}" (strictTypes)`;
  const includes = (ts: readonly string[], t: string) =>
    ts.includes(t) || (t === 'integer' && ts.includes('number'));
  if (types.length > 0 && cx.types.length === 0) cx.types = types;
  else if (types.length > 0) {
    for (const t of types)
      if (!includes(cx.types, t))
        c.strict(`type "${t}" not allowed by context "${cx.types.join(',')}"${at}`, true);
    cx.types = cx.types.flatMap((t) =>
      includes(types, t) ? [t] : types.includes('integer') && t === 'number' ? ['integer'] : [],
    );
  }
  if (!c.settings.allowUnionTypes && types.length > 1 && !(types.length === 2 && types.includes('null')))
    c.strict(`use allowUnionTypes to allow union type keyword${at}`, true);
  for (const [group, kws] of GROUPS)
    for (const kw of kws) {
      if (schema[kw] === undefined) continue;
      const kwTypes = GROUPS.filter(([, k]) => k.includes(kw)).map(([t]) => t);
      const applicable = (t: string) =>
        cx.types.includes(t) || (t === 'number' && cx.types.includes('integer'));
      if (group === kwTypes[0] && !kwTypes.some(applicable))
        c.strict(`missing type "${kwTypes.join(',')}" for keyword "${kw}"${at}`, true);
    }
  return types;
}
