import { describe, expect, it } from 'vitest';
import { createContract } from './contract.ts';
import { miniDocument } from './mini-document.ts';
import { coerceParameterValue } from './validators.ts';

const contract = createContract(miniDocument);

const request = (query: string, body?: unknown, pathParams: Record<string, string> = {}) => ({
  pathParams,
  query: new URLSearchParams(query),
  body,
  contentType: body === undefined ? null : 'application/json',
});

const validItem = {
  id: '9007199254740993',
  title: 'hello',
  createdAt: '2026-11-20T10:00:00Z',
  score: 4.5,
  media: [{ url: 'https://example.com/a.png', type: 'image', position: 1 }],
};

describe('parameter coercion', () => {
  it('converts integer, number and boolean parameters strictly and fills defaults', () => {
    const result = contract.validateRequest('listItems', request('ratio=2.5&respondedOnly=true&tag=1&tag=2'));
    expect(result).toEqual({
      ok: true,
      query: { pageSize: 50, ratio: 2.5, respondedOnly: true, tag: [1, 2] },
      pathParams: {},
      body: undefined,
    });
  });

  it('accepts only canonical decimal integers: 01, 1.5, 1e2, +1 and blanks stay strings and fail', () => {
    for (const raw of ['01', '1.5', '1e2', '+1', ' 1', '', '0x10', '9007199254740993']) {
      expect(coerceParameterValue(raw, 'integer')).toBe(raw);
      const result = contract.validateRequest('listItems', request(`pageSize=${encodeURIComponent(raw)}`));
      expect(result.ok).toBe(false);
    }
    expect(coerceParameterValue('-0', 'integer')).toBe(-0);
    expect(coerceParameterValue('500', 'integer')).toBe(500);
  });

  it('accepts only true and false for booleans', () => {
    for (const raw of ['TRUE', '1', 'yes', '']) expect(coerceParameterValue(raw, 'boolean')).toBe(raw);
    const result = contract.validateRequest('listItems', request('respondedOnly=1'));
    expect(result.ok).toBe(false);
  });

  it('never converts strings: ids and filters stay byte-identical (ID-STRING-PRESERVED)', () => {
    const result = contract.validateRequest('listItems', request('filter=007'));
    expect(result.ok && result.query['filter']).toBe('007');
    const byId = contract.validateRequest(
      'getItem',
      request('', undefined, { id: '00012345678901234567890' }),
    );
    expect(byId.ok && byId.pathParams['id']).toBe('00012345678901234567890');
  });

  it('keeps the first of repeated scalar parameters; arrays take all', () => {
    const result = contract.validateRequest('listItems', request('pageSize=5&pageSize=900&tag=3&tag=4'));
    expect(result.ok && result.query).toMatchObject({ pageSize: 5, tag: [3, 4] });
  });
});

