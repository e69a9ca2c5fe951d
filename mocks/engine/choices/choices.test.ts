import { describe, expect, it } from 'vitest';
import { CHOICE_NAMES, CHOICE_POINTS } from '../../../src/contract/choice-points.ts';
import { MockClock } from '../clock.ts';
import { createEngine } from '../engine.ts';
import { DEFAULT_CHOICES } from './defaults.ts';
import type { ChoicesOption } from './index.ts';

/** A small engine with these choices and its reporting key of org_acme (ad_policy). */
function engineWith(choices: ChoicesOption) {
  const engine = createEngine({
    seed: 42,
    actions: 300,
    clock: new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') }),
    choices,
    selfCheck: true,
  });
  const keyOf = (org: string, profile: string) =>
    engine.admin
      .listKeys()
      .find((k) => k.organizationId === org && k.profile === profile && k.status === 'active')?.key ?? '';
  const get = async (path: string, key = keyOf('org_acme', 'reporting')) => {
    const res = await engine.handle(new Request(`http://mock${path}`, { headers: { 'x-api-key': key } }));
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { engine, keyOf, get };
}

const FROM = '2000-01-01';

describe('engine choices (each a named piece of mocks/engine/choices/)', () => {
  it('DEFAULT_CHOICES (defaults.ts) is every point at its default, no more', () => {
    expect(Object.keys(DEFAULT_CHOICES).sort()).toEqual([...CHOICE_NAMES].sort());
    for (const name of CHOICE_NAMES) expect(DEFAULT_CHOICES[name], name).toBe(CHOICE_POINTS[name].default);
  });

  it('defaults answer as before: no choice changes a byte', async () => {
    const a = engineWith({});
    const b = engineWith({ durationFormat: 'iso8601', actionStatuses: 'contract' });
    expect(await b.get(`/v0/action/list?from=${FROM}&pageSize=20`)).toEqual(
      await a.get(`/v0/action/list?from=${FROM}&pageSize=20`),
    );
  });

  it('durationFormat and actionStatuses shape every action record; the DSL takes the chosen status names', async () => {
    const { get, engine } = engineWith({ durationFormat: 'clock', actionStatuses: 'alternate' });
    const list = await get(`/v0/action/list?from=${FROM}&pageSize=500&fullFilter=`);
    const items = list.body['data'] as Record<string, unknown>[];
    const durations = items.map((a) => a['handleTime']).filter((d) => d !== null);
    expect(durations.length).toBeGreaterThan(0);
    for (const d of durations) expect(d).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    const statuses = new Set(items.map((a) => a['status']));
    expect(statuses.has('CLOSED')).toBe(false);
    expect(statuses.has('RESOLVED')).toBe(true);
    const resolved = await get('/v0/conversations/search?filter=status=RESOLVED&pageSize=100');
    expect(resolved.status).toBe(200);
    expect(
      (resolved.body['data'] as Record<string, unknown>[]).every((a) => a['status'] === 'RESOLVED'),
    ).toBe(true);
    expect(
      ((await get('/v0/conversations/search?filter=status=CLOSED')).body['data'] as unknown[]).length,
    ).toBe(0);
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('filterKeys=spec with unknownFilterKey 400 or ignore', async () => {
    const strict = engineWith({ filterKeys: 'spec' });
    const refused = await strict.get('/v0/conversations/search?filter=sentiment=Negative');
    expect(refused.status).toBe(400);
    expect(refused.body['error']).toContain("unknown key 'sentiment' (known keys: platform, queue, status)");
    expect((await strict.get('/v0/conversations/search?filter=status=OPEN')).status).toBe(200);
    const lax = engineWith({ filterKeys: 'spec', unknownFilterKey: 'ignore' });
    const ignored = await lax.get('/v0/conversations/search?filter=sentiment=Negative');
    const all = await lax.get('/v0/conversations/search');
    expect(ignored.status).toBe(200);
    expect(ignored.body['totalRecords']).toBe(all.body['totalRecords']);
  });

  it('noAdPolicyStatus, rowShapes and totalRecordsCap', async () => {
    const { get, keyOf, engine } = engineWith({
      noAdPolicyStatus: '422',
      rowShapes: 'alternate',
      totalRecordsCap: '5',
    });
    const res = await engine.handle(
      new Request('http://mock/v0/moderation/cases', {
        method: 'POST',
        headers: { 'x-api-key': keyOf('org_globex', 'write'), 'content-type': 'application/json' },
        body: '{}',
      }),
    );
    expect(res.status).toBe(422);
    expect(await res.json()).toMatchObject({ success: false, supported: ['ad_policy'] });
    const funnel = (await get(`/v0/analytics/engagement?from=${FROM}`)).body['data'] as Record<
      string,
      unknown[]
    >;
    expect(Object.keys(funnel['conversionFunnel']?.[0] ?? {})).toEqual(['name', 'value', 'rate']);
    const search = await get('/v0/conversations/search');
    expect(search.body).toMatchObject({ totalRecords: 5, totalRecordsCapped: true });
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('tagLimitMax refuses a tag-analytics limit above the bound, and only there', async () => {
    const { get, engine } = engineWith({ tagLimitMax: '100' });
    expect((await get(`/v0/analytics/tags?from=${FROM}&limit=100`)).status).toBe(200);
    const refused = await get(`/v0/analytics/tags?from=${FROM}&limit=101`);
    expect(refused.status).toBe(400);
    expect(String(refused.body['error'])).toMatch(/limit must be at most 100/);
    expect((await get(`/v0/action/list?from=${FROM}&pageSize=500`)).status).toBe(200);
    expect(engine.selfCheckFailures).toEqual([]);
  });

  it('conflicting settings are refused at construction', () => {
    expect(() => createEngine({ searchCap: 10, choices: { totalRecordsCap: '20' } })).toThrow(/disagree/);
    expect(() =>
      createEngine({ moderation: { latency: 'instant' }, choices: { moderationTimings: 'slow' } }),
    ).toThrow(/disagree/);
  });
});
