/**
 * The environment variables of a persistent `cca-kit mock`: a value it cannot use is refused by name
 * before anything starts (exit 2 with the variable, what it takes and the value given), and each
 * value it takes serves; `CCA_MOCK_COMPACTION=inline` captures on the event loop, as its health says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runMock, startMock } from './support/state-processes.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-state-env-'));
const saved = { ...process.env };
afterAll(() => {
  for (const name of ['CCA_MOCK_COMPACTION', 'CCA_MOCK_SNAPSHOT_EVERY']) {
    if (saved[name] === undefined) delete process.env[name];
    else process.env[name] = saved[name];
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('a persistent mock and its environment', () => {
  it.each([
    ['CCA_MOCK_COMPACTION', 'inlin', 'CCA_MOCK_COMPACTION must be replica or inline (got "inlin")'],
    ['CCA_MOCK_COMPACTION', 'INLINE', 'CCA_MOCK_COMPACTION must be replica or inline (got "INLINE")'],
    ['CCA_MOCK_SNAPSHOT_EVERY', 'abc', 'CCA_MOCK_SNAPSHOT_EVERY must be a whole number >= 0 (got "abc")'],
    ['CCA_MOCK_SNAPSHOT_EVERY', '-1', 'CCA_MOCK_SNAPSHOT_EVERY must be a whole number >= 0 (got "-1")'],
  ])('refuses %s=%j by name', async (name, value, message) => {
    process.env[name] = value;
    try {
      const run = await runMock(['--state-file', join(dir, `refused-${name}.state`)]);
      expect(run.code).toBe(2);
      expect(run.output).toContain(message);
    } finally {
      delete process.env[name];
    }
  });

  it.each([
    ['inline', 'event loop'],
    ['replica', /^replica( loading)?$/],
    ['', /^replica( loading)?$/],
  ])(
    'CCA_MOCK_COMPACTION=%j serves, and the health answer says where it captures',
    async (value, capture) => {
      process.env['CCA_MOCK_COMPACTION'] = value;
      const mock = await startMock([
        '--state-file',
        join(dir, `capture-${value || 'default'}.state`),
      ]).finally(() => {
        delete process.env['CCA_MOCK_COMPACTION'];
      });
      try {
        const health = (await (await fetch(`${mock.url}/__mock/health`)).json()) as {
          store: { capture: string };
        };
        if (typeof capture === 'string') expect(health.store.capture).toBe(capture);
        else expect(health.store.capture).toMatch(capture);
      } finally {
        await mock.stop('SIGTERM');
      }
    },
  );
});
