/**
 * Leave no trace (LEFT-CHANGED): a full `--allow-writes` run against a deployment that
 * refuses `null` for text custom fields (its right) leaves its data as it was, record by record of
 * the data export; a deployment that refuses the restore, or answers it without storing it, fails
 * the run with LEFT-CHANGED naming the action, the field and the original value to put back.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../mocks/engine/engine.ts';
import { runConformance } from '../src/conformance/runner.ts';
import { allLaws } from '../suites/laws/index.ts';
import type { Hook } from '../suites/mutations/hook.ts';
import { withHook } from '../suites/mutations/hook.ts';
import { mockKeys, type RunningTarget, startMockTarget } from '../suites/target.ts';
import { scaled } from './support/timeouts.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const obj = (v: unknown): Json => (isObj(v) ? v : {});
const PATCH_PATH = /^\/v0\/actions\/[^/]+\/custom-fields$/;

function refusal(fieldErrors: Record<string, string>): Response {
  return new Response(JSON.stringify({ success: false, error: 'Validation failed', fieldErrors }), {
    status: 422,
    headers: { 'content-type': 'application/json' },
  });
}

/** The items of a custom-field PATCH (empty when the body is not one). */
async function patchItems(request: Request): Promise<Json[]> {
  try {
    const body: unknown = JSON.parse(await request.clone().text());
    return isObj(body) && Array.isArray(body['fields']) ? body['fields'].filter(isObj) : [];
  } catch {
    return [];
  }
}

/** A deployment that refuses `null` for text fields with 422 (the field types read through GET). */
function refusesNullForText(engine: Engine): Hook {
  const read = mockKeys(engine).read ?? '';
  return (handle) => async (request, context) => {
    if (request.method !== 'PATCH' || !PATCH_PATH.test(new URL(request.url).pathname))
      return handle(request, context);
    const nulls = (await patchItems(request)).filter((f) => f['value'] === null);
    if (nulls.length === 0) return handle(request, context);
    const current = await handle(new Request(request.url, { headers: { 'x-api-key': read } }), context);
    const body: unknown = current.status === 200 ? await current.json() : {};
    const fields = isObj(body) && Array.isArray(body['fields']) ? body['fields'].filter(isObj) : [];
    const text = new Set(fields.filter((f) => f['fieldType'] === 'text').map((f) => f['fieldName']));
    const refused = nulls.filter((f) => text.has(f['fieldName']));
    if (refused.length === 0) return handle(request, context);
    return refusal(
      Object.fromEntries(refused.map((f) => [String(f['fieldName']), 'a text field takes a string'])),
    );
  };
}

/**
 * A deployment that stores every custom-field write until it has taken `accepted` writes carrying the
 * law's rationale (the property's examples), then refuses every write (`refuse`) or answers 200
 * without storing it (`ignore`): the writes the law makes are stored, the restore after them is not.
 * Counting the property's own writes, not all writes, keeps the lock on the restore however many
 * fields the law first writes back with the value they hold.
 */
function locksAfter(accepted: number, mode: 'refuse' | 'ignore'): Hook {
  let examples = 0;
  return (handle) => async (request, context) => {
    if (request.method !== 'PATCH' || !PATCH_PATH.test(new URL(request.url).pathname))
      return handle(request, context);
    const items = await patchItems(request);
    if (examples < accepted) {
      if (items.some((f) => f['rationale'] === 'cca-conform')) examples += 1;
      return handle(request, context);
    }
    if (mode === 'refuse') return refusal({ fields: 'values are locked after the first write' });
    const actionId = decodeURIComponent(new URL(request.url).pathname.split('/')[3] ?? '');
    return new Response(
      JSON.stringify({
        actionId,
        updated: items.map((f) => ({ fieldName: f['fieldName'], value: f['value'] })),
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    );
  };
}

async function exportData(running: RunningTarget): Promise<Json> {
  const res = await fetch(`${running.target.baseUrl}/__mock/data`);
  expect(res.status).toBe(200);
  return (await res.json()) as Json;
}

/** Every record of the export as JSON text, by collection (records keep their order-free identity). */
function records(data: Json): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [name, value] of Object.entries(data))
    out.set(
      name,
      new Set(Array.isArray(value) ? value.map((r) => JSON.stringify(r)) : [JSON.stringify(value)]),
    );
  return out;
}

/**
 * A record the run created carries its run id: in an id's text, or in an all-digits id (the hard-id
 * laws write the run-prefixed id's bytes as one big decimal number, with or without leading zeros).
 */
function createdByRun(record: string, runId: string): boolean {
  if (record.includes(runId)) return true;
  return [...record.matchAll(/"(\d{20,})"/g)].some((m) => {
    const hex = BigInt(m[1] ?? '0').toString(16);
    return Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex')
      .toString('latin1')
      .includes(runId);
  });
}

