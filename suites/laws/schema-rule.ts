/**
 * The rule a schema issue in a success response breaks, read from the contract: the `x-rule` of the
 * innermost schema on the path (contract/src/schema-rules.ts writes them). Where a schema and the
 * schemas it combines (`allOf`, `anyOf`, `oneOf`) stand at the same place, the outer one names it: a
 * conversation search item is its own rule, though it is an action summary too.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import type { Contract } from '../../src/contract/contract.ts';
import { resolveLocalRef } from '../../src/contract/operations.ts';

type Node = Readonly<Record<string, unknown>>;
const isNode = (value: unknown): value is Node =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `x-rule` at each depth of `segments` below `schema` (index 0: the schema itself), outermost first. */
function rulesAlong(
  doc: unknown,
  schema: unknown,
  segments: readonly string[],
  depth: number,
  out: string[],
): void {
  const node = resolveLocalRef(doc, schema);
  if (!isNode(node)) return;
  const rule = node['x-rule'];
  if (typeof rule === 'string' && out[depth] === undefined) out[depth] = rule;
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    const branches = node[keyword];
    if (Array.isArray(branches)) for (const branch of branches) rulesAlong(doc, branch, segments, depth, out);
  }
  const [segment, ...rest] = segments;
  if (segment === undefined) return;
  const properties = node['properties'];
  const child =
    isNode(properties) && segment in properties
      ? properties[segment]
      : /^\d+$/.test(segment) && node['items'] !== undefined
        ? node['items']
        : node['additionalProperties'];
  if (isNode(child)) rulesAlong(doc, child, rest, depth + 1, out);
}

/** The `x-rule` of the innermost schema on `pointer` in the `status` response of `operationId`, if any. */
export function contractRuleAt(
  from: Pick<Contract, 'document' | 'getOperation'>,
  operationId: string,
  responseKey: string,
  pointer: string,
): string | undefined {
  const schema = from.getOperation(operationId).responses.get(responseKey);
  const segments =
    pointer === ''
      ? []
      : pointer
          .slice(1)
          .split('/')
          .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
  const out: string[] = [];
  rulesAlong(from.document as OpenAPIV3_1.Document, schema, segments, 0, out);
  return out.findLast((rule) => rule !== undefined);
}

/** Every `x-rule` an issue in the `responseKey` response of `operationId` can name, each once. */
export function contractRulesOf(
  from: Pick<Contract, 'document' | 'getOperation'>,
  operationId: string,
  responseKey: string,
): string[] {
  const found = new Set<string>();
  const seen = new Set<string>();
  const nodes: unknown[] = [];
  // `shadowed`: a combining schema at the same place has a rule, which names what is here.
  const visit = (value: unknown, shadowed: boolean): void => {
    const node = resolveLocalRef(from.document, value);
    if (!isNode(node)) return;
    let index = nodes.indexOf(node);
    if (index < 0) index = nodes.push(node) - 1;
    if (seen.has(`${index} ${shadowed}`)) return;
    seen.add(`${index} ${shadowed}`);
    const rule = node['x-rule'];
    if (typeof rule === 'string' && !shadowed) found.add(rule);
    for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
      const branches = node[keyword];
      if (Array.isArray(branches))
        for (const branch of branches) visit(branch, shadowed || typeof rule === 'string');
    }
    const properties = node['properties'];
    if (isNode(properties)) for (const child of Object.values(properties)) visit(child, false);
    visit(node['items'], false);
    visit(node['additionalProperties'], false);
  };
  visit(from.getOperation(operationId).responses.get(responseKey), false);
  return [...found];
}
