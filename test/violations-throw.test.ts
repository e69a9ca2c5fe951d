/**
 * `onViolation: 'throw'` makes a consumer's vitest run fail on a violation, naming the rule and the
 * request: a real vitest run of test/package/violation-throw/page.spec.ts (a client sending `page=2`
 * to the action list, LIST-NO-PAGE-INPUT) must exit non-zero with both in its report.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { scaled } from './support/timeouts.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = fileURLToPath(new URL('./package/violation-throw/vitest.config.ts', import.meta.url));

describe("onViolation: 'throw' in a consumer's vitest run", () => {
  it('LIST-NO-PAGE-INPUT: page=2 fails the run with the rule and the request', () => {
    const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', config], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
      timeout: scaled(120_000),
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).not.toBe(0);
    expect(output).toContain('ViolationError');
    expect(output).toContain('LIST-NO-PAGE-INPUT');
    expect(output).toContain('GET https://api.example.test/v0/action/list?pageSize=5&page=2 answered 200');
    expect(output).toContain('lists the second page of actions');
  });
});
