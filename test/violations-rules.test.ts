/**
 * The violation log as an SDK author tests with it: every 4xx the client caused is recorded with the
 * rule it broke (schema issues, the handler's own checks, malformed requests); undeclared query
 * parameters are warnings and the answer stays what the service gives; hints name the rule of a
 * date-only `to` and of a timestamp without a zone; `expectNoViolations` and `onViolation` make a
 * test fail with the rule and the request. Seeded keys are data and a function of the seed.
 */
import { readFile } from 'node:fs/promises';
import { beforeEach, describe, expect, it } from 'vitest';
import { SEEDED_KEYS, seededKey, seededKeys } from '../fixtures/seeded-keys.ts';
import { createEngine } from '../mocks/engine/engine.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { buildRuleIndex, type IndexedRule, renderRuleIndex } from '../mocks/engine/violations/rule-index.ts';
import { FIXED_RULES, RULE_OF_CODE } from '../mocks/engine/violations/rule-of.ts';
import {
  createViolationLog,
  expectNoViolations,
  isViolationError,
  type Violation,
  type ViolationLog,
} from '../mocks/index.ts';
import { rules } from '../src/contract/rules.ts';

const BASE = 'http://mock.test';
let log: ViolationLog;
let engine: ReturnType<typeof createEngine>;
const readKey = seededKey();
const writeKey = seededKey({ profile: 'write' });

beforeEach(() => {
  log = createViolationLog();
  engine = createEngine({ seed: 42, clock: 'frozen', selfCheck: true, interceptors: [log] });
});

