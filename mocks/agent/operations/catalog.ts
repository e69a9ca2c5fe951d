/**
 * The operation catalog (`contract/agent/operations.json`), loaded once, with its validators compiled
 * once in the project's ajv layer (the same 2020-12 strict configuration as the REST contract). Input
 * failures come back as one issue naming the field by JSON pointer into the input (the convention of
 * `contract/agent/failures.json`).
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import catalogJson from '../../../contract/agent/operations.json' with { type: 'json' };
import type { Choices } from '../../../src/contract/choice-points.ts';
import { toIssues } from '../../../src/contract/issues.ts';
import { compileIn, createAjv } from '../../../src/contract/validator-schemas.ts';
import { statusNamesOut } from '../choices.ts';
import type { JsonSchema, OperationEffect, OperationSpec } from '../types.ts';
import { STATUSES } from './vocabulary.ts';

interface CatalogFile {
  readonly operations: readonly {
    readonly id: string;
    readonly summary: string;
    readonly effect: string;
    readonly inputSchema: Record<string, unknown>;
    readonly outputSchema: Record<string, unknown>;
  }[];
}

const file = catalogJson as unknown as CatalogFile;

const effectOf = (value: string): OperationEffect => (value === 'write' ? 'write' : 'read');

/** Every operation of the catalog, in catalog order. */
export const CATALOG: readonly OperationSpec[] = file.operations.map((op) => ({
  id: op.id,
  summary: op.summary,
  effect: effectOf(op.effect),
  inputSchema: op.inputSchema as JsonSchema,
  outputSchema: op.outputSchema as JsonSchema,
}));

export interface InputIssue {
  /** JSON pointer into the input (`""` for the input itself). */
  readonly field: string;
  readonly message: string;
}

interface Compiled {
  readonly input: ValidateFunction;
  readonly output: ValidateFunction;
}

/**
 * The catalog as one deployment serves it. The catalog file is written in the mock's default names;
 * the only choice it shows is `actionStatuses` (the `status` condition's enum), so there are as many
 * variants as status vocabularies, each built and compiled at first use.
 */
export interface CatalogVariant {
  readonly operations: readonly OperationSpec[];
  /** Checks an operation's input; undefined when it is valid. */
  checkInput(id: string, input: unknown): InputIssue | undefined;
  /** Checks an operation's output (the registry's self-check); undefined when it is valid. */
  checkOutput(id: string, output: unknown): InputIssue | undefined;
}

/** Which variant of the catalog a set of choices is served (the points the catalog shows). */
export const catalogKey = (choices: Pick<Choices, 'actionStatuses'>): string => choices.actionStatuses;

/** Every `enum` that lists the stored statuses, in the names the choices give them. */
function renameStatuses(value: unknown, names: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => renameStatuses(v, names));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const listsStatuses =
      key === 'enum' &&
      Array.isArray(inner) &&
      inner.length === STATUSES.length &&
      inner.every((v, i) => v === STATUSES[i]);
    out[key] = listsStatuses ? [...names] : renameStatuses(inner, names);
  }
  return out;
}

function compileVariant(operations: readonly OperationSpec[]): CatalogVariant {
  let compiled: Map<string, Compiled> | undefined;
  /** The validators of every operation, compiled at first use and shared (they hold no state). */
  const validators = (): Map<string, Compiled> => {
    if (compiled !== undefined) return compiled;
    // A document without components: createAjv only needs it to register the catalog's `x-` keywords.
    const doc = {
      openapi: '3.1.0',
      info: { title: 'agent operations', version: '1' },
      paths: {},
      'x-catalog': file,
    } as unknown as OpenAPIV3_1.Document;
    const ajv = createAjv(doc);
    compiled = new Map(
      operations.map((op) => [
        op.id,
        { input: compileIn(ajv, op.inputSchema), output: compileIn(ajv, op.outputSchema) },
      ]),
    );
    return compiled;
  };
  return {
    operations,
    checkInput(id, input) {
      const validate = validators().get(id)?.input;
      if (validate === undefined) return { field: '/operationId', message: `unknown operation ${id}` };
      if (validate(input)) return undefined;
      return mostSpecific(validate.errors ?? [], input);
    },
    checkOutput(id, output) {
      const validate = validators().get(id)?.output;
      if (validate === undefined) return { field: '/operationId', message: `unknown operation ${id}` };
      if (validate(output)) return undefined;
      const issue = toIssues('response', validate.errors ?? [], output)[0];
      return { field: issue?.pointer ?? '', message: issue?.message ?? 'output does not match the schema' };
    },
  };
}

const DEFAULT_VARIANT = compileVariant(CATALOG);
const variants = new Map<string, CatalogVariant>();

/**
 * The catalog for a deployment's choices: the file itself at the defaults, else a copy whose status
 * enums carry the chosen names.
 */
export function catalogFor(choices: Choices): CatalogVariant {
  if (choices.actionStatuses === 'contract') return DEFAULT_VARIANT;
  const key = catalogKey(choices);
  let variant = variants.get(key);
  if (variant === undefined) {
    const names = statusNamesOut(choices, STATUSES);
    variant = compileVariant(CATALOG.map((op) => renameStatuses(op, names) as OperationSpec));
    variants.set(key, variant);
  }
  return variant;
}

const COMBINATORS = new Set(['if', 'oneOf', 'anyOf', 'allOf', 'not', 'then', 'else']);

/**
 * The one issue to report of ajv's errors: the deepest field (most specific), preferring a keyword
 * that says what is wrong over a combinator that only says a branch failed.
 */
function mostSpecific(errors: readonly ErrorObject[], input: unknown): InputIssue {
  const issues = toIssues('body', errors, input);
  let best = issues[0];
  const depth = (pointer: string): number => (pointer === '' ? 0 : pointer.split('/').length);
  for (const issue of issues) {
    if (best === undefined) break;
    const better =
      (COMBINATORS.has(best.keyword) && !COMBINATORS.has(issue.keyword)) ||
      (COMBINATORS.has(best.keyword) === COMBINATORS.has(issue.keyword) &&
        depth(issue.pointer) > depth(best.pointer));
    if (better) best = issue;
  }
  if (best === undefined) return { field: '', message: 'input does not match the operation input schema' };
  const message = best.message.replace(/^body field /, 'input field ').replace(/^request body/, 'input');
  return { field: best.pointer, message };
}

/** Checks an operation's input against the catalog file (the default choices); undefined when valid. */
export const checkInput = (id: string, input: unknown): InputIssue | undefined =>
  DEFAULT_VARIANT.checkInput(id, input);

/** Checks an operation's output against the catalog file (the default choices); undefined when valid. */
export const checkOutput = (id: string, output: unknown): InputIssue | undefined =>
  DEFAULT_VARIANT.checkOutput(id, output);
