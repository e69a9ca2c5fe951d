import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH, readJsonBody } from './body.ts';
import { fromFetchRequest } from './fetch-bridge.ts';

/** The engine reads its own plain request; these tests build it from a Fetch `Request`. */
const readFetch = (request: Request, operationId: string, maxBytes: number, requireJson?: boolean) =>
  readJsonBody(fromFetchRequest(request, undefined), operationId, maxBytes, requireJson);

const post = (
  body: BodyInit | null,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) => new Request('http://mock.test/x', { method: 'POST', body, headers });

describe('readJsonBody', () => {
  it('parses JSON and keeps the raw text', async () => {
    const read = await readFetch(post('{"id":"007"}'), 'op', 100);
    expect(read).toEqual({ ok: true, text: '{"id":"007"}', value: { id: '007' }, present: true });
  });

  it('MOCK-MALFORMED-JSON-400: a number beyond a double is refused, a large finite one or its text in a string is not', async () => {
    for (const text of ['{"a":1e400}', '[-1E+309]', `{"a":[{"b":${'9'.repeat(400)}}]}`]) {
      const read = await readFetch(post(text), 'op', 10_000);
      expect(!read.ok && read.error.status, text).toBe(400);
      expect(!read.ok && read.error.body.error, text).toContain('out of the range of a double');
    }
    for (const text of ['{"a":1e308}', '{"a":"1e400"}', `{"a":"${'9'.repeat(400)}"}`, '{"a":1e-400}']) {
      const read = await readFetch(post(text), 'op', 10_000);
      expect(read.ok, text).toBe(true);
    }
  });

  it('MOCK-BODY-LIMIT-413: refuses by Content-Length and while streaming', async () => {
    const byLength = await readFetch(
      post('{"a":"0123456789"}', { 'content-type': 'application/json', 'content-length': '18' }),
      'op',
      10,
    );
    expect(!byLength.ok && byLength.error.status).toBe(413);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 5; i++) controller.enqueue(new Uint8Array(8).fill(32));
        controller.close();
      },
    });
    const streamed = await readFetch(
      new Request('http://mock.test/x', {
        method: 'POST',
        body: stream,
        headers: { 'content-type': 'application/json' },
        duplex: 'half',
      } as RequestInit),
      'op',
      20,
    );
    expect(!streamed.ok && streamed.error.status).toBe(413);
  });

  it('MOCK-UNSUPPORTED-MEDIA-TYPE-415: refuses a non-JSON content type, accepts +json and charset', async () => {
    const text = await readFetch(post('{}', { 'content-type': 'text/plain' }), 'op', 100);
    expect(!text.ok && text.error.status).toBe(415);
    const none = await readFetch(
      new Request('http://mock.test/x', { method: 'POST', body: new Uint8Array([123, 125]) }),
      'op',
      100,
    );
    expect(!none.ok && none.error.status).toBe(415);
    expect(
      (await readFetch(post('{}', { 'content-type': 'application/merge-patch+json' }), 'op', 100)).ok,
    ).toBe(true);
    expect(
      (await readFetch(post('{}', { 'content-type': 'Application/JSON; charset=UTF-8' }), 'op', 100)).ok,
    ).toBe(true);
  });

  it('MOCK-MALFORMED-JSON-400: malformed JSON, invalid UTF-8, blank text and deep nesting are 400', async () => {
    for (const body of [
      '{"a":',
      '   ',
      `${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`,
    ]) {
      const read = await readFetch(post(body), 'op', 10_000);
      expect(!read.ok && read.error.status, body.slice(0, 10)).toBe(400);
    }
    const bytes = await readFetch(post(new Uint8Array([0x22, 0xff, 0x22])), 'op', 100);
    expect(!bytes.ok && bytes.error.body.error).toContain('UTF-8');
    const deepButQuoted = `{"a":"${'['.repeat(100)}"}`;
    expect((await readFetch(post(deepButQuoted), 'op', 10_000)).ok).toBe(true);
    // Objects and arrays alternating: the limit counts both, exactly at the line and one past it.
    const nested = (levels: number): string =>
      levels === 0 ? '1' : levels % 2 === 0 ? `{"k":${nested(levels - 1)}}` : `[${nested(levels - 1)}]`;
    expect((await readFetch(post(nested(MAX_JSON_DEPTH)), 'op', 10_000)).ok).toBe(true);
    const past = await readFetch(post(nested(MAX_JSON_DEPTH + 1)), 'op', 10_000);
    expect(!past.ok && past.error.body.error).toContain('nesting');
    // Many brackets side by side are no depth at all.
    const wide = `[${Array.from({ length: 200 }, () => '{"a":[1]}').join(',')}]`;
    expect((await readFetch(post(wide), 'op', 10_000)).ok).toBe(true);
  });

  it('an empty body is absent, not an error', async () => {
    expect(await readFetch(post(''), 'op', 100)).toMatchObject({ ok: true, present: false });
    expect(await readFetch(new Request('http://mock.test/x'), 'op', 100)).toMatchObject({
      ok: true,
      present: false,
    });
  });
});
