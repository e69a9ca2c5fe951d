/**
 * Every example in the contract, checked with the project's own validation layer: valid examples
 * pass, the negative ones (`x-invalid-examples`) fail on the parameter or body they name, and every
 * request example is paired by name with a response example of the same operation.
 */
import { describe, expect, it } from 'vitest';
import contract from '../contract/openapi.json' with { type: 'json' };
import { type OperationId, validateRequest, validateResponse } from '../src/contract/index.ts';

type Node = { [key: string]: unknown };
type Named = Record<string, { value: unknown }>;

const paths = contract.paths as unknown as Record<string, Record<string, Node>>;
const operations = Object.entries(paths)
  .filter(([path]) => path.startsWith('/v0/'))
  .flatMap(([path, methods]) => Object.values(methods).map((operation) => ({ path, operation })));

const jsonOf = (content: unknown): Node | undefined =>
  (content as Node | undefined)?.['application/json'] as Node;

/** A request with every path parameter at its first example and one parameter set to `value`. */
function requestWith(operation: Node, name: string | null, value: unknown) {
  const parameters = (operation['parameters'] as Node[] | undefined) ?? [];
  const pathParams: Record<string, string> = {};
  const query = new URLSearchParams();
  for (const p of parameters.filter((p) => p['in'] === 'path')) {
    const first = Object.values((p['examples'] as Named | undefined) ?? {})[0];
    pathParams[p['name'] as string] = String(first?.value ?? 'x');
  }
  if (name !== null) {
    const target = parameters.find((p) => p['name'] === name) as Node;
    if (target['in'] === 'path') pathParams[name] = String(value);
    else query.set(name, String(value));
  }
  return { pathParams, query };
}

const exampleBody = (operation: Node): unknown =>
  Object.values(
    (jsonOf((operation['requestBody'] as Node | undefined)?.['content'])?.['examples'] as Named) ?? {},
  )[0]?.value;

describe('every example in the contract is valid against its schema (our own validators)', () => {
  for (const { path, operation } of operations) {
    const operationId = operation['operationId'] as OperationId;
    const parameters = (operation['parameters'] as Node[] | undefined) ?? [];
    const body = operation['requestBody'] as Node | undefined;

    it(`${operationId}: parameter examples pass, x-invalid-examples fail naming the parameter`, () => {
      for (const parameter of parameters) {
        const name = parameter['name'] as string;
        for (const [exampleName, { value }] of Object.entries((parameter['examples'] as Named) ?? {})) {
          const result = validateRequest(operationId, {
            ...requestWith(operation, name, value),
            body: exampleBody(operation),
            contentType: 'application/json',
          });
          expect(result.ok, `${path} ${name} example ${exampleName}`).toBe(true);
        }
        for (const [exampleName, { value }] of Object.entries(
          (parameter['x-invalid-examples'] as Named) ?? {},
        )) {
          const result = validateRequest(operationId, {
            ...requestWith(operation, name, value),
            body: exampleBody(operation),
            contentType: 'application/json',
          });
          expect(result.ok, `${path} ${name} invalid example ${exampleName}`).toBe(false);
          if (!result.ok) expect(result.issues.map((i) => i.field)).toContain(name);
        }
      }
    });

    if (body) {
      it(`${operationId}: request body examples pass, x-invalid-examples fail`, () => {
        const media = jsonOf(body['content']) as Node;
        for (const [exampleName, { value }] of Object.entries(media['examples'] as Named)) {
          const result = validateRequest(operationId, {
            ...requestWith(operation, null, null),
            body: value,
            contentType: 'application/json',
          });
          expect(
            result.ok,
            `body example ${exampleName}: ${JSON.stringify(result.ok ? [] : result.issues)}`,
          ).toBe(true);
        }
        for (const [exampleName, { value }] of Object.entries((media['x-invalid-examples'] as Named) ?? {})) {
          const result = validateRequest(operationId, {
            ...requestWith(operation, null, null),
            body: value,
            contentType: 'application/json',
          });
          expect(result.ok, `invalid body example ${exampleName}`).toBe(false);
        }
      });
    }

    it(`${operationId}: every response example validates for its status`, () => {
      const responses = operation['responses'] as Record<string, Node>;
      let count = 0;
      for (const [status, response] of Object.entries(responses)) {
        const examples = (jsonOf(response['content'])?.['examples'] as Named | undefined) ?? {};
        expect(Object.keys(examples).length, `${operationId} ${status} has an example`).toBeGreaterThan(0);
        for (const [exampleName, { value }] of Object.entries(examples)) {
          const result = validateResponse(operationId, Number(status), value);
          expect(
            result.ok,
            `${status} example ${exampleName}: ${JSON.stringify(result.ok ? [] : result.issues)}`,
          ).toBe(true);
          count += 1;
        }
      }
      expect(count).toBeGreaterThanOrEqual(4);
    });

    it(`${operationId}: request examples are paired by name with a response example`, () => {
      const responseNames = new Set(
        Object.values(operation['responses'] as Record<string, Node>).flatMap((r) =>
          Object.keys((jsonOf(r['content'])?.['examples'] as Named | undefined) ?? {}),
        ),
      );
      const requestNames = [
        ...parameters.flatMap((p) => [
          ...Object.keys((p['examples'] as Named) ?? {}),
          ...Object.keys((p['x-invalid-examples'] as Named) ?? {}),
        ]),
        ...(body ? Object.keys((jsonOf(body['content'])?.['examples'] as Named) ?? {}) : []),
        ...(body ? Object.keys((jsonOf(body['content'])?.['x-invalid-examples'] as Named) ?? {}) : []),
      ];
      for (const name of requestNames)
        expect([...responseNames], `${operationId}: request example ${name}`).toContain(name);
    });
  }

  it('a broken example is caught: the check is not a formality', () => {
    const ok = validateResponse('getAction', 200, { actionId: 12345 });
    expect(ok.ok).toBe(false);
  });
});
