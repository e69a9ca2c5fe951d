import { describe, expect, it } from 'vitest';
import summary from '../../../fixtures/dataset-summary.json' with { type: 'json' };
import { call, contractIssues, testState } from '../../../test/support/engine-handlers.ts';
import { getAction } from './getAction.ts';
import { getCustomFields } from './getCustomFields.ts';
import { updateCustomFields } from './updateCustomFields.ts';

const state = testState();
const [acme, globex] = summary.organizations;
if (!acme || !globex) throw new Error('summary lacks organizations');

async function detail(id: string, org = 'org_acme') {
  const result = await call(state, 'getAction', getAction, { pathParams: { id }, org });
  expect(contractIssues('getAction', result)).toEqual([]);
  return result;
}

describe('getAction', () => {
  it('DETAIL-RETURNS-REQUESTED-ACTION / ID-STRING-PRESERVED: ids above 2^53 and with leading zeros come back byte for byte', async () => {
    for (const id of Object.values(acme.notableActions)) {
      if (id === null) continue;
      const result = await detail(id);
      expect(result.status).toBe(200);
      expect((result.body as { actionId: string }).actionId).toBe(id);
    }
  });

  it('SCHEMA-SOURCEURL-NULL-FOR-PRIVATE: a private record has sourceURL null; threaded actions carry conversation', async () => {
    const priv = (await detail(acme.notableActions.privateRecord ?? '')).body as Record<string, unknown>;
    expect(priv['isPublicPost']).toBe(false);
    expect(priv['sourceURL']).toBeNull();
    const threaded = (await detail(acme.notableActions.threaded ?? '')).body as {
      conversation?: { parentMessageId: string | null }[];
      messages: unknown[];
    };
    expect(threaded.conversation?.length).toBe(threaded.messages.length);
    expect(threaded.conversation?.[0]?.parentMessageId).toBeNull();
    expect(threaded.conversation?.slice(1).every((m) => m.parentMessageId !== null)).toBe(true);
  });

  it('SCHEMA-DURATION-NOT-TIMESTAMP: firstResponseTime and handleTime are ISO 8601 durations', async () => {
    const body = (await detail(acme.notableActions.idAboveSafeInteger ?? '')).body as Record<string, unknown>;
    expect(body['firstResponseTime']).toMatch(/^PT(\d+H)?(\d+M)?(\d+S)?$/);
  });

  it('DETAIL-UNKNOWN-ID-404 / ORG-OTHER-ORG-ID-NOT-RESOLVED: unknown and other-organization ids answer the same 404', async () => {
    const other = globex.notableActions.idAboveSafeInteger ?? '';
    const cross = await detail(other, 'org_acme');
    const unknown = await detail('1187999999999999999');
    expect(cross.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(Object.keys(cross.body as object)).toEqual(['success', 'error']);
    // The near miss: a valid id with a changed digit, a prefix, a suffix.
    const id = acme.notableActions.idWithLeadingZeros ?? '';
    for (const near of [id.slice(1), `${id}0`, id.replace(/^0/, '1'), ` ${id}`])
      expect((await detail(near)).status).toBe(404);
  });
});

describe('custom fields', () => {
  const id = acme.notableActions.noQueue ?? '';

  async function read(actionId = id, org = 'org_acme') {
    const result = await call(state, 'getCustomFields', getCustomFields, { pathParams: { actionId }, org });
    expect(contractIssues('getCustomFields', result)).toEqual([]);
    return result;
  }
  async function patch(body: unknown, actionId = id, org = 'org_acme') {
    const result = await call(state, 'updateCustomFields', updateCustomFields, {
      pathParams: { actionId },
      body,
      org,
    });
    expect(contractIssues('updateCustomFields', result)).toEqual([]);
    return result;
  }

  it('CF-GET-RESPONSE-SHAPE / CF-GET-ACTIONID-MATCHES-PATH: every registered field, with the path actionId', async () => {
    const body = (await read()).body as {
      actionId: string;
      fields: { fieldName: string; fieldType: string }[];
    };
    expect(body.actionId).toBe(id);
    expect(body.fields.map((f) => f.fieldType)).toEqual([
      'text',
      'number',
      'boolean',
      'single_select',
      'date',
      'json',
    ]);
  });

  it('CF-PATCH-PERSISTS / CF-WRITE-ONLY-NOT-RETURNED: written values come back with provenance', async () => {
    const result = await patch({
      fields: [
        { fieldName: 'refund_amount', value: 49.99, confidence: 0.8, rationale: 'from the invoice' },
        { fieldName: 'priority_level', value: 'urgent' },
        { fieldName: 'follow_up_date', value: '2026-12-01' },
        { fieldName: 'device_info', value: { model: 'AR-300', tags: ['x'] } },
        { fieldName: 'is_vip', value: true },
        { fieldName: 'order_number', value: 'ORD-1' },
      ],
    });
    expect(result.status).toBe(200);
    expect((result.body as { updated: unknown[] }).updated).toHaveLength(6);
    const fields = ((await read()).body as { fields: Record<string, unknown>[] }).fields;
    const refund = fields.find((f) => f['fieldName'] === 'refund_amount');
    expect(refund?.['value']).toBe(49.99);
    expect(refund?.['provenance']).toMatchObject({
      origin: 'api',
      confidence: 0.8,
      rationale: 'from the invoice',
    });
    expect(refund).not.toHaveProperty('confidence');
    expect(refund).not.toHaveProperty('rationale');
    expect(fields.find((f) => f['fieldName'] === 'device_info')?.['value']).toEqual({
      model: 'AR-300',
      tags: ['x'],
    });
    const action = (await detail(id)).body as { customFields: Record<string, unknown> };
    expect(action.customFields['refund_amount']).toBe(49.99);
  });

  it('CF-PATCH-TYPE-MATCH-422 / CF-PATCH-UNKNOWN-FIELD-REJECTED / MOCK-CF-UNKNOWN-FIELD-422: nothing is stored', async () => {
    const before = (await read()).body;
    const cases: [unknown, string][] = [
      [{ fields: [{ fieldName: 'refund_amount', value: '12' }] }, 'refund_amount'],
      [{ fields: [{ fieldName: 'is_vip', value: 1 }] }, 'is_vip'],
      [{ fields: [{ fieldName: 'priority_level', value: 'critical' }] }, 'priority_level'],
      [{ fields: [{ fieldName: 'follow_up_date', value: '2026-02-30' }] }, 'follow_up_date'],
      [{ fields: [{ fieldName: 'order_number', value: 5 }] }, 'order_number'],
      [
        {
          fields: [
            { fieldName: 'order_number', value: 'ok' },
            { fieldName: 'not_registered', value: 1 },
          ],
        },
        'not_registered',
      ],
      [{ fields: [{ fieldName: 'order_number', value: 'x', confidence: 2 }] }, 'order_number'],
      [JSON.parse('{"fields":[{"fieldName":"__proto__","value":1}]}'), '__proto__'],
    ];
    for (const [body, name] of cases) {
      const result = await patch(body);
      expect(result.status, JSON.stringify(body)).toBe(422);
      expect((result.body as { fieldErrors: Record<string, string> }).fieldErrors).toHaveProperty([name]);
    }
    expect((await read()).body).toEqual(before);
  });

  it('CF-GET-UNKNOWN-ACTION-404 / CF-PATCH-UNKNOWN-ACTION-404 / ORG-WRITES-SCOPED', async () => {
    expect((await read('nope')).status).toBe(404);
    expect((await patch({ fields: [{ fieldName: 'order_number', value: 'x' }] }, 'nope')).status).toBe(404);
    expect((await read(id, 'org_globex')).status).toBe(404);
    expect(
      (await patch({ fields: [{ fieldName: 'order_number', value: 'x' }] }, id, 'org_globex')).status,
    ).toBe(404);
  });

  it('null clears a value', async () => {
    expect((await patch({ fields: [{ fieldName: 'order_number', value: null }] })).status).toBe(200);
    const action = (await detail(id)).body as { customFields: Record<string, unknown> };
    expect(action.customFields).not.toHaveProperty('order_number');
  });
});