describe('issue messages name the field', () => {
  it('query parameter range', () => {
    const result = contract.validateRequest('listItems', request('pageSize=501'));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.issues).toEqual([
      {
        location: 'query',
        pointer: 'pageSize',
        field: 'pageSize',
        keyword: 'maximum',
        message: 'query parameter pageSize must be <= 500 (got 501)',
      },
    ]);
  });

  it('query parameter type keeps what the client sent', () => {
    const result = contract.validateRequest('listItems', request('pageSize=1.5'));
    expect(!result.ok && result.issues[0]?.message).toBe(
      'query parameter pageSize must be an integer (got "1.5")',
    );
  });

  it('a date-time format check', () => {
    const bad = contract.validateRequest('listItems', request('from=2026-11-20'));
    expect(!bad.ok && bad.issues[0]).toMatchObject({ keyword: 'format', field: 'from' });
    expect(!bad.ok && bad.issues[0]?.message).toContain('must be a valid date-time');
    expect(contract.validateRequest('listItems', request('from=2026-11-20T00:00:00Z')).ok).toBe(true);
    expect(contract.validateRequest('listItems', request('from=2026-11-20T00:00:00')).ok).toBe(false);
  });

  it('body issues carry JSON pointers and human paths, a missing key included', () => {
    const body = {
      ...validItem,
      title: '',
      score: 7,
      media: [
        { url: 'ftp://x', type: 'gif' },
        { url: 'https://x.test/b', type: 'video', position: 2, extra: 1 },
      ],
    };
    const result = contract.validateRequest('createItem', request('', body));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byField = Object.fromEntries(result.issues.map((i) => [`${i.field}:${i.keyword}`, i]));
    expect(byField['media[0].position:required']).toMatchObject({
      pointer: '/media/0/position',
      missingProperty: 'position',
      message: 'body field media[0].position is required',
    });
    expect(byField['media[0].type:enum']?.message).toBe(
      'body field media[0].type must be one of "image", "video" (got "gif")',
    );
    expect(byField['media[0].url:pattern']?.pointer).toBe('/media/0/url');
    expect(byField['score:maximum']?.message).toBe('body field score must be <= 5 (got 7)');
    expect(byField['title:minLength']?.message).toBe(
      'body field title must NOT have fewer than 1 characters (got 0)',
    );
    expect(byField['media[1].extra:additionalProperties']?.pointer).toBe('/media/1/extra');
  });

  it('a missing required body is an issue; a wrong content type is a header issue', () => {
    const missing = contract.validateRequest('createItem', request(''));
    expect(!missing.ok && missing.issues[0]?.keyword).toBe('required');
    const wrongType = contract.validateRequest('createItem', {
      ...request('', validItem),
      contentType: 'text/plain',
    });
    expect(!wrongType.ok && wrongType.issues[0]).toMatchObject({
      location: 'header',
      keyword: 'contentType',
    });
    const charset = { ...request('', validItem), contentType: 'application/json; charset=utf-8' };
    expect(contract.validateRequest('createItem', charset).ok).toBe(true);
  });

  it('envelope mode checks the batch size but not the items', () => {
    const items = [{ nonsense: true }];
    expect(contract.validateRequest('createItems', request('', { items }), { body: 'envelope' }).ok).toBe(
      true,
    );
    expect(contract.validateRequest('createItems', request('', { items }), { body: 'full' }).ok).toBe(false);
    const tooMany = { items: [1, 2, 3, 4] };
    const result = contract.validateRequest('createItems', request('', tooMany), { body: 'envelope' });
    expect(!result.ok && result.issues[0]?.message).toBe(
      'body field items must NOT have more than 3 items (got 4)',
    );
    const notArray = contract.validateRequest('createItems', request('', { items: {} }), {
      body: 'envelope',
    });
    expect(!notArray.ok && notArray.issues[0]?.keyword).toBe('type');
  });

  it('validateSchema validates one component (used per batch item)', () => {
    expect(contract.validateSchema('Item', validItem)).toEqual({ ok: true });
    const result = contract.validateSchema('Media', { url: 'https://x.test', type: 'image' });
    expect(!result.ok && result.issues[0]?.field).toBe('position');
    expect(() => contract.validateSchema('Nope', {})).toThrow(/unknown component schema Nope/);
  });
});

describe('responses', () => {
  it('tolerates unknown fields in open response objects', () => {
    expect(contract.validateResponse('getItem', 200, { ...validItem, brandNew: { nested: 1 } })).toEqual({
      ok: true,
    });
  });

  it('an undeclared status is an issue; ranges and default are honoured', () => {
    const result = contract.validateResponse('listItems', 418, { success: false, error: 'x' });
    expect(!result.ok && result.issues[0]?.message).toContain(
      'status 418 is not declared for operation listItems',
    );
    expect(contract.validateResponse('createItem', 409, { success: false, error: 'conflict' }).ok).toBe(true);
    expect(contract.validateResponse('getItem', 404, { success: false, error: 'gone' }).ok).toBe(true);
    expect(contract.validateResponse('getItem', 404, { success: true }).ok).toBe(false);
  });

  it('response issues name the field', () => {
    const result = contract.validateResponse('listItems', 200, { data: [{ ...validItem, id: 7 }] });
    expect(!result.ok && result.issues[0]?.message).toBe(
      'response field data[0].id must be of type string (got 7)',
    );
  });

  it('a non-JSON response (HTML) is not schema-checked; a body-less response accepts anything', () => {
    expect(contract.validateResponse('getDocs', 200, '<html>').ok).toBe(true);
    expect(contract.validateResponse('createItems', 202, undefined).ok).toBe(true);
  });
});

describe('compilation', () => {
  it('every operation compiles in strict mode (extension keys, example, discriminator registered)', () => {
    expect(() => contract.compileAll()).not.toThrow();
  });

  it('validators compile at first use; compileAll checks each schema against the meta-schema', () => {
    // minLength -1 compiles in strict mode; only the meta-schema (a non-negative integer) refuses it.
    const schemas = {
      ...miniDocument.components?.schemas,
      Broken: { type: 'string' as const, minLength: -1 },
    };
    const broken = createContract({ ...miniDocument, components: { ...miniDocument.components, schemas } });
    expect(broken.validateRequest('listItems', request('pageSize=2')).ok).toBe(true);
    expect(() => broken.compileAll({ responses: false })).toThrow(
      /^component schema Broken is not a valid JSON Schema: data\/minLength must be >= 0/,
    );
  });
});
