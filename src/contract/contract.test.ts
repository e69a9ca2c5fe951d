import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  contract,
  contractDocument,
  createContract,
  isSchema,
  matchOperation,
  OPERATION_IDS,
  operations,
  validateRequest,
  validateResponse,
} from './index.ts';
import { GENERATED_TYPES_PATH, generateTypes } from './typegen.ts';

/** ARCHITECTURE.md's operation table. */
const TABLE = [
  ['listActions', 'GET', '/v0/action/list', 'read'],
  ['getAction', 'GET', '/v0/action/{id}', 'read'],
  ['getCustomFields', 'GET', '/v0/actions/{actionId}/custom-fields', 'read'],
  ['updateCustomFields', 'PATCH', '/v0/actions/{actionId}/custom-fields', 'write'],
  ['listAgents', 'GET', '/v0/agents', 'read'],
  ['getAgent', 'GET', '/v0/agents/{id}', 'read'],
  ['listQueues', 'GET', '/v0/queues', 'read'],
  ['getTagAnalytics', 'GET', '/v0/analytics/tags', 'read'],
  ['getTagVolume', 'GET', '/v0/analytics/tags/volume', 'read'],
  ['getSentimentByDay', 'GET', '/v0/analytics/sentiment', 'read'],
  ['getSentimentByTag', 'GET', '/v0/analytics/sentiment/by-tag', 'read'],
  ['getEngagement', 'GET', '/v0/analytics/engagement', 'read'],
  ['searchConversations', 'GET', '/v0/conversations/search', 'read'],
  ['submitModerationCase', 'POST', '/v0/moderation/cases', 'write'],
  ['submitModerationBatch', 'POST', '/v0/moderation/cases/batch', 'write'],
  ['getModerationCase', 'GET', '/v0/moderation/cases/{caseId}', 'read'],
  ['ingestRecords', 'POST', '/v0/ingest/records', 'ingest'],
  ['getOpenApiDocument', 'GET', '/docs/json', null],
  ['getSwaggerUi', 'GET', '/docs', null],
] as const;

const noBody = (query = '', pathParams: Record<string, string> = {}) => ({
  pathParams,
  query: new URLSearchParams(query),
  body: undefined,
  contentType: null,
});

describe('the operation table', () => {
  it('has every operation of the architecture table with method, path and scope', () => {
    expect([...operations.keys()].sort()).toEqual(TABLE.map(([id]) => id).sort());
    for (const [id, method, path, scope] of TABLE) {
      expect(operations.get(id)).toMatchObject({ method, pathTemplate: path, requiredScope: scope });
    }
    expect(OPERATION_IDS).toHaveLength(TABLE.length);
  });

  it('reads the ad_policy prerequisite from x-requires-moderation-mode (at least both submissions)', () => {
    const marked = [...operations.values()].filter((op) => op.requiresModerationMode === 'ad_policy');
    expect(marked.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(['submitModerationBatch', 'submitModerationCase']),
    );
    expect(marked.every((op) => op.tags.includes('Moderation'))).toBe(true);
  });

  it('routes every template, literal paths before templated ones', () => {
    for (const [id, method, path] of TABLE) {
      const concrete = path.replaceAll(/\{[^}]+\}/g, 'x-1');
      const match = matchOperation(method, concrete);
      expect(match.kind === 'match' && match.operation.operationId).toBe(id);
    }
    const batch = matchOperation('POST', '/v0/moderation/cases/batch');
    expect(batch.kind === 'match' && batch.operation.operationId).toBe('submitModerationBatch');
    expect(matchOperation('GET', '/v0/action/list')).toMatchObject({
      operation: { operationId: 'listActions' },
    });
  });

  it('decodes path parameters exactly once and keeps them strings (ID-STRING-PRESERVED)', () => {
    const match = matchOperation('GET', '/v0/action/%30%30123%2F4');
    expect(match.kind === 'match' && match.pathParams).toEqual({ id: '00123/4' });
    const big = matchOperation('GET', '/v0/action/9007199254740993');
    expect(big.kind === 'match' && big.pathParams['id']).toBe('9007199254740993');
  });

  it('distinguishes not found, method not allowed (with Allow) and a malformed escape', () => {
    expect(matchOperation('GET', '/v0/nothing')).toEqual({ kind: 'not-found' });
    expect(matchOperation('GET', '/v0/action/')).toEqual({ kind: 'not-found' });
    expect(matchOperation('DELETE', '/v0/agents')).toEqual({
      kind: 'method-not-allowed',
      allowed: ['GET', 'HEAD'],
    });
    expect(matchOperation('GET', '/v0/action/%E0%A4%A')).toMatchObject({ kind: 'bad-path-encoding' });
    expect(matchOperation('HEAD', '/v0/agents').kind).toBe('match');
  });
});

describe('validators of the real contract', () => {
  it('every operation and component compiles in strict mode', () => {
    const fresh = createContract(contractDocument);
    expect(() => fresh.compileAll()).not.toThrow();
  });

  it('LIST-PAGESIZE-RANGE: pageSize outside 1..500 names the parameter; the default is filled in', () => {
    const bad = validateRequest('listActions', noBody('pageSize=501'));
    expect(!bad.ok && bad.issues[0]?.message).toBe('query parameter pageSize must be <= 500 (got 501)');
    const zero = validateRequest('listActions', noBody('pageSize=0'));
    expect(!zero.ok && zero.issues[0]?.message).toBe('query parameter pageSize must be >= 1 (got 0)');
    const ok = validateRequest('listActions', noBody());
    expect(ok.ok && ok.query['pageSize']).toBe(50);
  });

  it('integer parameters accept only canonical decimal (pageSize=01 is refused)', () => {
    expect(validateRequest('searchConversations', noBody('page=01')).ok).toBe(false);
    expect(validateRequest('searchConversations', noBody('page=1.0')).ok).toBe(false);
    const ok = validateRequest('searchConversations', noBody('page=10000&pageSize=100'));
    expect(ok.ok && ok.query).toMatchObject({ page: 10000, pageSize: 100 });
  });

  it('string query parameters are never converted', () => {
    const ok = validateRequest('getTagVolume', noBody('tagIds=001,9007199254740993'));
    expect(ok.ok && ok.query['tagIds']).toBe('001,9007199254740993');
  });

  it('the error body schema accepts the general error', () => {
    expect(isSchema('ErrorBody', { success: false, error: 'x' })).toBe(true);
    expect(isSchema('ErrorBody', { success: true, error: 'x' })).toBe(false);
    expect(validateResponse('listActions', 401, { success: false, error: 'Invalid API key' })).toEqual({
      ok: true,
    });
    expect(validateResponse('getSwaggerUi', 200, '<!doctype html>')).toEqual({ ok: true });
  });

  it('every component schema is registered', () => {
    expect(contract.componentNames.length).toBeGreaterThan(50);
    for (const name of contract.componentNames) expect(() => contract.validateSchema(name, {})).not.toThrow();
  });
});

describe('generated types', () => {
  it('src/contract/types.generated.ts is up to date (run npm run typegen)', async () => {
    const checkedIn = await readFile(GENERATED_TYPES_PATH, 'utf8');
    expect(checkedIn === (await generateTypes()), 'run npm run typegen').toBe(true);
  });
});
