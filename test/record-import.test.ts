/**
 * The whole path against a second cca-kit mock standing in for the live service: record a session of
 * reads through the scrubbing proxy, import the HAR, serve the data file, and the same requests
 * answer the same (scrubbed) bodies; a custom-field write then changes what a read returns.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Har } from 'har-format';
import { afterAll, describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { NOTHING_EXISTS } from '../mocks/engine/data-file/references.ts';
import { checkDataFile } from '../mocks/engine/data-file/validate.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { startMockServer } from '../mocks/http/server.ts';
import { importHar } from '../src/import/from-har.ts';
import { startRecorder } from '../src/record/recorder.ts';
import { at, get, list } from './data-support.ts';

const START = Date.parse('2026-11-20T12:00:00Z');
const dir = mkdtempSync(join(tmpdir(), 'cca-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('record, import, serve', () => {
  it('serves what the recording answered, ids byte for byte and pseudonyms consistent, and stays stateful', async () => {
    const live = await startMockServer({
      port: 0,
      seed: 42,
      actions: 300,
      clock: new MockClock({ start: START }),
    });
    const out = join(dir, 'session.har');
    const recorder = await startRecorder({ target: live.url, out });
    const liveKey =
      live.engine.admin.listKeys('org_acme').find((k) => k.profile === 'read_write' && k.status === 'active')
        ?.key ?? '';
    const read = async (path: string): Promise<unknown> =>
      (await fetch(`${recorder.url}${path}`, { headers: { 'x-api-key': liveKey } })).json();
    let stopped = false;
    let direct: unknown;
    try {
      direct = await (
        await fetch(`${live.url}/v0/action/list?pageSize=500`, { headers: { 'x-api-key': liveKey } })
      ).json();
      const page = await read('/v0/action/list?pageSize=500');
      const ids = list(page, 'data').map((a) => String(at(a, 'actionId')));
      expect(ids.length).toBeGreaterThan(3);
      for (const id of ids) await read(`/v0/action/${encodeURIComponent(id)}`);
      await read('/v0/queues');
      await read('/v0/agents');
      await read('/v0/analytics/tags');
      await read(`/v0/actions/${encodeURIComponent(ids[0] ?? '')}/custom-fields`);
      const result = await recorder.stop();
      stopped = true;
      expect(result).toMatchObject({ ok: true, exchanges: ids.length + 5 });
    } finally {
      if (!stopped) await recorder.stop();
      await live.close();
    }

    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain(liveKey);
    const har = JSON.parse(text) as Har & { log: { _target?: string } };
    expect(har.log.version).toBe('1.2');
    expect(har.log._target).toBe(live.url);
    const recordedList = JSON.parse(har.log.entries[0]?.response.content.text ?? '{}') as unknown;
    // Customers are pseudonymised; action ids and agents are not.
    expect(at(recordedList, 'data', 0, 'actionId')).toBe(at(direct, 'data', 0, 'actionId'));
    expect(at(recordedList, 'data', 0, 'assigneeUserId')).toBe(at(direct, 'data', 0, 'assigneeUserId'));
    expect(at(recordedList, 'data', 0, 'userName')).not.toBe(at(direct, 'data', 0, 'userName'));
    expect(String(at(recordedList, 'data', 0, 'userId'))).toHaveLength(
      String(at(direct, 'data', 0, 'userId')).length,
    );
    expect(text).not.toContain(JSON.stringify(at(direct, 'data', 0, 'userName')));

    const file = importHar(har);
    const check = checkDataFile(file, NOTHING_EXISTS, START);
    expect(check.ok ? [] : check.problems).toEqual([]);
    expect(file.keys?.map((k) => k.key)).not.toContain(liveKey);
    const served = createEngine({ data: file, clock: new MockClock({ start: START }), selfCheck: true });
    const key = file.keys?.find((k) => k.profile === 'read_write')?.key ?? '';

    // Every recorded list and detail read answers the same body.
    let compared = 0;
    for (const entry of har.log.entries) {
      const path = new URL(entry.request.url).pathname + new URL(entry.request.url).search;
      if (!path.startsWith('/v0/action/')) continue;
      const answer = await get(served, path, key);
      expect(answer.status).toBe(200);
      expect(answer.body, path).toEqual(JSON.parse(entry.response.content.text ?? 'null'));
      compared += 1;
    }
    expect(compared).toBe(list(recordedList, 'data').length + 1);

    // Consistent pseudonyms: the list's customer of an action is the detail's customer.
    const firstId = String(at(recordedList, 'data', 0, 'actionId'));
    const detail = await get(served, `/v0/action/${encodeURIComponent(firstId)}`, key);
    expect(at(detail.body, 'user', 'userId')).toBe(at(recordedList, 'data', 0, 'userId'));

    // Stateful: a custom-field write changes what a read returns.
    const field = file.organizations[0]?.customFields?.find((f) => f.type === 'text');
    expect(field).toBeDefined();
    const patch = await served.handle(
      new Request(`http://mock.test/v0/actions/${encodeURIComponent(firstId)}/custom-fields`, {
        method: 'PATCH',
        headers: { 'x-api-key': key, 'content-type': 'application/json' },
        body: JSON.stringify({ fields: [{ fieldName: field?.name, value: 'changed after import' }] }),
      }),
    );
    expect(patch.status).toBe(200);
    const after = await get(served, `/v0/action/${encodeURIComponent(firstId)}`, key);
    expect(at(after.body, 'customFields', field?.name ?? '')).toBe('changed after import');
    expect(served.selfCheckFailures).toEqual([]);
  });
});
