import { describe, expect, it } from 'vitest';
import { createEngine } from '../engine.ts';
import { createChaos } from './index.ts';

describe('chaos counters count what was done', () => {
  it('stats.requests counts REST requests under the rewrite modes alone (big ids, unknown fields), not admin ones', async () => {
    const chaos = createChaos({ seed: 1, bigIds: true, unknownFields: true });
    const engine = createEngine({ seed: 42, actions: 20, interceptors: [chaos] });
    const [key] = engine.admin.listKeys('org_acme').filter((k) => k.profile === 'reporting');
    for (let i = 0; i < 3; i++) {
      const answer = await engine.handle(
        new Request('http://mock.test/v0/action/list?pageSize=2', {
          headers: { 'x-api-key': key?.key ?? '' },
        }),
        { remoteAddress: '127.0.0.1' },
      );
      expect(answer.status).toBe(200);
    }
    await engine.handle(new Request('http://mock.test/__mock/clock'), { remoteAddress: '127.0.0.1' });
    const stats = chaos.stats();
    expect(stats.requests).toBe(3);
    expect(stats.idsRewritten).toBeGreaterThan(0);
    expect(stats.unknownFields).toBeGreaterThan(0);
    chaos.off();
    await engine.handle(new Request('http://mock.test/v0/agents'), { remoteAddress: '127.0.0.1' });
    expect(chaos.stats().requests).toBe(3);
  });
});
