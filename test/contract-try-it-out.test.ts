/**
 * Swagger UI's "Try it out" pre-fills every parameter with its first example and the body with the
 * first body example. Those values, taken together, must make a request the service answers with
 * success on every operation: the example values of one operation never conflict (no `filter` with
 * `fullFilter`, LIST-FULLFILTER-WITH-FILTER-400) and name no stale date window.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededKey } from '../fixtures/seeded-keys.ts';
import { type OperationId, operations } from '../src/contract/index.ts';
import { contractDocument } from '../src/contract/load.ts';
import { type RunningTarget, startMockTarget } from '../suites/target.ts';

type Named = Record<string, { value?: unknown }>;
type Parameter = { name: string; in: string; examples?: Named };
type RawOperation = {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { examples?: Named }> };
};

const first = (examples: Named | undefined): unknown => Object.values(examples ?? {})[0]?.value;

/** The request Swagger UI shows first for an operation: every first example, nothing else. */
function firstShown(operationId: OperationId): {
  path: string;
  query: URLSearchParams;
  body: unknown;
} {
  const op = operations.get(operationId);
  if (op === undefined) throw new Error(operationId);
  const raw = (contractDocument.paths?.[op.pathTemplate] as Record<string, RawOperation> | undefined)?.[
    op.method.toLowerCase()
  ];
  let path = op.pathTemplate;
  const query = new URLSearchParams();
  for (const parameter of raw?.parameters ?? []) {
    const value = first(parameter.examples);
    if (value === undefined) continue;
    if (parameter.in === 'path')
      path = path.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
    else if (parameter.in === 'query') query.set(parameter.name, String(value));
  }
  return { path, query, body: first(raw?.requestBody?.content?.['application/json']?.examples) };
}

describe('Swagger UI "Try it out" works on every operation as first shown', () => {
  let mock: RunningTarget;
  beforeAll(async () => {
    mock = await startMockTarget({ seed: 42 });
  });
  afterAll(() => mock.close());

  it('LIST-FULLFILTER-WITH-FILTER-400: listActions pre-fills no conflicting parameters and no date', () => {
    const { query } = firstShown('listActions');
    expect(query.has('fullFilter') && (query.has('filter') || query.has('filterJson'))).toBe(false);
    expect(query.has('from') || query.has('to')).toBe(false);
  });

  it('each operation answers 2xx to its first-shown request (writes first, so reads find what they name)', async () => {
    // The seed holds no moderation case: the case the examples read is the one the first submission
    // example creates, so that one goes first, as a Swagger UI user would go down the page.
    const rank = (op: { operationId: string; method: string }): number =>
      op.operationId === 'submitModerationCase' ? 0 : op.method === 'GET' ? 2 : 1;
    const ids = [...operations.values()]
      .filter((op) => op.pathTemplate.startsWith('/v0/'))
      .sort((a, b) => rank(a) - rank(b))
      .map((op) => op.operationId as OperationId);
    const answers: string[] = [];
    for (const operationId of ids) {
      const op = operations.get(operationId);
      if (op === undefined) continue;
      const { path, query, body } = firstShown(operationId);
      const key = seededKey({ profile: op.requiredScope === 'ingest' ? 'import' : 'read_write' });
      const res = await fetch(`${mock.target.baseUrl}${path}${query.size > 0 ? `?${query}` : ''}`, {
        method: op.method,
        headers: {
          'x-api-key': key,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      answers.push(`${operationId} ${res.status}${res.ok ? '' : ` ${text.slice(0, 160)}`}`);
    }
    expect(answers.filter((a) => !/ 2\d\d$/.test(a))).toEqual([]);
    expect(answers.length).toBeGreaterThanOrEqual(17);
  });
});
