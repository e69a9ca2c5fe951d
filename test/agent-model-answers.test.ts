/**
 * The agent interface as a model meets it, through the official MCP SDK client over Streamable HTTP
 * on a real mock: failures keep their kind (a memory bomb is `limit_exceeded` memory every time; an
 * uncaught call() failure is that operation's failure with its field and the script line), and one
 * `field` format everywhere (a JSON pointer into the tool's or the operation's input).
 */

import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { answerData } from './agent-answer.ts';

let mock: MockServer;
const clients: Client[] = [];

function keyOf(profile: string): string {
  const key =
    mock.engine.admin.listKeys('org_acme').find((k) => k.profile === profile && k.status === 'active')?.key ??
    undefined;
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
    structured: (answerData(result) ?? {}) as Record<string, unknown>,
    bytes: Buffer.byteLength(JSON.stringify(result)),
  };
}

beforeAll(async () => {
  // Enough actions for a 12k-item export from one organization over five years.
  // A generous time limit: the point is the answer's size, not the time a loaded machine takes.
  mock = await startMockServer({
    seed: 42,
    port: 0,
    actions: 40_000,
    agent: { sandbox: { timeMs: 60_000 } },
  });
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await mock.close();
});

const RUNS = 3;
const MEMORY_BOMB = "const a=[];for(let i=0;i<250000;i++)a.push({i,s:'x'.repeat(100)+i});return a;";

/** The stated size of an execute answer (docs/agent-interface.md): its JSON is at most 48 KiB. */
const ANSWER_BYTES = 48 * 1024;

const EXPORT_12K = `const items = [];
let cursor;
do {
  const page = await call('query.search.actions', {
    dateRange: { relative: { unit: 'year', count: 5 } },
    limit: 100,
    ...(cursor === undefined ? {} : { cursor }),
  });
  items.push(...page.items);
  cursor = page.nextCursor;
} while (cursor !== null && items.length < 12000);
return { count: items.length, items };`;

describe('answers sized for a model', () => {
  it('AGENT-MCP-TRUNCATED-REPORTS-LIMIT: an 8 MiB string comes back as a valid-JSON preview within the stated size, the limit and the cut reported, every time', async () => {
    const client = await connect('reporting');
    for (let run = 0; run < 20; run++) {
      const answer = await execute(client, 'return "q".repeat(8*1024*1024);');
      expect(answer.isError, `run ${run}`).toBe(false);
      expect(Buffer.byteLength(JSON.stringify(answer.structured))).toBeLessThanOrEqual(ANSWER_BYTES);
      expect(answer.structured['result']).toMatch(/^q+$/);
      expect(answer.structured['truncated']).toMatchObject({
        result: { limit: 32768, unit: 'bytes', size: 8 * 1024 * 1024 + 2, resume: null },
      });
    }
  });

  it('AGENT-MCP-LONG-EXPORT-RESUMES-WITH-CURSOR: a 12k-item export comes back cut by items within the stated size, saying where to resume, every time (the same answer each time)', async () => {
    const client = await connect('reporting');
    let first: unknown;
    for (let run = 0; run < RUNS; run++) {
      const answer = await execute(client, EXPORT_12K);
      expect(answer.isError, `run ${run}: ${JSON.stringify(answer.structured).slice(0, 300)}`).toBe(false);
      expect(Buffer.byteLength(JSON.stringify(answer.structured))).toBeLessThanOrEqual(ANSWER_BYTES);
      const result = answer.structured['result'] as { count: number; items: { actionId: string }[] };
      expect(result.count).toBe(12000);
      const truncated = answer.structured['truncated'] as {
        result: {
          cut: { items: number; at: { pointer: string; unit: string; kept: number; total: number }[] };
          resume: { operationId: string; input: { cursor: string } };
        };
      };
      expect(truncated.result.cut.at[0]).toMatchObject({ pointer: '/items', unit: 'items', total: 12000 });
      expect(truncated.result.cut.items).toBe(12000 - result.items.length);
      expect(truncated.result.resume).toMatchObject({
        operationId: 'query.search.actions',
        input: { limit: 100 },
      });
      expect(answer.structured['calls']).toMatchObject({
        total: 120,
        byOperation: [{ operationId: 'query.search.actions', ok: 120, failed: 0 }],
      });
      if (run === 0) first = answer.structured['result'];
      else expect(answer.structured['result']).toEqual(first);
      // The saved cursor works: the next page follows the last one fetched.
      if (run === 0) {
        const next = await execute(
          client,
          `return await call('query.search.actions', ${JSON.stringify(truncated.result.resume.input)});`,
        );
        expect(next.isError).toBe(false);
        expect((next.structured['result'] as { items: unknown[] }).items.length).toBeGreaterThan(0);
      }
    }
  });
});

