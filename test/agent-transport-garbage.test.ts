/**
 * Bad input on /mcp as a property: any body (arbitrary JSON, arbitrary text, JSON-RPC-shaped messages
 * with arbitrary methods, params and tool arguments), with or without a session, is answered with a
 * status below 500 and a JSON body, promptly; the engine records no unexpected error.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { scaled } from './support/timeouts.ts';

let mock: MockServer;
let key: string;
let session: string;

async function post(body: string, withSession: boolean): Promise<Response> {
  return fetch(`${mock.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${key}`,
      ...(withSession ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
    },
    body,
    signal: AbortSignal.timeout(10_000),
  });
}

beforeAll(async () => {
  mock = await startMockServer({ seed: 42, actions: 50 });
  key =
    mock.engine.admin.listKeys('org_acme').find((k) => k.profile === 'read_write' && k.status === 'active')
      ?.key ?? '';
  const opened = await post(
    JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'garbage', version: '1' },
      },
    }),
    false,
  );
  session = opened.headers.get('mcp-session-id') ?? '';
  await post(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), true);
});

afterAll(async () => {
  await mock.close();
});

const toolNames = fc.constantFrom(
  'prepare_reply',
  'review_reply',
  'open_reply',
  'execute',
  'list_skills',
  'nope',
);
const methods = fc.oneof(
  fc.constantFrom(
    'tools/call',
    'tools/list',
    'ping',
    'initialize',
    'resources/list',
    'prompts/get',
    'logging/setLevel',
  ),
  fc.string({ maxLength: 30 }),
);
const jsonRpcLike = fc.record(
  {
    jsonrpc: fc.oneof(fc.constant('2.0'), fc.jsonValue()),
    id: fc.oneof(fc.integer(), fc.string({ maxLength: 8 }), fc.constant(null)),
    method: methods,
    params: fc.oneof(
      fc.record({ name: toolNames, arguments: fc.jsonValue() }),
      fc.jsonValue(),
      fc.record({
        name: toolNames,
        arguments: fc.dictionary(fc.constantFrom('actionId', 'requestId', 'text', 'script'), fc.jsonValue()),
      }),
    ),
  },
  { requiredKeys: [] },
);
const bodies = fc.oneof(
  jsonRpcLike.map((m) => JSON.stringify(m)),
  fc.array(jsonRpcLike, { maxLength: 3 }).map((m) => JSON.stringify(m)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
);

describe('/mcp under arbitrary input', () => {
  it(
    'never answers 5xx, never hangs, always a JSON body or none',
    async () => {
      await fc.assert(
        fc.asyncProperty(bodies, fc.boolean(), async (body, withSession) => {
          const response = await post(body, withSession);
          expect(response.status).toBeLessThan(500);
          const text = await response.text();
          if (text !== '') {
            const type = response.headers.get('content-type') ?? '';
            if (type.startsWith('text/event-stream')) expect(text).toMatch(/^(event|data|id|:)/m);
            else expect(() => JSON.parse(text)).not.toThrow();
          }
        }),
        { numRuns: 80 },
      );
      expect(mock.engine.unexpectedErrors).toEqual([]);
    },
    scaled(120_000),
  );
});
