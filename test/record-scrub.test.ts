import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Pseudonyms } from '../src/har/pseudonym.ts';
import { DEFAULT_SCRUB_RULES, Scrubber } from '../src/har/scrub.ts';
import { findLeaks } from '../src/har/verify.ts';
import { at } from './data-support.ts';

const leadingZeros = (s: string): number => /^0*/.exec(s)?.[0].length ?? 0;

describe('pseudonyms', () => {
  it('keep the shape of digit ids (length, leading zeros, digits only) and are consistent', () => {
    const pseudonyms = new Pseudonyms();
    fc.assert(
      // At least 4 significant digits: 9000+ values of each shape, so one recording never runs out
      // (tiny shapes can run out; see the next test).
      fc.property(fc.stringMatching(/^0{0,4}[1-9]\d{3,25}$/), (id) => {
        const p = pseudonyms.of(id);
        expect(p).toMatch(/^\d+$/);
        expect(p).toHaveLength(id.length);
        expect(leadingZeros(p)).toBe(leadingZeros(id));
        expect(pseudonyms.of(id)).toBe(p);
      }),
    );
  });

  it('give up the shape (a ~n suffix) rather than share one when a shape runs out', () => {
    const pseudonyms = new Pseudonyms();
    const originals = ['1', '2', '3', '4', '5', '6', '7', '8', '9'];
    const out = originals.map((id) => pseudonyms.of(id));
    // Distinct, none its own original, and the ones that found no free digit carry the suffix.
    expect(new Set(out).size).toBe(originals.length);
    out.forEach((p, i) => {
      expect(p).not.toBe(originals[i]);
      expect(p).toMatch(/^\d(~\d+)?$/);
    });
    expect(out.some((p) => p.includes('~'))).toBe(true);
  });

  it('never give two inputs the same pseudonym', () => {
    const pseudonyms = new Pseudonyms();
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 3, maxLength: 12 }), { minLength: 2, maxLength: 30 }),
        (values) => {
          const out = values.map((v) => pseudonyms.of(v));
          expect(new Set(out).size).toBe(out.length);
        },
      ),
    );
  });

  it('keep letters as letters and punctuation as it is; emails go to example.invalid', () => {
    const pseudonyms = new Pseudonyms();
    expect(pseudonyms.of('sofía.lópez12')).toMatch(/^[a-z]{5}\.[a-z]{5}\d\d$/);
    expect(pseudonyms.of('Ada Lovelace')).toMatch(/^[A-Z][a-z]{2} [A-Z][a-z]{7}$/);
    expect(pseudonyms.of('kim@corp.example', 'email')).toMatch(/^[a-z]{3}@example\.invalid$/);
  });
});

const detail = () => ({
  actionId: '9007199254740993123',
  actionTitle: 'Refund for Ñandú',
  user: {
    name: 'Ñandú Pérez',
    username: 'nandu_99',
    userId: '000000020',
    email: 'nandu@mail.test',
    followerCount: 3,
  },
  assignee: { name: 'Ada', email: 'ada@corp.test', userId: '000417', role: 'agent' },
  sourceURL: 'https://x.example/nandu_99/status/9007199254740993123',
  messages: [
    {
      id: 'm1',
      author: 'Ñandú Pérez',
      authorId: '000000020',
      authorType: 'USER',
      message: 'Hi, I am Ñandú Pérez',
    },
    { id: 'm2', author: 'Ada', authorId: '000417', authorType: 'AGENT', message: 'Hello' },
  ],
  conversationJson: JSON.stringify([
    { id: 'm1', author: 'Ñandú Pérez', authorId: '000000020', authorType: 'USER' },
  ]),
});

