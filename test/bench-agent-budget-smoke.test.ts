/**
 * The agent budget bench runs on this checkout: every task answers a success (the section throws on a
 * failed task, so a task that measures a failure's text cannot slip in), and tools/list for a
 * Read-and-write key stays within 20 KiB. Sizes are deterministic; no time is judged here.
 */
import { describe, expect, it } from 'vitest';
import { agentBudget, BUDGET_TASKS, renderAgentBudget } from '../bench/sections/agent-budget.ts';
import { scaled } from './support/timeouts.ts';

describe('bench agent-budget', () => {
  it('measures the four tasks as successes; tools/list read_write within 20 KiB', {
    timeout: scaled(60_000),
  }, async () => {
    const result = await agentBudget();
    expect(result.summary.toolsListBytes.read_write).toBeLessThanOrEqual(20 * 1024);
    expect(Object.keys(result.summary.tasks)).toEqual([...Object.keys(BUDGET_TASKS), 'reply end to end']);
    expect(result.summary.tasks['reply end to end']).toHaveLength(3);
    // The export is cut at 32 KiB in the summary; the whole JSON again in --text full.
    const exportChars = result.summary.tasks['30-day export with cursors']?.[0] ?? 0;
    expect(exportChars).toBeLessThan(result.full?.tasks['30-day export with cursors']?.[0] ?? 0);
    expect(renderAgentBudget(result, '_stamp_')).toContain('| top tags |');
  });
});
