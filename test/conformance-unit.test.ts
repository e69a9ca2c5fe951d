import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  aimedCases,
  arbitraryFromSchema,
  ingestionBatch,
  moderationSubmission,
} from '../src/arbitraries/index.ts';
import { BudgetExhaustedError, ConformanceClient, RateLimiter } from '../src/client/index.ts';
import { baselineFrom, fingerprintOf, parseBaseline } from '../src/conformance/kit/baseline.ts';
import { runExamples, runProperty, violate } from '../src/conformance/kit/check.ts';
import type { Law } from '../src/conformance/kit/law.ts';
import { isLoopback, normalizeOptions } from '../src/conformance/kit/options.ts';
import { toCurl, toCurlSequence } from '../src/conformance/kit/repro.ts';
import { runConformance } from '../src/conformance/runner.ts';
import { contract } from '../src/contract/index.ts';
import { resolveLocalRef } from '../src/contract/operations.ts';
import {
  consoleProgress,
  renderConsoleReport,
  renderJsonReport,
  renderJunitReport,
} from '../src/reporters/index.ts';

const SECRET = 'cca_live_acme_reporting_S3CR3T&<key>';
const resolve = (ref: string) =>
  resolveLocalRef(contract.document, { $ref: ref }) as boolean | Record<string, unknown>;

describe('curl repro', () => {
  it('references the key as an env var and sends a JSON body through a quoted heredoc', () => {
    const curl = toCurl({
      method: 'POST',
      url: 'http://127.0.0.1:4010/v0/moderation/cases',
      auth: 'write',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"title":"it\'s $HOME `x`"}',
    });
    expect(curl).toContain('-H "X-API-Key: $CCA_WRITE_KEY"');
    expect(curl).toContain('--data-binary @- <<\'JSON\'\n{"title":"it\'s $HOME `x`"}\nJSON');
    expect(curl).not.toContain('accept');
  });

  it('keeps the query percent-encoded and quotes the URL', () => {
    const curl = toCurl({
      method: 'GET',
      url: 'http://h/v0/action/list?from=2026-01-01T00%3A00%3A00Z&pageSize=501',
      auth: 'read',
      headers: {},
    });
    expect(curl).toBe(
      `curl -sS -i -X GET 'http://h/v0/action/list?from=2026-01-01T00%3A00%3A00Z&pageSize=501' -H "X-API-Key: $CCA_READ_KEY"`,
    );
  });

  it('numbers a stateful sequence in order', () => {
    const ex = (seq: number) => ({
      seq,
      method: 'GET',
      url: `http://h/${seq}`,
      auth: 'none' as const,
      headers: {},
      status: 200,
    });
    const text = toCurlSequence([ex(1), ex(2)]);
    expect(text.indexOf('# 1/2')).toBeLessThan(text.indexOf('# 2/2'));
    expect(text).not.toContain('X-API-Key');
  });
});

describe('reporters never print a key', () => {
  const law: Law = {
    id: 'unit.leaky',
    group: 'unit',
    title: 'a law whose failure message contains the key',
    ruleIds: ['AUTH-HEADER-X-API-KEY'],
    needs: { keys: ['read'] },
    run: (ctx) =>
      runExamples(ctx, async () =>
        violate('AUTH-HEADER-X-API-KEY', 'leak', `server echoed ${SECRET}`, { echoed: SECRET }),
      ),
  };

  it('redacts the key from console, JSON and JUnit output (AUTH-HEADER-X-API-KEY)', async () => {
    const report = await runConformance(
      { target: { baseUrl: 'http://127.0.0.1:9', keys: { read: SECRET } }, seed: 1 },
      {
        laws: [law],
        contract,
        rules: [
          { id: 'AUTH-HEADER-X-API-KEY', title: 'Key is sent in X-API-Key', section: '5', check: 'live' },
        ],
      },
    );
    expect(report.ok).toBe(false);
    for (const text of [
      renderConsoleReport(report, [SECRET]),
      renderJsonReport(report, [SECRET]),
      renderJunitReport(report, [SECRET]),
    ]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain('S3CR3T');
      expect(text).toContain('[REDACTED]');
    }
  });
});