describe('the scrubber', () => {
  it('replaces customers consistently, keeps agents and action ids byte for byte, redacts free text', () => {
    const scrubber = new Scrubber();
    const out = JSON.parse(scrubber.body(JSON.stringify(detail()), 'application/json'));
    const name = at(out, 'user', 'name');
    expect(name).not.toBe('Ñandú Pérez');
    expect(at(out, 'messages', 0, 'author')).toBe(name);
    expect(at(out, 'user', 'userId')).toMatch(/^0000000[1-9]\d$/);
    expect(at(out, 'messages', 0, 'authorId')).toBe(at(out, 'user', 'userId'));
    expect(at(out, 'user', 'email')).toMatch(/@example\.invalid$/);
    expect(at(out, 'actionId')).toBe('9007199254740993123');
    expect(at(out, 'assignee')).toEqual(detail().assignee);
    expect(at(out, 'messages', 1, 'author')).toBe('Ada');
    expect(at(out, 'actionTitle')).toMatch(/^\[text [0-9a-f]{8}\]$/);
    expect(String(at(out, 'sourceURL'))).toContain(String(at(out, 'user', 'username')));
    expect(String(at(out, 'conversationJson'))).toContain(String(name));
    expect(findLeaks(JSON.stringify(out), scrubber.secrets())).toBe(0);
  });

  it('keeps free text with keepText, replacing the names it contains', () => {
    const scrubber = new Scrubber({ ...DEFAULT_SCRUB_RULES, keepText: true });
    const out = JSON.parse(scrubber.body(JSON.stringify(detail()), 'application/json'));
    expect(at(out, 'messages', 1, 'message')).toBe('Hello');
    expect(at(out, 'messages', 0, 'message')).toBe(`Hi, I am ${String(at(out, 'user', 'name'))}`);
  });

  it('scrubs the values at JSON paths a user adds', () => {
    const scrubber = new Scrubber({
      ...DEFAULT_SCRUB_RULES,
      values: [...DEFAULT_SCRUB_RULES.values, '$..serverName'],
    });
    const out = JSON.parse(
      scrubber.body(JSON.stringify({ data: [{ serverName: 'Secret Guild' }] }), 'application/json'),
    );
    expect(at(out, 'data', 0, 'serverName')).not.toBe('Secret Guild');
  });

  it('a final pass replaces values that were named before an answer revealed them', () => {
    const scrubber = new Scrubber();
    const early = {
      request: {
        url: 'https://x.test/v0/conversations/search?filter=userId%3D000000020+x',
        note: 'userId=000000020',
      },
    };
    scrubber.body(JSON.stringify(detail()), 'application/json');
    const out = scrubber.everywhere(early);
    expect(out.request.note).toBe(`userId=${scrubber.pseudonyms.of('000000020')}`);
    expect(findLeaks(JSON.stringify(out), scrubber.secrets(), scrubber.keys())).toBe(0);
  });

  it('pseudonymises keys in X-API-Key and Authorization and drops cookies', () => {
    const scrubber = new Scrubber();
    const headers = scrubber.headers([
      ['X-API-Key', 'cca_live_acme_reporting_abcdefghijklmnopqrstuvwx'],
      ['authorization', 'Bearer tok_123456789'],
      ['cookie', 'session=s3cr3tvalue'],
    ]);
    expect(headers[0]?.[1]).toMatch(/^cca_scrubbed_[0-9a-f]{24}$/);
    expect(
      scrubber.headers([['x-api-key', 'cca_live_acme_reporting_abcdefghijklmnopqrstuvwx']])[0]?.[1],
    ).toBe(headers[0]?.[1]);
    expect(headers[1]?.[1]).toMatch(/^Bearer cca_scrubbed_/);
    expect(headers[2]?.[1]).toBe('[scrubbed]');
    expect(findLeaks(JSON.stringify(headers), scrubber.secrets(), scrubber.keys())).toBe(0);
    expect(scrubber.embedded('xcca_live_acme_reporting_abcdefghijklmnopqrstuvwx!')).toBe(
      `x${headers[0]?.[1]}!`,
    );
  });

  it('the leak check finds a secret left in a file, raw or JSON-escaped, but not inside a longer id', () => {
    expect(findLeaks('{"a":"cca_live_x_1234"}', ['cca_live_x_1234'])).toBe(1);
    expect(findLeaks(JSON.stringify({ a: 'say "hi" now' }), ['say "hi" now'])).toBe(1);
    expect(findLeaks('{"id":"123456"}', ['12345'])).toBe(0);
    expect(findLeaks('{"t":"glued_cca_key_1234x"}', [], ['cca_key_1234'])).toBe(1);
  });
});