describe('failures that keep their kind', () => {
  it('AGENT-MCP-FAILURE-KINDS: a script that exhausts the heap is limit_exceeded memory, every time', async () => {
    const client = await connect('reporting');
    for (let run = 0; run < RUNS; run++) {
      const answer = await execute(client, MEMORY_BOMB.replace('250000', '1000000'));
      expect(answer.isError, `run ${run}`).toBe(true);
      expect(answer.structured, `run ${run}: ${String(answer.structured['message'])}`).toMatchObject({
        kind: 'limit_exceeded',
        code: 'LIMIT_EXCEEDED',
        limit: 'memory',
      });
      expect(answer.bytes).toBeLessThanOrEqual(2 * ANSWER_BYTES);
    }
  });

  it('AGENT-MCP-TRUNCATED-REPORTS-LIMIT: a 250000-object script fits the heap, and its result (27 MB of JSON, never built) comes back the same way every time: a preview within the stated size', async () => {
    const client = await connect('reporting');
    let first: unknown;
    for (let run = 0; run < RUNS; run++) {
      const answer = await execute(client, MEMORY_BOMB);
      expect(answer.isError, `run ${run}: ${JSON.stringify(answer.structured).slice(0, 200)}`).toBe(false);
      expect(Buffer.byteLength(JSON.stringify(answer.structured))).toBeLessThanOrEqual(ANSWER_BYTES);
      const truncated = answer.structured['truncated'] as {
        result: { size: number; cut: { items: number } };
      };
      expect(truncated.result.size).toBeGreaterThan(25_000_000);
      expect(truncated.result.cut.items).toBe(250000 - (answer.structured['result'] as unknown[]).length);
      if (run === 0) first = answer.structured['result'];
      else expect(answer.structured['result']).toEqual(first);
    }
  });

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
  });

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
    const execution = answer.structured['execution'] as { calls: { total: number; failed: unknown[] } };
    expect(execution.calls.total).toBe(1);
    expect(execution.calls.failed).toHaveLength(1);
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
    expect(answerData(result)).toMatchObject({ kind: 'not_found', field: '/actionId' });
  });
});

describe('cursors bound to the meaning of the input', () => {
  it('AGENT-MCP-SEARCH-CURSOR-SAME-INPUT, AGENT-MCP-SEARCH-CURSOR-BOUND-TO-INPUT: defaults written out or left out, keys and values in any order: the same cursor works; another meaning is refused', async () => {
    const client = await connect('reporting');
    const search = async (input: unknown) =>
      execute(client, `return await call('query.search.actions', ${JSON.stringify(input)});`);
    const terse = {
      dateRange: { relative: { unit: 'month', count: 3 } },
      filter: {
        filterType: 'and',
        filters: [{ filterType: 'status', operator: 'in', value: ['OPEN', 'CLOSED'] }],
      },
      limit: 5,
    };
    const first = await search(terse);
    const cursor = (first.structured['result'] as { nextCursor: string }).nextCursor;
    expect(typeof cursor).toBe('string');
    const expected = await search({ ...terse, cursor });
    expect(expected.isError).toBe(false);
    // The guide's own example: defaults written out, keys reordered, values reordered.
    const spelled = {
      cursor,
      limit: 5,
      filter: {
        filters: [{ value: ['CLOSED', 'OPEN'], operator: 'in', filterType: 'status' }],
        filterType: 'and',
      },
      dateRange: { relative: { includeCurrent: true, calendar: false, count: 3, unit: 'month' } },
    };
    const same = await search(spelled);
    expect(same.isError, JSON.stringify(same.structured).slice(0, 300)).toBe(false);
    expect(same.structured['result']).toEqual(expected.structured['result']);
    // A different meaning is still refused, naming the cursor.
    for (const other of [
      { ...spelled, limit: 6 },
      { ...spelled, dateRange: { relative: { unit: 'month', count: 3, calendar: true } } },
      {
        ...spelled,
        filter: { filterType: 'and', filters: [{ filterType: 'status', operator: 'in', value: ['OPEN'] }] },
      },
    ]) {
      const refused = await search(other);
      expect(refused.isError).toBe(true);
      expect(refused.structured).toMatchObject({ kind: 'invalid_input', field: '/cursor' });
    }
  });
});

describe('metadata true to the key', () => {
  it('AGENT-MCP-ANNOTATIONS-TRUE-TO-KEY: execute is read-only for a Reporting key and destructive for a read-and-write key; list_skills lists what the key can carry out', async () => {
    const hintsOf = async (client: Client) =>
      (await client.listTools()).tools.find((t) => t.name === 'execute')?.annotations;
    const reporting = await connect('reporting');
    const readWrite = await connect('read_write');
    expect(await hintsOf(reporting)).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(await hintsOf(readWrite)).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    const skills = async (client: Client) =>
      (
        answerData(await client.callTool({ name: 'list_skills', arguments: {} })) as {
          skills: { name: string }[];
        }
      ).skills.map((s) => s.name);
    expect(await skills(reporting)).not.toContain('reply-to-customer-safely');
    expect(await skills(reporting)).toContain('triage-queue');
    expect(await skills(readWrite)).toContain('reply-to-customer-safely');
  });

  it('spec() states the ranges the data has, and a constant mismatch names the constant', async () => {
    const client = await connect('reporting');
    const answer = await execute(
      client,
      `const s = spec('query.search.actions');
       const a = spec('query.analytics.actions');
       let message = '';
       try { await call('query.analytics.actions', { v: 2, source: 'actions', lines: [{ measure: 'actions', aggregation: 'count' }], groupBy: [] }); } catch (e) { message = e.message; }
       return { item: s.outputSchema.$defs.ActionSummary.properties.estimatedCSAT, measures: JSON.stringify(a.inputSchema), message };`,
    );
    const result = answer.structured['result'] as {
      item: Record<string, unknown>;
      measures: string;
      message: string;
    };
    expect(result.item).toMatchObject({ minimum: 0, maximum: 5 });
    expect(result.measures).toContain('estimatedCsat (1..5');
    expect(result.measures).not.toContain('estimatedCsat (0..1)');
    expect(result.message).toContain('must be 1 (got 2)');
  });
});
