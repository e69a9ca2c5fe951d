/**
 * The output schema a tool advertises in tools/list: the contract's output schema of a success, made
 * portable and small.
 *
 * Why success only: a failure is an `isError` result whose text is the failure's JSON, with no
 * structuredContent (1.x SDK clients validate structuredContent against outputSchema even on an error
 * result, so a failure there would need the failure union in every tool's schema: 81 % of tools/list
 * was seven copies of it). The failure shape is stated once, in the server instructions and the docs.
 *
 * Why portable: hosts compile these schemas with many validators (the Inspector's `--strict` checks
 * portability): no type arrays (`["integer", "null"]` becomes an `anyOf`), every schema carries a
 * validation keyword (an "any JSON value" schema lists the six JSON types), and keys only a maintainer
 * reads (`$comment`, `x-*`, `examples`, `$schema`, `$id`), unreferenced `$defs` and
 * `additionalProperties: false` are left out.
 */
import type { AgentJsonSchema } from '../../../src/contract/agent.ts';

type Json = Record<string, unknown>;

const DROPPED = new Set(['$schema', '$id', '$comment', 'examples']);
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const SCHEMA_ONE = new Set([
  'items',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'not',
  'contains',
  'propertyNames',
  'if',
  'then',
  'else',
]);
const SCHEMA_LISTS = new Set(['anyOf', 'oneOf', 'allOf', 'prefixItems']);
/** Keywords that constrain a value; a schema with none of them accepts anything. */
const VALIDATION = new Set(['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'not']);

const ANY_JSON: Json = {
  anyOf: ['object', 'array', 'string', 'number', 'boolean', 'null'].map((type) => ({ type })),
};

function portable(schema: unknown): unknown {
  if (schema === true) return ANY_JSON;
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (DROPPED.has(key) || key.startsWith('x-')) continue;
    // Closed objects are the server's own check (it validates every answer against the contract);
    // a client gains nothing from `additionalProperties: false` but bytes and a reason to break.
    if (key === 'additionalProperties' && value === false) continue;
    if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null)
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, portable(child)]));
    else if (SCHEMA_ONE.has(key) && typeof value === 'object') out[key] = portable(value);
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value)) out[key] = value.map(portable);
    else out[key] = value;
  }
  const type = out['type'];
  if (Array.isArray(type)) {
    const { type: _types, description, title, ...rest } = out;
    const alternatives = type.map((t) => (t === 'null' ? { type: 'null' } : { ...rest, type: t }));
    return {
      ...(title === undefined ? {} : { title }),
      ...(description === undefined ? {} : { description }),
      anyOf: alternatives,
    };
  }
  if (!Object.keys(out).some((key) => VALIDATION.has(key))) return { ...out, ...ANY_JSON };
  return out;
}

/**
 * The success schema a tool advertises.
 *
 * @example
 * advertisedOutputSchema({ type: 'object', properties: { n: { type: ['integer', 'null'] } } });
 * // { type: 'object', properties: { n: { anyOf: [{ type: 'integer' }, { type: 'null' }] } } }
 */
export function advertisedOutputSchema(output: AgentJsonSchema): Json {
  const schema = portable(output);
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema)
    ? withoutUnusedDefs(schema as Json)
    : { type: 'object' };
}

/** Drops the top-level `$defs` no reference reaches (the contract keeps some for its failure shapes). */
function withoutUnusedDefs(schema: Json): Json {
  const defs = schema['$defs'];
  if (typeof defs !== 'object' || defs === null) return schema;
  const { $defs: _all, ...body } = schema;
  const used = new Set<string>();
  const pending = [JSON.stringify(body)];
  for (let text = pending.pop(); text !== undefined; text = pending.pop()) {
    for (const match of text.matchAll(/"#\/\$defs\/([^"/]+)/g)) {
      const name = match[1];
      if (name === undefined || used.has(name)) continue;
      used.add(name);
      pending.push(JSON.stringify((defs as Json)[name] ?? null));
    }
  }
  const kept = Object.entries(defs).filter(([name]) => used.has(name));
  return kept.length === 0 ? body : { ...body, $defs: Object.fromEntries(kept) };
}

/** Where a schema is not portable: a type array or a schema without a validation keyword (JSON pointers). */
export function portabilityIssues(schema: unknown, pointer = ''): string[] {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema))
    return schema === true ? [`${pointer}: a boolean schema`] : [];
  const issues: string[] = [];
  const s = schema as Json;
  if (Array.isArray(s['type'])) issues.push(`${pointer}: a type array`);
  if (!Object.keys(s).some((key) => VALIDATION.has(key))) issues.push(`${pointer}: no validation keyword`);
  for (const [key, value] of Object.entries(s)) {
    if (SCHEMA_MAPS.has(key) && typeof value === 'object' && value !== null)
      for (const [name, child] of Object.entries(value))
        issues.push(...portabilityIssues(child, `${pointer}/${key}/${name}`));
    else if (SCHEMA_ONE.has(key)) issues.push(...portabilityIssues(value, `${pointer}/${key}`));
    else if (SCHEMA_LISTS.has(key) && Array.isArray(value))
      value.forEach((child, i) => {
        issues.push(...portabilityIssues(child, `${pointer}/${key}/${i}`));
      });
  }
  return issues;
}
