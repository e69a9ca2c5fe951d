/**
 * The engine image a snapshot holds (`mocks/engine/store/image.ts`): put back into another engine of
 * the same origin it answers byte for byte as the engine it was taken from, and ids go on from the
 * same counter; a state holding what it cannot restore (a function, an unknown class) is refused
 * rather than written.
 */
import { describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { createEngine, type Engine } from '../mocks/engine/engine.ts';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { captureImage, restoreImage } from '../mocks/engine/store/image.ts';
import type { ImageAccess } from '../mocks/engine/store/types.ts';

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

describe('the engine image of a snapshot', () => {
  it('put into another engine of the same origin, answers byte for byte and issues the same next ids', async () => {
    const from = await engineWithImage();
    for (let i = 0; i < 40; i += 1) {
      from.engine.run({
        type: 'moderation.submit',
        organizationId: 'org_acme',
        submission: sampleSubmission({ externalId: `image-${i}` }),
      });
    }
    from.engine.run({ type: 'clock.advance', ms: 90_000 });
    const to = await engineWithImage();
    to.image.put(restoreImage(captureImage(from.image.take()), to.image.take()));
    const key = from.engine.admin
      .listKeys()
      .find((k) => k.organizationId === 'org_acme' && k.status === 'active')?.key as string;
    const caseIds = [...from.engine.state.moderation.byCaseId.keys()];
    for (const path of ['/v0/agents', '/__mock/clock', ...caseIds.map((id) => `/v0/moderation/cases/${id}`)])
      expect(await read(to.engine, path, key)).toBe(await read(from.engine, path, key));
    const next = (engine: Engine) =>
      engine.run({
        type: 'moderation.submit',
        organizationId: 'org_acme',
        submission: sampleSubmission({ externalId: 'after-image' }),
      });
    expect(next(to.engine)).toEqual(next(from.engine));
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
});
