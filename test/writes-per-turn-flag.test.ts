/**
 * `cca-kit mock --writes-per-turn`: a value that is not a whole number in 0..1000 is refused by name
 * before anything starts (exit 2 with the flag, the range and the value), and a valid one serves.
 */
import { describe, expect, it } from 'vitest';
import { runMock, startMock } from './support/state-processes.ts';

describe('--writes-per-turn', () => {
  it.each(['abc', '-1', '1.5', '5000', ''])('refuses %j by name', async (value) => {
    const run = await runMock([`--writes-per-turn=${value}`]);
    expect(run.code).toBe(2);
    expect(run.output).toContain(
      `--writes-per-turn must be an integer between 0 and 1000 (got ${JSON.stringify(value)})`,
    );
  });

  it('serves reads and writes with 0 and with 1', async () => {
    for (const value of ['0', '1']) {
      const mock = await startMock(['--writes-per-turn', value]);
      try {
        expect((await fetch(`${mock.url}/__mock/health`)).status).toBe(200);
        const reset = await fetch(`${mock.url}/__mock/reset`, { method: 'POST' });
        expect(reset.status).toBe(200);
      } finally {
        await mock.stop('SIGTERM');
      }
    }
  });
});