describe('JUnit report', () => {
  it('has one testcase per rule: failures with the message, not-run as skipped with the reason', async () => {
    const laws: Law[] = [
      {
        id: 'u.pass',
        group: 'u',
        title: 'p',
        ruleIds: ['R-PASS'],
        needs: { keys: [] },
        run: async () => ({ kind: 'passed', ruleIds: ['R-PASS'], checks: 3 }),
      },
      {
        id: 'u.fail',
        group: 'u',
        title: 'f',
        ruleIds: ['R-FAIL'],
        needs: { keys: [] },
        run: (ctx) => runExamples(ctx, async () => violate('R-FAIL', 'x', 'boom')),
      },
      {
        id: 'u.skip',
        group: 'u',
        title: 's',
        ruleIds: ['R-SKIP'],
        needs: { keys: ['ingest'] },
        run: async () => ({ kind: 'passed', ruleIds: ['R-SKIP'], checks: 1 }),
      },
    ];
    const rules = ['R-PASS', 'R-FAIL', 'R-SKIP', 'R-MOCK'].map((id) => ({
      id,
      title: id,
      section: '1',
      check: id === 'R-MOCK' ? 'mock-only' : 'live',
    }));
    const report = await runConformance(
      { target: { baseUrl: 'http://127.0.0.1:9', keys: {} }, seed: 1 },
      { laws, contract, rules },
    );
    const xml = renderJunitReport(report);
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toMatch(
      /classname="cca-conform.u" name="R-FAIL \(must\) R-FAIL" time="\d+\.\d{3}">\s*<failure message="boom">/,
    );
    expect(xml).toMatch(
      /name="R-SKIP \(must\) R-SKIP"[^>]*>\s*<skipped message="u.skip: needs CCA_INGEST_KEY \(not set\)"/,
    );
    expect(xml).toMatch(
      /classname="cca-conform.catalog" name="R-MOCK \(mock-only\) R-MOCK"[^>]*>\s*<skipped message="mock-only rule/,
    );
    expect(report.rules.find((r) => r.ruleId === 'R-SKIP')?.status).toBe('not-run');
  });
});

describe('baseline', () => {
  it('fingerprints ignore the counterexample and known failures do not fail the run', async () => {
    expect(fingerprintOf('law', 'RULE', 'status:200')).toBe(fingerprintOf('law', 'RULE', 'status:200'));
    expect(fingerprintOf('law', 'RULE', 'status:200')).not.toBe(fingerprintOf('law', 'RULE', 'status:201'));
    const law: Law = {
      id: 'u.fail',
      group: 'u',
      title: 'f',
      ruleIds: ['R'],
      needs: { keys: [] },
      run: (ctx) => runExamples(ctx, async () => violate('R', 'code', `seed-dependent ${ctx.seed}`)),
    };
    const deps = { laws: [law], contract, rules: [{ id: 'R', title: 'r', section: '1', check: 'live' }] };
    const first = await runConformance(
      { target: { baseUrl: 'http://127.0.0.1:9', keys: {} }, seed: 1 },
      deps,
    );
    const baseline = parseBaseline(JSON.stringify(baselineFrom(first)));
    const second = await runConformance(
      { target: { baseUrl: 'http://127.0.0.1:9', keys: {} }, seed: 2, baseline },
      deps,
    );
    expect(first.ok).toBe(false);
    expect(second.ok).toBe(true);
    expect(second.rules[0]?.status).toBe('known-failure');
    expect(second.laws[0]?.known).toBe(true);
  });
});

