/**
 * The engine image a snapshot holds (`mocks/engine/store/image.ts`): put back into another engine of
 * the same origin it answers byte for byte as the engine it was taken from, and ids go on from the
 * same counter; a state holding what it cannot restore (a function, an unknown class) is refused
 * rather than written. The image (format 3) lists its class instances by reference, so a restore
 * touches only them, and holds each moderation case's submission as JSON text; an image of format 2
 * (submissions as objects) and of format 1 (that, and listed by walk order) still restore.
 */

import { deserialize, serialize } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { exportDataFile } from '../mocks/engine/data-file/export.ts';
import { createEngine, type Engine } from '../mocks/engine/engine.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { captureImage, restoreImage } from '../mocks/engine/store/image.ts';
import type { ImageAccess } from '../mocks/engine/store/types.ts';
import { captureImageFormat1 } from './support/snapshot-format-1.ts';
import { withSubmissionObjects } from './support/snapshot-older-cases.ts';

const START = Date.parse('2026-11-20T12:00:00Z');

async function engineWithImage(): Promise<{ engine: Engine; image: ImageAccess }> {
  const engine = createEngine({ seed: 42, clock: new MockClock({ start: START }) });
  let access: ImageAccess | undefined;
  await engine.useStore((apply, image) => {
    access = image;
    return {
      kind: 'memory',
      synchronous: true,
      write: apply,
      catchUp: () => undefined,
      health: () => ({
        store: 'memory',
        location: null,
        position: 0,
        logLength: 0,
        lag: 0,
        connected: true,
        lastError: null,
      }),
      close: async () => undefined,
    };
  });
  return { engine, image: access as ImageAccess };
}

const read = async (engine: Engine, path: string, key: string): Promise<string> =>
  (
    await engine.handle(new Request(`http://mock${path}`, { headers: { 'x-api-key': key } }), {
      remoteAddress: '127.0.0.1',
    })
  ).text();

async function engineWithCases(): Promise<{ engine: Engine; image: ImageAccess }> {
  const from = await engineWithImage();
  for (let i = 0; i < 40; i += 1) {
    from.engine.run({
      type: 'moderation.submit',
      organizationId: 'org_acme',
      submission: sampleSubmission({ externalId: `image-${i}` }),
    });
  }
  from.engine.run({ type: 'clock.advance', ms: 90_000 });
  return from;
}

/** `to` answers every read byte for byte as `from`, and issues the same next ids. */
async function expectSameEngine(from: Engine, to: Engine): Promise<void> {
  const key = from.admin.listKeys().find((k) => k.organizationId === 'org_acme' && k.status === 'active')
    ?.key as string;
  const caseIds = [...from.state.moderation.byCaseId.keys()];
  expect(caseIds).toHaveLength(40);
  for (const path of ['/v0/agents', '/__mock/clock', ...caseIds.map((id) => `/v0/moderation/cases/${id}`)])
    expect(await read(to, path, key)).toBe(await read(from, path, key));
  // The export is the one reader of a case's submission.
  expect(JSON.stringify(exportDataFile(to.state))).toBe(JSON.stringify(exportDataFile(from.state)));
  const next = (engine: Engine) =>
    engine.run({
      type: 'moderation.submit',
      organizationId: 'org_acme',
      submission: sampleSubmission({ externalId: 'after-image' }),
    });
  expect(next(to)).toEqual(next(from));
}

