/**
 * The generated request types say what the contract (and so the spec) says: a property is required in
 * the TypeScript type exactly when the schema lists it in `required`; optional, or optional with a
 * default (moderation `language`, spec 2.7: "no, default en"), is optional. The test walks every
 * request body schema (nested objects and array items included) and every parameter of every
 * operation, next to the type the compiler computes for it from `src/contract/types.generated.ts`.
 */
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BodyOf } from '../src/client/index.ts';
import type { ModerationSubmission } from '../src/contract/index.ts';
import { contractDocument } from '../src/contract/load.ts';

type Schema = {
  readonly $ref?: string;
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, Schema>>;
  readonly required?: readonly string[];
  readonly items?: Schema;
};
type Parameter = { readonly name: string; readonly in: string; readonly required?: boolean };
type OperationObject = {
  readonly operationId?: string;
  readonly parameters?: readonly Parameter[];
  readonly requestBody?: { readonly content: Record<string, { readonly schema: Schema }> };
};

const generated = fileURLToPath(new URL('../src/contract/types.generated.ts', import.meta.url));
const program = ts.createProgram([generated], {
  strict: true,
  exactOptionalPropertyTypes: true,
  noEmit: true,
  skipLibCheck: true,
  allowImportingTsExtensions: true,
});
const checker = program.getTypeChecker();
const source = program.getSourceFile(generated);
if (source === undefined) throw new Error('types.generated.ts not in the program');
const moduleSymbol = checker.getSymbolAtLocation(source);
const operationsSymbol =
  moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.name === 'operations');
if (operationsSymbol === undefined) throw new Error('no `operations` interface in types.generated.ts');
const operationsType = checker.getDeclaredTypeOfSymbol(operationsSymbol);

function property(type: ts.Type, name: string): ts.Symbol | undefined {
  return checker.getPropertyOfType(checker.getNonNullableType(type), name);
}

function typeOf(symbol: ts.Symbol): ts.Type {
  return checker.getTypeOfSymbol(symbol);
}

function isOptional(symbol: ts.Symbol): boolean {
  return (symbol.flags & ts.SymbolFlags.Optional) !== 0;
}

const schemas = (contractDocument.components?.schemas ?? {}) as Record<string, Schema>;

function resolve(schema: Schema): Schema {
  if (schema.$ref === undefined) return schema;
  const target = schemas[schema.$ref.replace('#/components/schemas/', '')];
  if (target === undefined) throw new Error(`unresolved ${schema.$ref}`);
  return resolve(target);
}

/** The object members of a (possibly nullable) type: `T | null` walks T. */
function objectPart(type: ts.Type): ts.Type {
  return checker.getNonNullableType(type);
}

/** The element type of an array type (`T[]` or `readonly T[]`). */
function elementOf(type: ts.Type): ts.Type | undefined {
  const plain = objectPart(type);
  if (!checker.isArrayType(plain)) return undefined;
  return checker.getTypeArguments(plain as ts.TypeReference)[0];
}

interface Mismatch {
  readonly at: string;
  readonly schemaRequired: boolean;
  readonly typeOptional: boolean | 'missing';
}

function walk(schema: Schema, type: ts.Type, at: string, out: Mismatch[], counted: { n: number }): void {
  const resolved = resolve(schema);
  if (resolved.properties !== undefined) {
    const required = new Set(resolved.required ?? []);
    for (const [name, child] of Object.entries(resolved.properties)) {
      const member = property(objectPart(type), name);
      counted.n += 1;
      const path = `${at}.${name}`;
      if (member === undefined) {
        out.push({ at: path, schemaRequired: required.has(name), typeOptional: 'missing' });
        continue;
      }
      if (isOptional(member) === required.has(name)) {
        out.push({ at: path, schemaRequired: required.has(name), typeOptional: isOptional(member) });
      }
      walk(child, typeOf(member), path, out, counted);
    }
  }
  if (resolved.items !== undefined) {
    const element = elementOf(type);
    if (element !== undefined) walk(resolved.items, element, `${at}[]`, out, counted);
  }
}

function operationsOfDocument(): [string, OperationObject][] {
  return Object.values(contractDocument.paths ?? {}).flatMap((item) =>
    Object.values(item ?? {}).flatMap((op) => {
      const candidate = op as OperationObject;
      return typeof candidate === 'object' && typeof candidate.operationId === 'string'
        ? [[candidate.operationId, candidate] as [string, OperationObject]]
        : [];
    }),
  );
}

describe("generated request types hold to the schemas' required lists", () => {
  const operations = operationsOfDocument();

  it('every property of every request body: optional in the type exactly when not required', () => {
    const mismatches: Mismatch[] = [];
    const counted = { n: 0 };
    let bodies = 0;
    for (const [operationId, op] of operations) {
      const schema = op.requestBody?.content['application/json']?.schema;
      if (schema === undefined) continue;
      bodies += 1;
      const opSymbol = property(operationsType, operationId);
      const requestBody = opSymbol && property(typeOf(opSymbol), 'requestBody');
      const content = requestBody && property(typeOf(requestBody), 'content');
      const json = content && property(typeOf(content), 'application/json');
      if (json === undefined) throw new Error(`${operationId}: no requestBody JSON type`);
      walk(schema, typeOf(json), operationId, mismatches, counted);
    }
    expect(bodies).toBe(4);
    expect(counted.n).toBeGreaterThan(80);
    expect(mismatches).toEqual([]);
  });

  it('every parameter of every operation: optional in the type exactly when not required', () => {
    const mismatches: Mismatch[] = [];
    let count = 0;
    for (const [operationId, op] of operations) {
      const opSymbol = property(operationsType, operationId);
      const parameters = opSymbol && property(typeOf(opSymbol), 'parameters');
      if (parameters === undefined) throw new Error(`${operationId}: no parameters type`);
      for (const parameter of op.parameters ?? []) {
        if (parameter.in !== 'query' && parameter.in !== 'path') continue;
        const group = property(typeOf(parameters), parameter.in);
        const member = group && property(typeOf(group), parameter.name);
        count += 1;
        const at = `${operationId} ${parameter.in} ${parameter.name}`;
        const required = parameter.required === true;
        if (member === undefined) mismatches.push({ at, schemaRequired: required, typeOptional: 'missing' });
        else if (isOptional(member) === required)
          mismatches.push({ at, schemaRequired: required, typeOptional: isOptional(member) });
      }
    }
    expect(count).toBeGreaterThan(30);
    expect(mismatches).toEqual([]);
  });

  it('moderation language (spec 2.7: optional, default en) is optional in the submission type', () => {
    const op = property(operationsType, 'submitModerationCase');
    const body = op && property(typeOf(op), 'requestBody');
    const content = body && property(typeOf(body), 'content');
    const json = content && property(typeOf(content), 'application/json');
    const language = json && property(typeOf(json), 'language');
    expect(language && isOptional(language)).toBe(true);
    // And for the compiler (tsc runs over this file): a submission without language type-checks.
    expectTypeOf<Omit<ModerationSubmission, 'language'>>().toExtend<BodyOf<'submitModerationCase'>>();
  });
});
