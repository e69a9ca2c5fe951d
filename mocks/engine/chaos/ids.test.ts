import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromFetchRequest } from '../fetch-bridge.ts';
import { IdAliases, isHostileId } from './ids.ts';

const MAX_SAFE = 9007199254740991n;

describe('big-id aliases (ID-STRING-PRESERVED)', () => {
  it('serves ids above 2^53 with leading zeros, and leaves hostile ids alone', () => {
    const aliases = new IdAliases(7);
    const alias = aliases.serve('agt_7Hq2LmX9');
    expect(alias).toMatch(/^009\d{18}$/);
    expect(BigInt(alias) > MAX_SAFE).toBe(true);
    expect(aliases.serve('agt_7Hq2LmX9')).toBe(alias);
    expect(aliases.original(alias)).toBe('agt_7Hq2LmX9');
    expect(aliases.serve('9007199254740993123')).toBe('9007199254740993123');
    expect(aliases.serve('000417')).toBe('000417');
    expect(isHostileId('417')).toBe(false);
    expect(isHostileId('9007199254740992')).toBe(true);
  });

  it('is the same alias for the same seed whatever the order of first use', () => {
    const a = new IdAliases(1);
    const b = new IdAliases(1);
    a.serve('x');
    expect(a.serve('y')).toBe(b.serve('y'));
    expect(new IdAliases(2).serve('y')).not.toBe(b.serve('y'));
  });

  it('rewrites id fields of a body but not dynamic maps or client ids', () => {
    const aliases = new IdAliases(1);
    const { body, rewritten } = aliases.rewriteBody({
      actionId: 'act_1',
      externalId: 'ext-1',
      customFields: { id: 'keep' },
      messages: [{ id: 'm1', authorId: null }],
    });
    expect(rewritten).toBe(2);
    expect(body).toMatchObject({
      externalId: 'ext-1',
      customFields: { id: 'keep' },
      messages: [{ authorId: null }],
    });
    expect((body as { actionId: string }).actionId).toMatch(/^009/);
  });

  it('maps aliases back in path segments and query values', () => {
    const aliases = new IdAliases(1);
    const action = aliases.serve('act_acme_00001');
    const tag = aliases.serve('tag 1');
    const rewritten = aliases.rewriteRequest(
      fromFetchRequest(
        new Request(
          `http://mock/v0/action/${action}?tagIds=${tag},t2&filter=${encodeURIComponent(`tag=${tag}+x=1`)}`,
        ),
        undefined,
      ),
    );
    const url = new URL(rewritten?.url ?? '');
    expect(url.pathname).toBe('/v0/action/act_acme_00001');
    expect(url.searchParams.get('tagIds')).toBe('tag 1,t2');
    expect(url.searchParams.get('filter')).toBe('tag=tag 1+x=1');
    expect(
      aliases.rewriteRequest(fromFetchRequest(new Request('http://mock/v0/agents'), undefined)),
    ).toBeUndefined();
  });

  it('property: every served alias resolves to its id', () => {
    const aliases = new IdAliases(3);
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), (id) => {
        const served = aliases.serve(id);
        expect(served === id ? isHostileId(id) : aliases.original(served) === id).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
