import { describe, expect, it } from 'vitest';
import { checkAgainst, tolerant } from './schemas.ts';
import { scriptOutcome, wrapScript } from './script.ts';
import { messagesOf, sseMessages } from './sse.ts';

describe('the MCP client side of the laws', () => {
  it('reads JSON-RPC messages from SSE and JSON bodies', () => {
    const sse = 'event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n: ping\n\ndata: not json\n\n';
    expect(sseMessages(sse)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
    expect(messagesOf('application/json', '[{"id":1},{"id":2}]')).toHaveLength(2);
    expect(messagesOf('application/json', '')).toEqual([]);
  });

  it('finds the marked script result in any string of any envelope, and a throw with its code', () => {
    const line = `<<cca-result>>${JSON.stringify({ ok: true, value: { n: 1 } })}<</cca-result>>`;
    const answer = {
      kind: 'result' as const,
      isError: false,
      structuredContent: { logs: [{ text: line }] },
      content: [],
    };
    expect(scriptOutcome(answer)).toMatchObject({ kind: 'value', value: { n: 1 } });
    const threw = `<<cca-result>>${JSON.stringify({ ok: false, isError: true, name: 'Error', message: 'limit: too big', code: 'INVALID_INPUT', kind: 'invalid_input' })}<</cca-result>>`;
    const text = {
      kind: 'result' as const,
      isError: false,
      structuredContent: undefined,
      content: [{ type: 'text', text: JSON.stringify({ console: threw }) }],
    };
    expect(scriptOutcome(text)).toMatchObject({
      kind: 'threw',
      isError: true,
      code: 'INVALID_INPUT',
      errorKind: 'invalid_input',
    });
    expect(
      scriptOutcome({
        kind: 'result',
        isError: true,
        structuredContent: { kind: 'limit_exceeded' },
        content: [],
      }).kind,
    ).toBe('failed');
    expect(wrapScript('return 1;')).toContain('await __ccaBody()');
  });

  it('tolerates unknown fields where the deployment closes its objects (section 9), and still validates types', () => {
    const schema = {
      type: 'object',
      additionalProperties: false,
      required: ['a'],
      properties: { a: { type: 'string' } },
    };
    expect(tolerant(schema)).toEqual({
      type: 'object',
      required: ['a'],
      properties: { a: { type: 'string' } },
    });
    expect(checkAgainst(schema, { a: 'x', extra: 1 })).toEqual({ ok: true });
    expect(checkAgainst(schema, { a: 1 }).ok).toBe(false);
  });
});