describe('options', () => {
  it('writes default on only for loopback targets; invalid options are refused with the option name', () => {
    expect(isLoopback('http://127.0.0.1:4010')).toBe(true);
    expect(isLoopback('http://[::1]:4010')).toBe(true);
    expect(normalizeOptions({ target: { baseUrl: 'http://localhost:1', keys: {} } }).allowWrites).toBe(true);
    expect(normalizeOptions({ target: { baseUrl: 'https://api.example.com', keys: {} } }).allowWrites).toBe(
      false,
    );
    expect(normalizeOptions({ target: { baseUrl: 'https://api.example.com', keys: {} } }).maxRps).toBe(20);
    expect(() => normalizeOptions({ target: { baseUrl: 'http://x', keys: {} }, runs: 0 })).toThrow(/runs/);
    expect(() => normalizeOptions({ target: { baseUrl: 'nope', keys: {} } })).toThrow(/baseUrl/);
  });
});

describe('arbitraries derived from the contract', () => {
  it('schema-generated and hand-written submissions and batches are valid against the contract', () => {
    fc.assert(
      fc.property(
        arbitraryFromSchema({ $ref: '#/components/schemas/ModerationSubmission' }, { resolve }),
        (v) => contract.validateSchema('ModerationSubmission', v).ok,
      ),
      { numRuns: 50 },
    );
    fc.assert(
      fc.property(
        arbitraryFromSchema({ $ref: '#/components/schemas/IngestionBatch' }, { resolve }),
        (v) => contract.validateSchema('IngestionBatch', v).ok,
      ),
      { numRuns: 50 },
    );
    fc.assert(
      fc.property(
        moderationSubmission({ externalIdPrefix: 'cca-conform-t-' }),
        (v) => contract.validateSchema('ModerationSubmission', v).ok,
      ),
      { numRuns: 100 },
    );
    fc.assert(
      fc.property(
        ingestionBatch({ externalIdPrefix: 'cca-conform-t-' }),
        (v) => contract.validateSchema('IngestionBatch', v).ok,
      ),
      { numRuns: 100 },
    );
  });

  it('aimed cases are valid exactly when they say so (just inside / just outside every constraint)', () => {
    for (const name of ['ModerationSubmission', 'IngestionBatch', 'CustomFieldsUpdateRequest'] as const) {
      const base =
        name === 'ModerationSubmission'
          ? fc.sample(moderationSubmission({ externalIdPrefix: 'p-' }), { seed: 7, numRuns: 1 })[0]
          : name === 'IngestionBatch'
            ? fc.sample(ingestionBatch({ externalIdPrefix: 'p-' }), { seed: 7, numRuns: 1 })[0]
            : { fields: [{ fieldName: 'tier', value: 'gold' }] };
      const cases = aimedCases({ $ref: `#/components/schemas/${name}` }, base, { resolve });
      expect(cases.length).toBeGreaterThan(5);
      for (const c of cases) {
        expect({ case: c.description, valid: contract.validateSchema(name, c.value).ok }).toEqual({
          case: c.description,
          valid: c.valid,
        });
      }
    }
  });

  it('sends no one-character string as a valid time: createdAt (min 1, no format) gets only its too-short case', () => {
    const base = fc.sample(ingestionBatch({ externalIdPrefix: 'p-' }), { seed: 7, numRuns: 1 })[0];
    const cases = aimedCases({ $ref: '#/components/schemas/IngestionBatch' }, base, { resolve });
    const createdAt = cases.filter((c) => c.description.includes('createdAt'));
    expect(createdAt.some((c) => !c.valid)).toBe(true);
    expect(createdAt.filter((c) => c.valid && c.description.includes('minLength'))).toEqual([]);
    // Other required strings of min 1 (authorId) keep their valid boundary.
    expect(
      cases.some((c) => c.valid && c.description.includes('authorId') && c.description.includes('minLength')),
    ).toBe(true);
  });

  it('aims at pageSize 0, 1, 500 and 501 for the action list', () => {
    const pageSize = contract.getOperation('listActions').parameters.find((p) => p.name === 'pageSize');
    const values = aimedCases(pageSize?.schema ?? true, 50).map((c) => `${String(c.value)}:${c.valid}`);
    expect(values).toEqual(
      expect.arrayContaining(['1:true', '0:false', '500:true', '501:false', '1.5:false']),
    );
  });
});