async function withTarget<T>(
  wrap: (engine: Engine) => Hook,
  body: (t: RunningTarget) => Promise<T>,
): Promise<T> {
  const running = await startMockTarget({ seed: 42, wrap: (engine) => withHook(engine, wrap(engine)) });
  try {
    return await body(running);
  } finally {
    await running.close();
  }
}

describe('leave no trace (LEFT-CHANGED)', () => {
  it(
    'a full --allow-writes run against a deployment refusing null for text fields leaves every record it did not create byte for byte the same',
    async () => {
      await withTarget(refusesNullForText, async (running) => {
        const before = records(await exportData(running));
        const report = await runConformance(
          {
            target: running.target,
            seed: 11,
            runs: 5,
            allowWrites: true,
            skip: ['agent'],
            runId: 'lnt1',
          },
          { laws: allLaws },
        );
        const after = records(await exportData(running));
        expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
        for (const [name, was] of before) {
          const now = after.get(name) ?? new Set<string>();
          // Nothing that existed is changed or gone...
          expect([...was].filter((r) => !now.has(r)).map((r) => `${name}: ${r.slice(0, 300)}`)).toEqual([]);
          // ...and every new record is one the run created: it carries the run's id.
          expect(
            [...now]
              .filter((r) => !was.has(r) && !createdByRun(r, 'lnt1'))
              .map((r) => `${name}: ${r.slice(0, 300)}`),
          ).toEqual([]);
        }
        const leftChanged = report.laws.flatMap((l) =>
          l.outcome.kind === 'failed' && l.outcome.ruleId === 'LEFT-CHANGED' ? [l.outcome.message] : [],
        );
        expect(leftChanged).toEqual([]);
        // The custom-field laws ran (and wrote): the comparison above is about their writes.
        const ran = report.laws.filter((l) => l.group === 'custom-fields' && l.outcome.kind === 'passed');
        expect(ran.map((l) => l.lawId).sort()).toEqual([
          'custom-fields.patch-inputs',
          'custom-fields.patch-persists',
        ]);
        expect(report.requests).toBeGreaterThan(100);
      });
    },
    scaled(120_000),
  );

  for (const mode of ['refuse', 'ignore'] as const) {
    it(
      `a restore the deployment ${mode === 'refuse' ? 'refuses (422)' : 'answers 200 without storing'} fails the run with LEFT-CHANGED naming the action, the field and the original value, and stops further writes`,
      async () => {
        const runs = 3;
        await withTarget(
          () => locksAfter(runs, mode),
          async (running) => {
            const before = await exportData(running);
            const report = await runConformance(
              {
                target: running.target,
                seed: 3,
                runs,
                allowWrites: true,
                only: ['custom-fields'],
                runId: `lnt-${mode}`,
              },
              { laws: allLaws },
            );
            const failure = report.laws.find((l) => l.lawId === 'custom-fields.patch-persists')?.outcome;
            expect(failure?.kind).toBe('failed');
            if (failure?.kind !== 'failed') return;
            expect(failure.ruleId).toBe('LEFT-CHANGED');
            expect(report.ok).toBe(false);
            expect(report.verdict).toBe('not-conformant');
            // After a restore failed, no law writes again: the next custom-field law is not run.
            const next = report.laws.find((l) => l.lawId === 'custom-fields.patch-inputs')?.outcome;
            expect(next?.kind === 'not-run' ? next.reason : next?.kind).toMatch(
              /could not put back .*LEFT-CHANGED/,
            );
            // The counterexample says what to put back, and the message names it too.
            const { actionId, putBack } = failure.counterexample as { actionId: string; putBack: Json };
            const fieldsNow = await (
              await fetch(
                `${running.target.baseUrl}/v0/actions/${encodeURIComponent(actionId)}/custom-fields`,
                {
                  headers: { 'x-api-key': running.target.keys.read ?? '' },
                },
              )
            ).json();
            const original = (before['actions'] as Json[]).find((a) => a['actionId'] === actionId);
            const names = Object.keys(putBack);
            expect(names.length).toBeGreaterThan(0);
            expect(failure.message).toContain(actionId);
            expect(failure.message).toContain(
              mode === 'refuse' ? 'the restore was answered 422' : 'it reads back',
            );
            for (const name of names) {
              expect(failure.message).toContain(`${name} = ${JSON.stringify(putBack[name])}`);
              // The value named is the original (the export before the run), which the deployment no longer holds.
              expect(JSON.stringify(putBack[name])).toBe(
                JSON.stringify(obj(original?.['customFields'])[name]),
              );
              const field = (fieldsNow as { fields: Json[] }).fields.find((f) => f['fieldName'] === name);
              expect(JSON.stringify(field?.['value'])).not.toBe(JSON.stringify(putBack[name]));
            }
          },
        );
      },
      scaled(60_000),
    );
  }
});
