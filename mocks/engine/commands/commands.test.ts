/**
 * Writes as commands: every write reaches the state through one store, and replaying the log a store
 * saw onto a fresh engine of the same origin rebuilds the same state (keys, cases, custom fields,
 * ingested actions, the clock) whatever was read in between.
 */
import { describe, expect, it } from 'vitest';
import { MockClock } from '../clock.ts';
import { exportDataFile } from '../data-file/export.ts';
import { createEngine, type Engine } from '../engine.ts';
import { sampleSubmission } from '../moderation/sample.ts';
import { listCases } from '../moderation/status.ts';
import { createMemoryStore } from '../store/memory.ts';
import type { LoggedCommand } from './types.ts';

const START = Date.UTC(2026, 10, 20, 12, 0, 0);

function engineAt(): Engine {
  return createEngine({ seed: 5, actions: 150, clock: new MockClock({ start: START }), origin: START });
}

async function recorded(engine: Engine): Promise<LoggedCommand[]> {
  const log: LoggedCommand[] = [];
  await engine.useStore((apply) => {
    const memory = createMemoryStore(apply);
    return {
      ...memory,
      write: (entry) => {
        log.push(entry);
        return memory.write(entry);
      },
    };
  });
  return log;
}

const call = (engine: Engine, method: string, path: string, body?: unknown, key?: string) =>
  engine.handle(
    new Request(`http://mock.test${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(key === undefined ? {} : { 'x-api-key': key }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
    { remoteAddress: '127.0.0.1' },
  );

describe('writes as commands', () => {
  it('a replayed log rebuilds the same state, and reads in between change nothing of it', async () => {
    const first = engineAt();
    const log = await recorded(first);
    const org = first.admin.listOrganizations()[0]?.id ?? '';
    const reader = first.admin.listKeys(org).find((k) => k.profile === 'reporting' && k.status === 'active');
    // Reads before any write (they create lazily what writes use later: ids must not depend on them).
    const other = first.admin.listOrganizations()[1]?.id ?? '';
    await call(first, 'GET', `/__mock/organizations/${other}/policy`);
    await call(first, 'GET', '/v0/agents', undefined, reader?.key ?? undefined);
    await call(first, 'PUT', `/__mock/organizations/${org}/moderation-mode`, { mode: 'ad_policy' });
    const created = await (
      await call(first, 'POST', '/__mock/keys', { organizationId: org, profile: 'read_write' })
    ).json();
    const key = (created as { key: { key: string } }).key.key;
    const submitted = await call(
      first,
      'POST',
      '/v0/moderation/cases',
      sampleSubmission({ externalId: 'r-1' }),
      key,
    );
    expect(submitted.status).toBe(202);
    await call(
      first,
      'POST',
      '/v0/moderation/cases/batch',
      {
        cases: [sampleSubmission({ externalId: 'r-2' }), { externalId: 'bad' }],
      },
      key,
    );
    await call(first, 'POST', '/__mock/clock/advance', { ms: 2_000 });
    await call(first, 'PUT', `/__mock/organizations/${org}/policy`, { policyId: 'ad-policy-v2' });
    await call(first, 'POST', `/__mock/keys/${reader?.key}/revoke`);
    const refused = await call(first, 'POST', '/__mock/keys/no-such-key/revoke');
    expect(refused.status).toBe(404);
    expect(log.map((e) => e.command.type)).toEqual([
      'organization.moderationMode',
      'keys.create',
      'moderation.submit',
      'moderation.submitBatch',
      'clock.advance',
      'moderation.policy.activate',
      'keys.revoke',
      'keys.revoke',
    ]);

    const second = engineAt();
    await second.useStore((apply) => {
      for (const entry of log) apply(entry);
      return createMemoryStore(apply);
    });
    expect(second.clock.now()).toBe(first.clock.now());
    expect(second.admin.listKeys()).toEqual(first.admin.listKeys());
    expect(listCases(second.state.moderation)).toEqual(listCases(first.state.moderation));
    expect(exportDataFile(second.state)).toEqual(exportDataFile(first.state));
  });

  it('an invalid submission is refused before it is a command (nothing to log)', async () => {
    const engine = engineAt();
    const log = await recorded(engine);
    const org = engine.admin.listOrganizations().find((o) => o.moderationMode === 'ad_policy')?.id ?? '';
    const writer = engine.admin.listKeys(org).find((k) => k.profile === 'write' && k.status === 'active');
    const answer = await call(
      engine,
      'POST',
      '/v0/moderation/cases',
      { externalId: 'x' },
      writer?.key ?? undefined,
    );
    expect(answer.status).toBe(400);
    expect(log).toEqual([]);
  });
});