describe('client', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url?.startsWith('/big')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"actionId":12345678901234567890,"key":"' + String(req.headers['x-api-key']) + '"}');
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"success":false,"error":"nope"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('keeps the raw bytes next to the parsed body and records requests without the key', async () => {
    const client = new ConformanceClient({ baseUrl: url, keys: { read: SECRET.replace(/[&<>]/g, '') } });
    const res = await client.request({ method: 'GET', path: '/big', auth: 'read' });
    expect(res.ok).toBe(true);
    if (res.kind !== 'http') throw new Error('network');
    expect(res.raw).toContain('12345678901234567890');
    expect(JSON.stringify(client.log)).not.toContain('S3CR3T');
    const err = await client.request({ method: 'GET', path: '/missing', auth: 'none' });
    expect(err).toMatchObject({
      kind: 'http',
      ok: false,
      status: 404,
      error: { success: false, error: 'nope' },
    });
    await client.close();
  });

  it('reports a refused connection as a network result and enforces the request budget', async () => {
    const client = new ConformanceClient({
      baseUrl: 'http://127.0.0.1:9',
      keys: {},
      maxRequests: 1,
      timeoutMs: 2000,
    });
    const res = await client.request({ method: 'GET', path: '/', auth: 'none' });
    expect(res.kind).toBe('network');
    await expect(client.request({ method: 'GET', path: '/', auth: 'none' })).rejects.toBeInstanceOf(
      BudgetExhaustedError,
    );
    await client.close();
  });

  it('spaces requests by 1/maxRps', async () => {
    const limiter = new RateLimiter(50);
    const t0 = performance.now();
    for (let i = 0; i < 6; i++) await limiter.acquire();
    expect(performance.now() - t0).toBeGreaterThanOrEqual(90);
  });
});

describe('laws and the rules catalog', () => {
  it('every rule id a law names exists in contract/rules.json, and law ids are unique', async () => {
    const { rules } = await import('../src/contract/rules.ts');
    const { allLaws } = await import('../suites/laws/index.ts');
    const { MUTANTS } = await import('../suites/mutations/faults.ts');
    const ids = new Set(rules.map((r) => r.id));
    const named = new Set([...allLaws.flatMap((l) => l.ruleIds), ...MUTANTS.flatMap((m) => m.expect)]);
    expect([...named].filter((id) => !ids.has(id))).toEqual([]);
    expect(new Set(allLaws.map((l) => l.id)).size).toBe(allLaws.length);
  });
});

describe('mock-only rules on a live target', () => {
  it('a rule whose catalog check is mock-only is never reported as a passed must, even when a passing law names it', async () => {
    // MOD-NO-FALLBACK-OLD-EVALUATION: audited `must`, but checked on the mock only.
    const id = 'MOD-NO-FALLBACK-OLD-EVALUATION';
    const laws: Law[] = [
      {
        id: 'u.names-mock-only',
        group: 'u',
        title: 'p',
        ruleIds: [id],
        needs: { keys: [] },
        run: async () => ({ kind: 'passed', ruleIds: [id], checks: 3 }),
      },
    ];
    const report = await runConformance(
      { target: { baseUrl: 'http://127.0.0.1:9', keys: {} }, seed: 1 },
      { laws, contract, rules: [{ id, title: id, section: '1', check: 'mock-only' }] },
    );
    const rule = report.rules.find((r) => r.ruleId === id);
    expect({ level: rule?.level, status: rule?.status }).toEqual({
      level: 'mock-only',
      status: 'not-covered',
    });
    expect(renderConsoleReport(report)).not.toMatch(new RegExp(`pass\\s+must\\s+${id}`));
  });
});

