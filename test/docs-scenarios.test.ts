/** The data file example of docs/scenarios.md is a valid file that shows what it claims. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { NOTHING_EXISTS } from '../mocks/engine/data-file/references.ts';
import { checkDataFile } from '../mocks/engine/data-file/validate.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { at, get } from './data-support.ts';

function scenariosExample(): unknown {
  const section = readFileSync(new URL('../docs/scenarios.md', import.meta.url), 'utf8');
  const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('no json example in docs/scenarios.md');
  return JSON.parse(block);
}

describe('docs/scenarios.md: putting your own data in the mock', () => {
  it('the example file is valid and serves an escalated action with three agent replies and a failed case', async () => {
    const example = scenariosExample();
    const check = checkDataFile(example, NOTHING_EXISTS, 0);
    if (!check.ok) throw new Error(JSON.stringify(check.problems));
    const engine = createEngine({
      data: check.file,
      clock: new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') }),
      selfCheck: true,
    });
    const detail = await get(engine, '/v0/action/1234567890123456789012', 'demo_reporting_key');
    expect(at(detail.body, 'status')).toBe('ESCALATED');
    expect(at(detail.body, 'totalAgentMessages')).toBe(3);
    const failed = await get(engine, '/v0/moderation/cases/mc_failed_1', 'demo_reporting_key');
    expect(at(failed.body, 'analysisStatus')).toBe('failed');
    expect(engine.selfCheckFailures).toEqual([]);
  });
});