async function send(
  path: string,
  init: { key?: string | null; method?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = {};
  const key = init.key === undefined ? readKey : init.key;
  if (key !== null) headers['x-api-key'] = key;
  if (init.body !== undefined) headers['content-type'] = 'application/json';
  const response = await engine.handle(
    new Request(`${BASE}${path}`, {
      method: init.method ?? 'GET',
      headers,
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    }),
  );
  return { status: response.status, body: await response.json() };
}

function only(): Violation {
  const all = log.list();
  expect(all).toHaveLength(1);
  return all[0] as Violation;
}

describe('every 4xx the client caused is recorded with the rule', () => {
  it('LIST-FULLFILTER-WITH-FILTER-400: fullFilter combined with filter (the handler checks it)', async () => {
    const res = await send('/v0/action/list?fullFilter=status%3DOPEN&filter=responded%3Dtrue');
    expect(res.status).toBe(400);
    const v = only();
    expect(v).toMatchObject({ kind: 'invalid-request', severity: 'error', status: 400 });
    expect(v.issues[0]).toMatchObject({ keyword: 'rejected', rule: 'LIST-FULLFILTER-WITH-FILTER-400' });
    expect(v.request.url).toContain('fullFilter=');
  });

  it('MOCK-QUERY-INVALID-400: from after to', async () => {
    const res = await send('/v0/action/list?from=2026-11-20&to=2026-11-01T00:00:00Z');
    expect(res.status).toBe(400);
    expect(only().issues[0]).toMatchObject({ rule: 'MOCK-QUERY-INVALID-400' });
  });

  it('LIST-PAGESIZE-RANGE and LIST-FROM-ISO-8601: schema issues name the rule of their parameter', async () => {
    await send('/v0/action/list?pageSize=0');
    await send('/v0/action/list?from=yesterday');
    const [size, date] = log.list();
    expect(size?.issues[0]).toMatchObject({ pointer: 'pageSize', rule: 'LIST-PAGESIZE-RANGE' });
    expect(date?.issues[0]).toMatchObject({ pointer: 'from', rule: 'LIST-FROM-ISO-8601' });
  });

  it('SEARCH-PAGE-RANGE: conversation search page out of range', async () => {
    await send('/v0/conversations/search?page=0');
    expect(only().issues[0]).toMatchObject({ rule: 'SEARCH-PAGE-RANGE' });
  });

  it('MOD-LANGUAGE-LENGTH, MOD-MEDIA-ITEM, MOD-ATTACHMENT-SHAPE: body issues name the rule of their field (single and batch)', async () => {
    const ok = await send('/v0/moderation/cases', {
      key: writeKey,
      method: 'POST',
      body: sampleSubmission({ externalId: 'no-language' }),
    });
    expect(ok.status).toBe(202); // language is optional (spec 2.7): nothing recorded
    expect(log.list()).toEqual([]);
    await send('/v0/moderation/cases', {
      key: writeKey,
      method: 'POST',
      body: sampleSubmission({ externalId: 'x1', language: '' }),
    });
    const base = sampleSubmission({ externalId: 'x2' }) as { media: { type: string }[] };
    await send('/v0/moderation/cases', {
      key: writeKey,
      method: 'POST',
      body: {
        ...base,
        media: [{ ...base.media[0], type: 'gif' }],
        attachment: { type: 'fax', destinationUrl: null },
      },
    });
    await send('/v0/moderation/cases/batch', {
      key: writeKey,
      method: 'POST',
      body: { cases: [sampleSubmission({ externalId: 'b1', language: '' })] },
    });
    const [language, nested, batch] = log.list();
    expect(language?.issues.map((i) => i.rule)).toEqual(['MOD-LANGUAGE-LENGTH']);
    expect(nested?.issues.map((i) => [i.field, i.rule])).toEqual(
      expect.arrayContaining([
        ['media[0].type', 'MOD-MEDIA-ITEM'],
        ['attachment.type', 'MOD-ATTACHMENT-SHAPE'],
      ]),
    );
    expect(batch?.issues[0]).toMatchObject({ pointer: '/cases/0/language', rule: 'MOD-LANGUAGE-LENGTH' });
  });

  it('CF-PATCH-TYPE-MATCH-422: a custom-field value the handler refuses', async () => {
    const list = await send('/v0/action/list?pageSize=1');
    const id = (list.body as { data: { actionId: string }[] }).data[0]?.actionId ?? '';
    const res = await send(`/v0/actions/${id}/custom-fields`, {
      key: seededKey({ profile: 'read_write' }),
      method: 'PATCH',
      body: { fields: [{ fieldName: 'is_vip', value: 'not a boolean' }] },
    });
    expect(res.status).toBe(422);
    expect(only().issues[0]).toMatchObject({ keyword: 'rejected', rule: 'CF-PATCH-TYPE-MATCH-422' });
  });

  it('AUTH-MISSING-KEY-401 / MOCK-UNKNOWN-PATH-404: malformed requests carry their rule', async () => {
    await send('/v0/agents', { key: null });
    await send('/v0/nothing-here');
    expect(log.list().map((v) => v.issues[0]?.rule)).toEqual([
      'AUTH-MISSING-KEY-401',
      'MOCK-UNKNOWN-PATH-404',
    ]);
  });
});

describe("undeclared query parameters are warnings; the answer stays the service's", () => {
  it('LIST-NO-PAGE-INPUT: page=2 on the action list is a warning naming the rule; the page is the same as without it', async () => {
    const plain = await send('/v0/action/list?pageSize=5');
    const paged = await send('/v0/action/list?pageSize=5&page=2');
    expect(paged).toEqual(plain);
    const v = only();
    expect(v).toMatchObject({ kind: 'undeclared-parameter', severity: 'warning', status: 200 });
    expect(v.issues[0]).toMatchObject({ pointer: 'page', keyword: 'undeclared', rule: 'LIST-NO-PAGE-INPUT' });
    expect(v.issues[0]?.hint).toContain('deduplicate on actionId');
  });

  it('LIST-PAGESIZE-RANGE: pagesize=5 (wrong case) is a warning that names pageSize; the default page size applies', async () => {
    const res = await send('/v0/action/list?pagesize=5');
    expect((res.body as { pageSize: number }).pageSize).toBe(50);
    expect(only().issues[0]).toMatchObject({ pointer: 'pagesize', rule: 'LIST-PAGESIZE-RANGE' });
    expect(only().issues[0]?.message).toContain('did you mean pageSize');
  });
});

describe('hints name the rules', () => {
  it('LIST-TO-DATE-ONLY-MIDNIGHT: a date-only to is midnight, not the end of the day', async () => {
    await send('/v0/action/list?from=2026-11-01&to=2026-11-20');
    const v = only();
    expect(v).toMatchObject({ kind: 'hint', severity: 'info' });
    expect(v.issues[0]).toMatchObject({ keyword: 'date-only-to', rule: 'LIST-TO-DATE-ONLY-MIDNIGHT' });
    expect(v.issues[0]?.hint).toContain('2026-11-20T23:59:59.999Z');
  });

  it('LIST-FROM-ISO-8601: a timestamp without a zone (on any operation with from/to)', async () => {
    await send('/v0/agents?from=2026-11-01T08:00:00');
    expect(only().issues[0]).toMatchObject({ keyword: 'timestamp-without-zone', rule: 'LIST-FROM-ISO-8601' });
  });

  it('a clean request records nothing', async () => {
    await send('/v0/action/list?from=2026-11-01T00:00:00Z&to=2026-11-20T23:59:59Z&pageSize=10');
    await send('/v0/agents');
    expect(log.list()).toEqual([]);
  });
});

describe('failing a test on violations', () => {
  it('expectNoViolations throws a ViolationError naming the rule and the request; hints alone pass', async () => {
    await send('/v0/action/list?to=2026-11-20');
    expect(() => expectNoViolations(log)).not.toThrow();
    expect(() => expectNoViolations(log, { severity: 'info' })).toThrow(/LIST-TO-DATE-ONLY-MIDNIGHT/);
    await send('/v0/action/list?page=2');
    let thrown: unknown;
    try {
      expectNoViolations(log);
    } catch (error) {
      thrown = error;
    }
    expect(isViolationError(thrown)).toBe(true);
    expect(String((thrown as Error).message)).toMatch(
      /warning undeclared-parameter \[LIST-NO-PAGE-INPUT\].*GET http:\/\/mock\.test\/v0\/action\/list\?page=2 answered 200/,
    );
    expect(() => expectNoViolations({ violationLog: log })).toThrow(/LIST-NO-PAGE-INPUT/);
  });

  it('onViolation as a function is called with each violation of the threshold or graver', async () => {
    const seen: Violation[] = [];
    const calling = createViolationLog({ onViolation: (v) => seen.push(v), throwOn: 'error' });
    engine = createEngine({ seed: 42, clock: 'frozen', interceptors: [calling] });
    await send('/v0/action/list?page=2'); // a warning: below the threshold
    await send('/v0/action/list?pageSize=0');
    expect(seen.map((v) => v.issues[0]?.rule)).toEqual(['LIST-PAGESIZE-RANGE']);
    expect(calling.list()).toHaveLength(2);
  });
});

describe("the rules the log names are the catalog's", () => {
  it('the generated rule index is what contract/rules.json gives (npx tsx mocks/engine/violations/rule-index.ts)', async () => {
    const catalog = JSON.parse(
      await readFile(new URL('../contract/rules.json', import.meta.url), 'utf8'),
    ) as {
      rules: IndexedRule[];
    };
    const checkedIn = await readFile(
      new URL('../mocks/engine/violations/rule-index.generated.ts', import.meta.url),
      'utf8',
    );
    expect(checkedIn).toBe(renderRuleIndex(buildRuleIndex(catalog.rules)));
  });

  it('every fixed rule id exists and is not retired', () => {
    const ids = new Map(rules.map((r) => [r.id, r]));
    for (const id of [...Object.values(FIXED_RULES), ...Object.values(RULE_OF_CODE)]) {
      expect(ids.get(id)?.retired, id).not.toBe(true);
      expect(ids.has(id), id).toBe(true);
    }
  });
});

describe('seeded keys: as data and as a function of the seed', () => {
  it('SEEDED_KEYS is fixtures/keys.json (seed 42)', async () => {
    const file = JSON.parse(
      await readFile(new URL('../fixtures/keys.json', import.meta.url), 'utf8'),
    ) as unknown;
    expect(SEEDED_KEYS).toEqual(file);
  });

  it('seededKeys(seed) are the keys an engine of that seed accepts', async () => {
    const seven = createEngine({ seed: 7, clock: 'frozen' });
    expect(seededKeys(7).map((k) => k.key)).toEqual(seven.admin.listKeys().map((k) => k.key));
    expect(seededKeys(7)).not.toEqual(SEEDED_KEYS);
    const res = await seven.handle(
      new Request(`${BASE}/v0/agents`, { headers: { 'x-api-key': seededKey({ seed: 7 }) } }),
    );
    expect(res.status).toBe(200);
    expect(() => seededKey({ organizationId: 'org_nope' })).toThrow(/no active reporting key in org_nope/);
  });
});
