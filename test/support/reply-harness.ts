/**
 * Test support for the reply tools: an in-process engine on a frozen clock (self-check on), an
 * AgentContext per organization, the tools called the way the MCP layer calls them, REST and admin
 * requests, and an action to reply to (not responded yet, inside the list's default window).
 */

import { replyTools } from '../../mocks/agent/replies/tools.ts';
import type { AgentContext, Outcome } from '../../mocks/agent/types.ts';
import { MockClock } from '../../mocks/engine/clock.ts';
import { createEngine, type Engine } from '../../mocks/engine/engine.ts';
import { actionIdOfRow, orgData } from '../../mocks/engine/records/state.ts';

export const REPLY_TEST_NOW = Date.parse('2026-11-20T12:00:00Z');
export const ORG = 'org_acme';
export const OTHER_ORG = 'org_globex';
export const ORIGIN = 'http://127.0.0.1:4010';

export type ToolName = 'prepare_reply' | 'review_reply' | 'open_reply';

export interface ReplyHarness {
  readonly engine: Engine;
  /** A reporting key of `ORG` (REST reads). */
  readonly key: string;
  context(organizationId?: string, origin?: string | null): AgentContext;
  call(tool: ToolName, args: Record<string, unknown>, organizationId?: string): Promise<Outcome<unknown>>;
  rest(path: string, key?: string): Promise<{ status: number; body: Record<string, unknown> }>;
  admin(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
  /** Seeded actions of the organization with no AGENT message, created in the past 7 days, newest first. */
  unresponded(organizationId?: string): string[];
}

export function replyHarness(options: { actions?: number; origin?: string | null } = {}): ReplyHarness {
  const engine = createEngine({
    actions: options.actions ?? 600,
    selfCheck: true,
    clock: new MockClock({ start: REPLY_TEST_NOW }),
  });
  // A seeded key: the same value after `admin.reset()`.
  const seeded = engine.admin.listKeys(ORG).find((k) => k.profile === 'reporting' && k.status === 'active');
  if (seeded === undefined) throw new Error(`no active reporting key in ${ORG}`);
  const key = seeded.key ?? '';
  const origin = options.origin === undefined ? ORIGIN : options.origin;
  const context = (organizationId = ORG, publicOrigin: string | null = origin): AgentContext => ({
    engine,
    identity: {
      organizationId,
      keyName: `agent key of ${organizationId}`,
      profile: 'read_write',
      scopes: ['read', 'write'],
    },
    publicOrigin,
    signal: new AbortController().signal,
  });
  const send = async (method: string, path: string, headers: Record<string, string>, body?: unknown) => {
    const init: RequestInit = { method, headers };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { ...headers, 'content-type': 'application/json' };
    }
    const response = await engine.handle(new Request(`http://mock.test${path}`, init), {
      remoteAddress: '127.0.0.1',
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
    };
  };
  return {
    engine,
    key,
    context,
    async call(tool, args, organizationId = ORG) {
      const handler = replyTools.find((t) => t.name === tool);
      if (handler === undefined) throw new Error(`no tool ${tool}`);
      return handler.handle(context(organizationId), args);
    },
    rest: (path, apiKey = key) => send('GET', path, { 'x-api-key': apiKey }),
    admin: (method, path, body) => send(method, path, {}, body),
    unresponded(organizationId = ORG) {
      const org = orgData(engine.state.data, organizationId);
      const now = engine.clock.now();
      const out: { id: string; at: number }[] = [];
      for (let row = 0; row < org.table.size; row++) {
        const at = org.table.createdAt[row] ?? 0;
        if (!org.table.responded(row) && at > now - 6 * 86_400_000 && at <= now)
          out.push({ id: actionIdOfRow(org, row), at });
      }
      return out.sort((a, b) => b.at - a.at).map((a) => a.id);
    },
  };
}

/** The value of a successful outcome, or a thrown error naming the failure (tests only). */
export function successOf(outcome: Outcome<unknown>): Record<string, unknown> {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.failure)}`);
  return outcome.value as Record<string, unknown>;
}

/** The failure of an outcome, or a thrown error (tests only). */
export function failureOf(outcome: Outcome<unknown>): Record<string, unknown> {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome.failure as unknown as Record<string, unknown>;
}

/** A deterministic UUID (v4 layout) from a number, for tests that need many. */
export function uuidOf(n: number): string {
  const hex = n.toString(16).padStart(12, '0').slice(-12);
  return `00000000-0000-4000-8000-${hex}`;
}
