/**
 * The first-call bench runs: one cold process per SDK client (1.x and 2.x) against this checkout's
 * mock, every call a success (the section throws otherwise), every step timed. No time is judged.
 */
import { describe, expect, it } from 'vitest';
import { agentFirstCall, renderAgentFirstCall } from '../bench/sections/agent-first-call.ts';
import { scaled } from './support/timeouts.ts';

describe('bench agent-first-call', () => {
  it('times connect, tools/list and the first calls through SDK clients 1.x and 2.x', {
    timeout: scaled(60_000),
  }, async () => {
    const result = await agentFirstCall({ runs: 1 });
    for (const major of ['1', '2'] as const) {
      const steps = result.clients[major];
      expect(steps.toFirstAnswerMs.p50).toBeGreaterThan(0);
      expect(steps.toFirstAnswerMs.p50).toBeCloseTo(
        steps.connectMs.p50 + steps.toolsListMs.p50 + steps.firstCallMs.p50,
        3,
      );
    }
    const text = renderAgentFirstCall(result, '_stamp_');
    expect(text).toContain('| 1.x (sdk 1.32) |');
    expect(text).toContain('| 2.x (client 2.4) |');
  });
});