describe('what the console shows of laws a run left out', () => {
  const law = (id: string, group: string, ruleId: string): Law => ({
    id,
    group,
    title: id,
    ruleIds: [ruleId],
    needs: { keys: [] },
    run: async () => ({ kind: 'passed', ruleIds: [ruleId], checks: 1 }),
  });
  const laws = [
    law('a.one', 'a', 'R-A1'),
    ...['b.one', 'b.two', 'b.three'].map((id, i) => law(id, 'b', `R-B${i}`)),
  ];
  const rules = ['R-A1', 'R-B0', 'R-B1', 'R-B2'].map((id) => ({
    id,
    title: id,
    section: '1',
    check: 'live' as const,
  }));

  it('a group left out by --skip is one progress line and one catalog line, not a line per law and rule', async () => {
    let progress = '';
    const report = await runConformance(
      {
        target: { baseUrl: 'http://127.0.0.1:9', keys: {} },
        seed: 1,
        skip: ['b'],
        onProgress: consoleProgress({ write: (t) => (progress += t) }),
      },
      { laws, contract, rules },
    );
    expect(progress.match(/^skip group b: skipped by --skip b$/gm)).toHaveLength(1);
    expect(progress).not.toMatch(/b\.(one|two|three)/);
    const text = renderConsoleReport(report);
    expect(text).not.toMatch(/not run\s+must\s+R-B/);
    expect(text).toMatch(/^ +3 +skipped by --skip b \(R-B0, R-B1, R-B2\)$/m);
    expect(text).toMatch(/^ {2}3 rules left out by --only\/--skip/m);
    expect(text).toMatch(/pass\s+must\s+R-A1/);
  });
});

describe('shrinking', () => {
  it('keeps the rule of the first failing case: a smaller case that breaks another rule is not the counterexample', async () => {
    // Large values break R-LARGE; small ones break R-SMALL. Shrinking from a large failing value toward
    // 0 would end at a small value, reported under R-SMALL, unless it keeps to the first failure's rule.
    const laws: Law[] = [
      {
        id: 'u.shrink',
        group: 'u',
        title: 'shrink',
        ruleIds: ['R-LARGE', 'R-SMALL'],
        needs: { keys: [] },
        run: (ctx) =>
          runProperty(
            ctx,
            fc.integer({ min: 0, max: 1_000_000 }),
            async (n) => {
              if (n >= 1000) violate('R-LARGE', 'large', `${n} is large`);
              if (n < 10) violate('R-SMALL', 'small', `${n} is small`);
            },
            { runs: 50 },
          ),
      },
    ];
    const rules = ['R-LARGE', 'R-SMALL'].map((id) => ({
      id,
      title: id,
      section: '1',
      check: 'live' as const,
    }));
    const report = await runConformance(
      { target: { baseUrl: 'http://127.0.0.1:9', keys: {} }, seed: 5 },
      { laws, contract, rules },
    );
    const first = report.laws[0]?.failures[0];
    expect(first?.ruleId).toBe('R-LARGE');
    expect(first?.counterexample).toBe(1000);
  });

  it('shrink: false (--no-shrink) reports the first failing case as found, not a shrunk one', async () => {
    let firstFailing: number | undefined;
    const laws: Law[] = [
      {
        id: 'u.no-shrink',
        group: 'u',
        title: 'no shrink',
        ruleIds: ['R-LARGE'],
        needs: { keys: [] },
        run: (ctx) =>
          runProperty(ctx, fc.integer({ min: 0, max: 1_000_000 }), async (n) => {
            if (n >= 1000) {
              firstFailing ??= n;
              violate('R-LARGE', 'large', `${n} is large`);
            }
          }),
      },
    ];
    const rules = [{ id: 'R-LARGE', title: 'R-LARGE', section: '1', check: 'live' as const }];
    const report = await runConformance(
      { target: { baseUrl: 'http://127.0.0.1:9', keys: {} }, seed: 5, runs: 50, shrink: false },
      { laws, contract, rules },
    );
    const failure = report.laws[0]?.failures[0];
    expect(failure?.ruleId).toBe('R-LARGE');
    expect(failure?.counterexample).toBe(firstFailing);
    expect(firstFailing).toBeGreaterThan(1000);
    const shrunk = await runConformance(
      { target: { baseUrl: 'http://127.0.0.1:9', keys: {} }, seed: 5, runs: 50 },
      { laws, contract, rules },
    );
    expect(shrunk.laws[0]?.failures[0]?.counterexample).toBe(1000);
  });
});
