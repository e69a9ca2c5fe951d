/**
 * What every agent law shares: example and property runners that show the MCP exchanges in the
 * reproduction, a session per key role, and tool presence (an absent tool makes a check not run).
 */
import type fc from 'fast-check';
import type { KeyRole } from '../../src/client/types.ts';
import { runExamples, runProperty, Violation } from '../../src/conformance/kit/check.ts';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import { McpSession } from '../../src/conformance/kit/mcp/session.ts';
import type { CheckOutcome } from '../../src/conformance/kit/outcome.ts';

/** Thrown by a law when what it needs is absent on this deployment: the law is reported not run. */
export class Absent extends Error {
  override readonly name = 'Absent';
}

/** Attaches the law's MCP exchanges since `mark` to a violation (a crash becomes a violation too). */
function withExchanges(ctx: LawContext, mark: number, error: unknown): unknown {
  if (error instanceof Absent) return error;
  const exchanges = ctx.mcp.client.log.slice(mark);
  // A finding names the revision it was found over: a deployment may serve one right, the other wrong.
  const revision = `[MCP ${ctx.mcp.revision ?? '2025-11-25'}]`;
  if (error instanceof Violation) {
    if (error.exchanges.length === 0) error.exchanges = exchanges.length > 0 ? exchanges : ctx.client.log;
    if (!error.message.startsWith('[MCP ')) error.message = `${revision} ${error.message}`;
    return error;
  }
  const v = new Violation(
    ctx.ruleIds[0] ?? 'unknown',
    `error:${error instanceof Error ? error.name : 'unknown'}`,
    `${revision} check crashed: ${error instanceof Error ? error.message : String(error)}`,
  );
  v.exchanges = exchanges;
  return v;
}

/** An example-based agent check: the body returns how many checks it made. */
export async function agentExamples(ctx: LawContext, body: () => Promise<number>): Promise<CheckOutcome> {
  const mark = ctx.mcp.client.log.length;
  let absent: string | undefined;
  const outcome = await runExamples(ctx, async () => {
    try {
      return await body();
    } catch (error) {
      if (error instanceof Absent) {
        absent = error.message;
        return 0;
      }
      throw withExchanges(ctx, mark, error);
    }
  });
  return absent === undefined ? outcome : { kind: 'not-run', ruleIds: ctx.ruleIds, reason: absent };
}

/** A property over generated cases; a failure shows the MCP exchanges of the shrunk case. */
export async function agentProperty<T>(
  ctx: LawContext,
  arbitrary: fc.Arbitrary<T>,
  predicate: (value: T) => Promise<void>,
  options: { readonly runs?: number; readonly format?: (value: unknown) => unknown } = {},
): Promise<CheckOutcome> {
  let absent: string | undefined;
  const outcome = await runProperty(
    ctx,
    arbitrary,
    async (value) => {
      const mark = ctx.mcp.client.log.length;
      try {
        await predicate(value);
      } catch (error) {
        if (error instanceof Absent) {
          absent = error.message;
          return;
        }
        throw withExchanges(ctx, mark, error);
      }
    },
    options,
  );
  return absent === undefined ? outcome : { kind: 'not-run', ruleIds: ctx.ruleIds, reason: absent };
}

/** Opens a session with the key of `role`, runs `body`, and closes the session whatever happens. */
export async function withSession<T>(
  ctx: LawContext,
  role: KeyRole,
  body: (session: McpSession) => Promise<T>,
): Promise<T> {
  const session = await McpSession.open(ctx.mcp, role);
  try {
    return await body(session);
  } finally {
    await session.close();
  }
}

/** The names of the tools a key's session lists, memoised per role for the run. */
export function toolNames(ctx: LawContext, role: KeyRole): Promise<readonly string[]> {
  return ctx.memo(`agent:tools:${role}`, () =>
    withSession(ctx, role, async (s) => (await s.listTools()).map((t) => t.name)),
  );
}

/** Throws `Absent` unless the key's session lists `tool` (section 4.18: tools may be absent). */
export async function requireTool(ctx: LawContext, role: KeyRole, tool: string): Promise<void> {
  const names = await toolNames(ctx, role);
  if (!names.includes(tool))
    throw new Absent(`tool ${tool} is not listed for this key (${role}); section 4.18 allows its absence`);
}

export type Json = Record<string, unknown>;
export const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Short JSON for messages. */
export function brief(value: unknown, max = 300): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max)}...` : text;
}