describe('the engine image of a snapshot', () => {
  it('put into another engine of the same origin, answers byte for byte and issues the same next ids', async () => {
    const from = await engineWithCases();
    const to = await engineWithImage();
    const running = to.image.take();
    const restored = restoreImage(captureImage(from.image.take()), running);
    // The running engine's own signer and key values, never the ones the image was taken with.
    expect(restored.state.replies.signer).toBe(running.state.replies.signer);
    expect(restored.state.keys.values).toBe(running.state.keys.values);
    to.image.put(restored);
    await expectSameEngine(from.engine, to.engine);
  });

  it('lists its class instances and engine parts by reference (format 2): a restore walks nothing else', async () => {
    const from = await engineWithCases();
    const decoded = deserialize(captureImage(from.image.take())) as {
      state: unknown;
      tagged: object[];
      names: string[];
      slots: [object, unknown, string][];
    };
    expect(decoded.tagged.length).toBe(decoded.names.length);
    expect(new Set(decoded.names)).toEqual(new Set(['ActionTable', 'SortedIndex', 'DataBaseline']));
    // The clock wherever the state holds it (several parts do), the signer and key values once each.
    expect(new Set(decoded.slots.map((slot) => slot[2]))).toEqual(new Set(['clock', 'keyValues', 'signer']));
    expect(decoded.slots.filter((slot) => slot[2] !== 'clock')).toHaveLength(2);
    const state = decoded.state as { replies: object; keys: object };
    // The slots' holders are the decoded state's own objects (shared references), not copies.
    expect(decoded.slots.find((slot) => slot[2] === 'signer')?.[0]).toBe(state.replies);
    expect(decoded.slots.find((slot) => slot[2] === 'keyValues')?.[0]).toBe(state.keys);
  });

  it("holds each moderation case's submission as its JSON text, not as an object, and equal outcomes once (format 3)", async () => {
    const from = await engineWithCases();
    const decoded = deserialize(captureImage(from.image.take())) as {
      state: { moderation: { byCaseId: Map<string, Record<string, unknown>> } };
    };
    const cases = [...decoded.state.moderation.byCaseId.values()];
    expect(cases).toHaveLength(40);
    // Forty cases of one outcome hold it once, in the image too (v8 keeps shared references).
    const outcomes = new Set(cases.map((c) => (c['evaluations'] as { outcome: object }[])[0]?.outcome));
    expect(outcomes.size).toBe(1);
    for (const c of cases) {
      expect(c['submission']).toBeUndefined();
      expect(JSON.parse(c['submissionJson'] as string)).toEqual(
        sampleSubmission({ externalId: c['externalId'] as string }),
      );
    }
  });

  it('an image of format 2 (submissions as objects) restores, answers and exports byte for byte', async () => {
    const from = await engineWithCases();
    const old = captureImage(withSubmissionObjects(from.image.take()));
    const cases = (deserialize(old) as { state: { moderation: { byCaseId: Map<string, object> } } }).state
      .moderation.byCaseId;
    expect([...cases.values()].every((c) => 'submission' in c && !('submissionJson' in c))).toBe(true);
    const to = await engineWithImage();
    to.image.put(restoreImage(old, to.image.take(), 2));
    // Both maps hold the same converted case, as an engine that took the submissions itself would.
    const moderation = to.engine.state.moderation;
    for (const [externalId, c] of moderation.organizations.get('org_acme')?.byExternalId ?? []) {
      expect(moderation.byCaseId.get(c.caseId)).toBe(c);
      expect(JSON.parse(c.submissionJson)).toEqual(sampleSubmission({ externalId }));
    }
    await expectSameEngine(from.engine, to.engine);
  });

  it('an image of format 1 (the layout before) restores and answers byte for byte; one of another layout is refused', async () => {
    const from = await engineWithCases();
    const old = captureImageFormat1(withSubmissionObjects(from.image.take()));
    const to = await engineWithImage();
    to.image.put(restoreImage(old, to.image.take(), 1));
    await expectSameEngine(from.engine, to.engine);
    const other = await engineWithImage();
    expect(() => restoreImage(old, other.image.take(), 2)).toThrow(/not of format 2/);
    expect(() => restoreImage(captureImage(from.image.take()), other.image.take(), 1)).toThrow(
      /not of format 1/,
    );
  });

  it('refuses a state it could not restore exactly (a function, an unknown class)', async () => {
    const { engine, image } = await engineWithImage();
    const moderation = engine.state.moderation as unknown as Record<string, unknown>;
    moderation['stray'] = () => undefined;
    expect(() => captureImage(image.take())).toThrow(/function/);
    class Unknown {
      readonly value = 1;
    }
    moderation['stray'] = new Unknown();
    expect(() => captureImage(image.take())).toThrow(/holds a Unknown, which a snapshot cannot restore/);
  });

  it("names its classes by fixed names, not by the running code's: an image of the CLI's bundle (where a class may be named _SortedIndex) restores in the library's modules", async () => {
    const from = await engineWithCases();
    const bytes = captureImage(from.image.take());
    const decoded = deserialize(bytes) as { names: string[] };
    // What the bundled CLI wrote before the names were fixed: the bundler's names, with a leading _.
    const bundled = serialize({ ...decoded, names: decoded.names.map((name) => `_${name}`) });
    const to = await engineWithImage();
    to.image.put(restoreImage(bundled, to.image.take()));
    await expectSameEngine(from.engine, to.engine);
  });
});
