/**
 * The data file's JSON Schema (contract/data.schema.json), compiled once on first use, and the
 * translation of ajv's errors into problems located by JSON pointer.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import schema from '../../../contract/data.schema.json' with { type: 'json' };
// ajv is loaded at the first data file, not with the engine (see src/contract/ajv-load.ts).
import { loadAjv } from '../../../src/contract/precompiled.ts';
import type { DataProblem } from './types.ts';

/** The schema as shipped, for tools that want it (`$id` https://cca-kit.invalid/data.schema.json). */
export const dataFileSchema: Readonly<Record<string, unknown>> = schema;

let compiled: ValidateFunction | undefined;

/**
 * The compiled schema: by ajv in node, by the closure compiler in a browser build (package.json
 * `browser`: src/contract/schema-closures/, the same errors without generated code).
 */
function validator(): ValidateFunction {
  compiled ??= new (loadAjv().Ajv2020)({
    strict: true,
    strictRequired: false,
    allErrors: true,
    allowUnionTypes: true,
  }).compile(schema);
  return compiled;
}

type Node = { readonly [name: string]: unknown } | undefined;

/** A local `$ref` (`#/$defs/key`) resolved; any other node as it is. */
function resolved(node: Node): Node {
  const ref = node?.['$ref'];
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return node;
  let out: Node = schema as Node;
  for (const step of ref.slice(2).split('/')) out = out?.[step] as Node;
  return out;
}

/**
 * The properties each alternative of the `oneOf` that checks the value at `instancePath` requires
 * (`/keys/3`: `key`, `keyHash`). Found by the data's path: ajv's `schemaPath` starts over at a `$ref`.
 */
function alternativesAt(instancePath: string): string[] {
  let node = resolved(schema as Node);
  for (const step of instancePath.split('/').slice(1)) {
    const properties = node?.['properties'] as Node;
    node = resolved((properties?.[step] ?? node?.['items']) as Node);
  }
  const alternatives = node?.['oneOf'];
  if (!Array.isArray(alternatives)) return [];
  return alternatives.flatMap((branch: { required?: string[] }) => branch.required ?? []);
}

function problemOf(error: ErrorObject): DataProblem {
  const params = error.params as Record<string, unknown>;
  if (error.keyword === 'oneOf') {
    const names = alternativesAt(error.instancePath).map((n) => JSON.stringify(n));
    return names.length === 0
      ? { pointer: error.instancePath, message: error.message ?? 'fails oneOf' }
      : { pointer: error.instancePath, message: `must have exactly one of ${names.join(', ')}` };
  }
  if (error.keyword === 'required')
    return { pointer: `${error.instancePath}/${String(params['missingProperty'])}`, message: 'is required' };
  if (error.keyword === 'additionalProperties')
    return {
      pointer: `${error.instancePath}/${String(params['additionalProperty'])}`,
      message: 'is not a property of the data format',
    };
  if (error.keyword === 'enum')
    return {
      pointer: error.instancePath,
      message: `must be one of ${(params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`,
    };
  return { pointer: error.instancePath, message: error.message ?? `fails ${error.keyword}` };
}

// `if`/`then` and `anyOf` report a summary besides the precise error; the precise one is enough.
const SUMMARY_KEYWORDS = new Set(['if', 'anyOf']);

/** Problems of `value` against the schema (empty when it conforms). */
export function schemaProblems(value: unknown): DataProblem[] {
  const validate = validator();
  if (validate(value)) return [];
  const seen = new Set<string>();
  const problems: DataProblem[] = [];
  for (const error of validate.errors ?? []) {
    if (SUMMARY_KEYWORDS.has(error.keyword)) continue;
    // What each alternative of a `oneOf` misses is said once, by the `oneOf` itself.
    if (error.schemaPath.includes('/oneOf/')) continue;
    const problem = problemOf(error);
    const key = `${problem.pointer}\u0000${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return problems;
}
