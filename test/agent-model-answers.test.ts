/**
 * The agent interface as a model meets it, through the official MCP SDK client over Streamable HTTP
 * on a real mock: failures keep their kind (a memory bomb is `limit_exceeded` memory every time; an
 * uncaught call() failure is that operation's failure with its field and the script line), and one
 * `field` format everywhere (a JSON pointer into the tool's or the operation's input).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';

let mock: MockServer;
const clients: Client[] = [];

function keyOf(profile: string): string {
  const key = mock.engine.admin
    .listKeys('org_acme')
    .find((k) => k.profile === profile && k.status === 'active')?.key;
  if (key === undefined) throw new Error(`no active ${profile} key in the seed data`);
  return key;
}

async function connect(profile: string): Promise<Client> {
  const client = new Client({ name: 'agent-model-answers', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${mock.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${keyOf(profile)}` } },
    }),
  );
  clients.push(client);
  return client;
}

interface Answer {
  readonly isError: boolean;
  readonly structured: Record<string, unknown>;
  /** Bytes of the whole tool result as the client received it. */
  readonly bytes: number;
}

async function execute(client: Client, script: string): Promise<Answer> {
  const result = await client.callTool({ name: 'execute', arguments: { script } });
  return {
    isError: result.isError === true,
    structured: (result.structuredContent ?? {}) as Record<string, unknown>,
    bytes: Buffer.byteLength(JSON.stringify(result)),
  };
}

beforeAll(async () => {
  mock = await startMockServer({ seed: 42, port: 0 });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await mock.close();
});

const RUNS = 20;
const MEMORY_BOMB = "const a=[];for(let i=0;i<250000;i++)a.push({i,s:'x'.repeat(100)+i});return a;";

describe('failures that keep their kind (issue 22 point 1 and 3)', () => {
  it('AGENT-MCP-FAILURE-KINDS: the 250000-object script is limit_exceeded memory, 20 times in a row', async () => {
    const client = await connect('reporting');
    for (let run = 0; run < RUNS; run++) {
      const answer = await execute(client, MEMORY_BOMB);
      expect(answer.isError, `run ${run}`).toBe(true);
      expect(answer.structured, `run ${run}`).toMatchObject({
        kind: 'limit_exceeded',
        code: 'LIMIT_EXCEEDED',
        limit: 'memory',
      });
    }
  }, 120_000);

  it('AGENT-MCP-FAILURE-KINDS: running out of memory while holding call outputs is memory too', async () => {
    const client = await connect('reporting');
    // Call outputs piling up until the heap is full.
    const outputs = await execute(
      client,
      "const keep=[];for(let i=0;i<200;i++){const p=await call('query.search.actions',{limit:100});keep.push(p,JSON.stringify(p),JSON.stringify(p)+i);}return keep.length;",
    );
    expect(outputs.isError).toBe(true);
    expect(outputs.structured).toMatchObject({
      kind: 'limit_exceeded',
      limit: expect.stringMatching(/^(memory|calls)$/),
    });
  }, 120_000);

  it("AGENT-MCP-READ-KEY-WRITE-FORBIDDEN, AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE: a Reporting key's uncaught call() to a write ends forbidden, with the operation and the script line", async () => {
    const client = await connect('reporting');
    const answer = await execute(
      client,
      "const before = 1;\nreturn await call('config.savedSearch.create', { name: 'x', query: {} });",
    );
    expect(answer.isError).toBe(true);
    expect(answer.structured).toMatchObject({
      kind: 'forbidden',
      code: 'FORBIDDEN',
      missingScope: 'write',
      operationId: 'config.savedSearch.create',
      line: 2,
    });
    expect(String(answer.structured['message'])).toContain('line 2');
    const execution = answer.structured['execution'] as { calls: unknown[] };
    expect(execution.calls).toHaveLength(1);
  });

  it("AGENT-MCP-INVALID-INPUT-NAMES-FIELD: an uncaught invalid_input names the field as a JSON pointer into the operation's input", async () => {
    const client = await connect('read_write');
    const answer = await execute(client, "\n\nawait call('query.search.actions', { limit: 'many' });");
    expect(answer.structured).toMatchObject({
      kind: 'invalid_input',
      field: '/limit',
      operationId: 'query.search.actions',
      line: 3,
    });
    // A failure the script catches is the script's business: the execution succeeds.
    const caught = await execute(
      client,
      "try { await call('query.search.actions', { limit: 'many' }); } catch (e) { return e.kind + ' ' + e.field + ' ' + e.line; }",
    );
    expect(caught.isError).toBe(false);
    expect(caught.structured['result']).toBe('invalid_input /limit 1');
    // A plain throw stays a script error with its line.
    const thrown = await execute(client, "\nthrow new Error('mine');");
    expect(thrown.structured).toMatchObject({ kind: 'script_error' });
    expect(String(thrown.structured['message'])).toContain('line 2');
  });

  it('AGENT-MCP-INVALID-INPUT-NAMES-FIELD: the reply tools name fields as JSON pointers too', async () => {
    const client = await connect('read_write');
    const result = await client.callTool({
      name: 'prepare_reply',
      arguments: {
        actionId: 'no-such-action',
        text: 'Hello',
        requestId: '6f1c8a52-0c2e-4d2b-9a51-2f0f7c1d3e4a',
      },
    });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ kind: 'not_found', field: '/actionId' });
  });
});
