/**
 * Reading a law's script result from a deployment that sizes execute's answers for a model (our mock's
 * defaults: 8 KiB of console, 32 KiB of result): a result larger than one run carries comes whole, in
 * pieces through the console and the return value; after a session's first cut, later bodies are read
 * in pieces from their first run; a deployment that refuses a top-level `return` is read through its
 * console alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../mocks/engine/engine.ts';
import { startMockServer } from '../mocks/http/server.ts';
import { ConformanceClient } from '../src/client/client.ts';
import { runScript } from '../src/conformance/kit/mcp/script.ts';
import { McpSession, type ToolAnswer } from '../src/conformance/kit/mcp/session.ts';
import { mockKeys } from '../suites/target.ts';

/** A value whose JSON is about `kib` KiB, the same for the same arguments. */
function large(kib: number, tag: string): string[] {
  return Array.from({ length: kib * 16 }, (_, i) => `${tag}-${String(i).padStart(6, '0')}-${'x'.repeat(56)}`);
}

/** A law body (indented, as the law files write them) that builds `large(kib, tag)` in the sandbox. */
function building(kib: number, tag: string): string {
  return `  return Array.from({ length: ${kib * 16} }, (_, i) => ${JSON.stringify(tag)} + '-' + String(i).padStart(6, '0') + '-' + 'x'.repeat(56));`;
}

/** The session with its `execute` scripts counted and kept. */
function counting(session: McpSession): { session: McpSession; scripts: string[] } {
  const scripts: string[] = [];
  const counted = Object.create(session) as McpSession;
  counted.callTool = (name: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
    if (name === 'execute') scripts.push(String(Object.values(args)[0]));
    return session.callTool(name, args);
  };
  return { session: counted, scripts };
}

describe('script results larger than the deployment sends in one answer', () => {
  let server: Awaited<ReturnType<typeof startMockServer>>;
  let session: McpSession;
  /** The same session, its execute scripts kept (what the session learned stays with it). */
  let counted: { session: McpSession; scripts: string[] };

  beforeAll(async () => {
    const engine = createEngine({ seed: 42 });
    // The mock's own execute budgets (no agent.sandbox option): the ones `cca-kit mock` serves.
    server = await startMockServer({ host: '127.0.0.1', port: 0, engine });
    const keys = mockKeys(engine);
    const client = new ConformanceClient({ baseUrl: server.url, keys });
    session = await McpSession.open({ url: `${server.url}/mcp`, client }, 'read');
    counted = counting(session);
  });

  afterAll(async () => {
    await session?.close();
    await server?.close();
  });

  it('come whole, the console and the return value each carrying pieces', async () => {
    const { session: s, scripts } = counted;
    const value = large(100, 'a');
    const out = await runScript(s, building(100, 'a'));
    expect(out.kind).toBe('value');
    expect(out.kind === 'value' ? out.value : null).toEqual(value);
    // The first run is cut; the pieces then come through both channels: more than the 8 KiB console
    // alone could carry in the runs it took.
    expect(scripts.length).toBeGreaterThan(1);
    expect(scripts.length - 1).toBeLessThan(Math.ceil((100 * 1024) / 8192));
    expect(scripts.slice(1).every((t) => t.includes('return __ccaPieces;'))).toBe(true);
  });

  it('after a cut, a body whose result fits is read in one run; a large throw keeps its message; a stopped loop is no value', async () => {
    const { session: s, scripts } = counted;
    const before = scripts.length;
    const small = await runScript(s, 'return { n: 42 };');
    expect(small).toMatchObject({ kind: 'value', value: { n: 42 } });
    expect(scripts.length - before).toBe(1);
    expect(scripts.at(-1)).toContain('<<cca-piece>>');
    const message = large(40, 'm').join(' ');
    const threw = await runScript(
      s,
      `${building(40, 'm').replace('return', 'const m =')}\n  throw new RangeError(m.join(' '));`,
    );
    expect(threw).toMatchObject({ kind: 'threw', isError: true, name: 'RangeError', message });
    // A script stopped by the time limit is never read as a value (this mock lets the wrapper catch
    // the interruption: a throw, as in a session that never saw a cut).
    const stopped = await runScript(s, 'for (;;) {}');
    expect(stopped.kind).not.toBe('value');
  }, 20_000);
});

describe('a deployment that refuses a top-level return', () => {
  /**
   * A stand-in deployment: runs the script as an async function body, but refuses it like a module
   * would when a line starts with `return`; keeps 8 KiB of console and shows no return value.
   */
  function moduleLike(): { session: McpSession; scripts: string[] } {
    const scripts: string[] = [];
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => (...args: unknown[]) => Promise<unknown>;
    const fake = {
      listTools: async () => [
        {
          name: 'execute',
          inputSchema: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
        },
      ],
      callTool: async (_name: string, args: Record<string, unknown>): Promise<ToolAnswer> => {
        const code = String(args['code']);
        scripts.push(code);
        if (/^return\b/m.test(code))
          return {
            kind: 'result',
            isError: true,
            structuredContent: undefined,
            content: [{ type: 'text', text: 'SyntaxError: return not in a function' }],
          };
        const lines: string[] = [];
        let room = 8192;
        const log = (text: unknown) => {
          const line = String(text).slice(0, Math.max(0, room));
          room -= line.length;
          if (line !== '') lines.push(line);
        };
        await new AsyncFunction('console', code)({ log });
        return { kind: 'result', isError: false, structuredContent: { console: lines }, content: [] };
      },
    };
    return { session: fake as unknown as McpSession, scripts };
  }

  it('is read through the console alone, and asked with a return only once', async () => {
    const { session, scripts } = moduleLike();
    const value = large(30, 'r');
    const out = await runScript(session, building(30, 'r'));
    expect(out.kind === 'value' ? out.value : out).toEqual(value);
    expect(scripts.filter((t) => /^return\b/m.test(t))).toHaveLength(1);
    const again = await runScript(session, building(20, 's'));
    expect(again.kind === 'value' ? again.value : again).toEqual(large(20, 's'));
    expect(scripts.filter((t) => /^return\b/m.test(t))).toHaveLength(1);
  });
});
