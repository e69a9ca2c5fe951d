/**
 * A data file's problems come in one round: schema problems and reference problems together, every
 * one of them at once (docs/scenarios.md: "every problem listed"), without spurious reference problems
 * for entries whose shape the schema already refused.
 */
import { describe, expect, it } from 'vitest';
import { agentSays, scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import { NOTHING_EXISTS } from '../mocks/engine/data-file/references.ts';
import type { DataFile } from '../mocks/engine/data-file/types.ts';
import { checkDataFile, parseDataFile } from '../mocks/engine/data-file/validate.ts';

const START = Date.parse('2026-11-20T12:00:00Z');

function demo(): DataFile {
  return scenario()
    .organization('org_demo', { name: 'Demo Inc.', moderationMode: 'ad_policy' })
    .key({ key: 'demo_reporting_key_1', profile: 'reporting' })
    .agent({ userId: '000417', name: 'Bo' })
    .queue({ id: 'q_vip', name: 'VIP' })
    .tag({ id: 't_billing', value: 'Billing', group: 'Topic' })
    .action({
      actionId: 'a1',
      platform: 'DISCORD',
      queue: 'q_vip',
      user: { userId: 'u1', name: 'Ann' },
      messages: [userSays('Hello', '-2d'), agentSays('Hi', '-1d')],
    })
    .action({ actionId: 'a2', platform: 'DISCORD', user: { userId: 'u2', name: 'Ben' } })
    .build();
}

function pointers(value: unknown): string[] {
  const check = checkDataFile(value, NOTHING_EXISTS, START);
  if (check.ok) throw new Error('the file was accepted');
  return check.problems.map((p) => p.pointer);
}

describe('a data file is checked in one round', () => {
  it('lists schema problems and reference problems together', () => {
    const file = demo() as unknown as { actions: Record<string, unknown>[]; keys: Record<string, unknown>[] };
    const actions = file.actions.map((a) => ({ ...a }));
    actions[0] = { ...actions[0], platform: 'MYSPACE' }; // schema
    actions[1] = { ...actions[1], queue: 'q_unknown', tags: ['t_nope'] }; // references
    const keys = [
      ...file.keys,
      { key: 'key_of_nobody_1', organizationId: 'org_nobody', profile: 'reporting' },
    ];
    expect(pointers({ ...file, actions, keys })).toEqual([
      '/actions/0/platform',
      '/keys/1/organizationId',
      '/actions/1/queue',
      '/actions/1/tags/0',
    ]);
  });

  it('names no reference problem of an entry the schema refused, nor of entries of a refused organization', () => {
    const file = demo() as unknown as {
      organizations: Record<string, unknown>[];
      actions: Record<string, unknown>[];
    };
    const organizations = [{ ...file.organizations[0], moderationMode: 'sometimes' }];
    const actions = file.actions.map((a) => ({ ...a, queue: 'q_unknown' }));
    expect(pointers({ ...file, organizations, actions })).toEqual(['/organizations/0/moderationMode']);
    const ownBroken = file.actions.map((a, i) => (i === 0 ? { ...a, actionId: 7, queue: 'q_unknown' } : a));
    expect(pointers({ ...file, actions: ownBroken })).toEqual(['/actions/0/actionId']);
  });

  it('a file whose frame is broken lists the schema problems only (no crash)', () => {
    expect(pointers({ version: 1, organizations: 'none' })).toEqual(['/organizations']);
    const parsed = parseDataFile('[1, 2]');
    expect(parsed.ok).toBe(false);
  });

  it('a valid file is accepted', () => {
    expect(checkDataFile(demo(), NOTHING_EXISTS, START).ok).toBe(true);
  });
});
