/**
 * The formats the browser build carries (src/contract/schema-closures/formats.ts) against ajv-formats'
 * full formats, which node registers: the same answer on every string, random or nearly valid. And the
 * contract uses no other format, so a format added to it fails here before a page fails to compile.
 */
import { fullFormats } from 'ajv-formats/dist/formats.js';
import fc from 'fast-check';
import type { OpenAPIV3_1 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import dataSchema from '../contract/data.schema.json' with { type: 'json' };
import openapi from '../contract/openapi.json' with { type: 'json' };
import { AGENT_FILES } from '../src/contract/agent.ts';
import { closureFormats } from '../src/contract/schema-closures/formats.ts';
import { addFormats, ClosureAjv, closureAjvModules } from '../src/contract/schema-closures/index.ts';
import { compileIn, createAjv } from '../src/contract/validator-schemas.ts';

type Check = (s: string) => boolean;
type Compare = (a: string, b: string) => number | undefined;

/** A format's check and order, whether given as a function or as `{ validate, compare }`. */
function partsOf(format: unknown): { validate: Check; compare?: Compare } {
  if (typeof format === 'function') return { validate: format as Check };
  const def = format as { validate: Check; compare?: Compare };
  return def.compare === undefined
    ? { validate: def.validate }
    : { validate: def.validate, compare: def.compare };
}

const ours = { dateTime: partsOf(closureFormats['date-time']), uri: partsOf(closureFormats['uri']) };
const theirs = { dateTime: partsOf(fullFormats['date-time']), uri: partsOf(fullFormats.uri) };

const pad = (n: number, width: number) => String(n).padStart(width, '0');
/** A number field, usually at its width, sometimes not (`7`, `123`). */
const field = (max: number, width: number) =>
  fc.oneof(
    { weight: 9, arbitrary: fc.integer({ min: 0, max }).map((n) => pad(n, width)) },
    { weight: 1, arbitrary: fc.integer({ min: 0, max: 999 }).map(String) },
  );

const year = fc
  .oneof(fc.constantFrom(2024, 2023, 2000, 1900, 2100, 1600, 0, 9999), fc.integer({ min: 0, max: 9999 }))
  .map((y) => pad(y, 4));
// Months 00 to 13 and days 00 to 32: invalid ones, the 29th of February on leap and other years.
const date = fc.tuple(
  year,
  field(13, 2),
  fc.oneof(fc.constantFrom('28', '29', '30', '31', '32', '00'), field(32, 2)),
);
const separator = fc.constantFrom('T', 't', ' ', '\t', '\n', 'x', '', 'TT', 'T ');
const fraction = fc.oneof(
  fc.constant(''),
  fc.integer({ min: 0, max: 999_999_999 }).map((n) => `.${n}`),
  fc.constantFrom('.', ',5', '.5.5'),
);
const offset = fc
  .tuple(fc.constantFrom('+', '-'), field(25, 2), field(61, 2), fc.constantFrom(':', '', '::'))
  .map(([sign, h, m, colon]) => `${sign}${h}${colon}${m}`);
const zone = fc.oneof(
  fc.constantFrom(
    'Z',
    'z',
    '',
    '+00:00',
    '-00:00',
    'Zz',
    '+24:00',
    '-23:59',
    '+0100',
    '+01',
    '+1:00',
    '+01:00:00',
  ),
  offset,
);
const second = fc.oneof(field(61, 2), fc.constantFrom('59', '60', '61'));
const time = fc
  .tuple(field(25, 2), field(61, 2), second, fraction, zone)
  .map(([h, m, s, f, z]) => `${h}:${m}:${s}${f}${z}`);

/**
 * A second 60 at, or a minute beside, 23:59 UTC written in a random zone: ajv-formats accepts a leap
 * second only at 23:59:60 UTC, wherever the local clock shows it.
 */
const leapTime = fc
  .tuple(
    fc.constantFrom(1, -1),
    fc.integer({ min: 0, max: 23 }),
    fc.integer({ min: 0, max: 59 }),
    fc.constantFrom(-1, 0, 0, 1),
    fc.constantFrom('60', '60.5', '60.999', '61', '59'),
    fc.boolean(),
  )
  .map(([sign, h, m, drift, s, colon]) => {
    const local = (((23 * 60 + 59 + drift + sign * (h * 60 + m)) % 1440) + 1440) % 1440;
    const zoneText =
      h === 0 && m === 0 && sign === 1
        ? 'Z'
        : `${sign < 0 ? '-' : '+'}${pad(h, 2)}${colon ? ':' : ''}${pad(m, 2)}`;
    return `${pad(Math.floor(local / 60), 2)}:${pad(local % 60, 2)}:${s}${zoneText}`;
  });

const dateTime = fc
  .tuple(date, separator, fc.oneof(time, leapTime))
  .map(([[y, mo, d], sep, t]) => `${y}-${mo}-${d}${sep}${t}`);

/** Characters a URI is made of, and ones it may not hold (space, quotes, backslash, unicode, bad escapes). */
const uriChar = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom(...'abcxyzABCZ0129-._~') },
  { weight: 3, arbitrary: fc.constantFrom(..."!$&'()*+,;=:@/?") },
  { weight: 2, arbitrary: fc.constantFrom('%20', '%7e', '%C3%A9', '%zz', '%', '%2') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(' ', '\t', 'é', '🙂', '"', '<', '\\', '#', '[', ']', '{', '|', '^', '`'),
  },
);
const piece = fc.string({ unit: uriChar, maxLength: 8 });
const uri = fc
  .tuple(
    fc.oneof(
      fc.constantFrom('http', 'https', 'urn', 'mailto', 'ftp', 'HTTP', 'a+b-c.d', '1http', '-x', ''),
      fc.stringMatching(/^[a-zA-Z][a-zA-Z0-9+.-]{0,5}$/),
    ),
    fc.constantFrom(':', ':', '', '::'),
    fc.constantFrom('//', '//', '/', '', '///'),
    fc.oneof(
      fc.constant(''),
      piece.map((u) => `${u}@`),
    ),
    fc.constantFrom(
      'example.com',
      'a.b',
      '127.0.0.1',
      '256.1.1.1',
      '[::1]',
      '[2001:db8::7]',
      '[v1.x]',
      '[::1',
      '[1:2:3:4:5:6:7:8:9]',
      'xn--bcher-kva.example',
      'bücher.example',
      'exa mple.com',
      '',
    ),
    fc.constantFrom('', ':80', ':', ':8a'),
    fc.array(piece, { maxLength: 3 }).map((segments) => segments.map((s) => `/${s}`).join('')),
    fc.oneof(
      fc.constant(''),
      piece.map((q) => `?${q}`),
    ),
    fc.oneof(
      fc.constant(''),
      fc.constant('#'),
      fc.constant('##'),
      piece.map((f) => `#${f}`),
    ),
  )
  .map((parts) => parts.join(''));

/** Arbitrary strings: any unicode, and strings of the characters the two formats are made of. */
const anyString = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.constantFrom(...'0123456789-:.+TtZz /#%?@[]é'), maxLength: 30 }),
);

/** Asserts ours and ajv-formats' answer alike on every generated string; counts the answers. */
function agree(name: 'dateTime' | 'uri', strings: fc.Arbitrary<string>, numRuns: number, seed: number) {
  const seen = { valid: 0, invalid: 0, leapSeconds: 0 };
  fc.assert(
    fc.property(strings, (s) => {
      const expected = theirs[name].validate(s);
      seen[expected ? 'valid' : 'invalid']++;
      if (expected && /:60/.test(s)) seen.leapSeconds++;
      expect({ s, valid: ours[name].validate(s) }).toStrictEqual({ s, valid: expected });
    }),
    { numRuns, seed },
  );
  return seen;
}

describe('the browser build’s formats give ajv-formats’ full answers', () => {
  it('date-time: on arbitrary strings', () => {
    agree('dateTime', anyString, 3000, 1);
  });

  it('date-time: on near-valid date-times (leap seconds, offsets, lowercase t and z, fractions, bad days)', () => {
    const seen = agree('dateTime', dateTime, 20_000, 2);
    // The generator reaches both answers, not only the easy one, and valid leap seconds in many zones.
    expect(seen.valid).toBeGreaterThan(1000);
    expect(seen.invalid).toBeGreaterThan(1000);
    expect(seen.leapSeconds).toBeGreaterThan(200);
  });

  it('date-time: leap seconds and the 29th of February, case by case', () => {
    const cases = [
      '2016-12-31T23:59:60Z',
      '2016-12-31T23:59:60.5z',
      '2016-12-31t15:59:60-08:00',
      '2017-01-01T00:59:60+01:00',
      '2017-01-01T00:59:60+0100',
      '2016-12-31T23:58:60Z',
      '2016-12-31T22:59:60Z',
      '2016-12-31T23:59:61Z',
      '2016-12-31T23:59:60',
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '2024-04-31T00:00:00Z',
      '2024-01-01 00:00:00+24:00',
    ];
    const answers = cases.map((s) => [s, ours.dateTime.validate(s)]);
    expect(answers).toStrictEqual(cases.map((s) => [s, theirs.dateTime.validate(s)]));
    expect(answers.filter(([, valid]) => valid).length).toBe(7);
  });

  it('date-time: orders two date-times as ajv-formats does', () => {
    if (ours.dateTime.compare === undefined || theirs.dateTime.compare === undefined)
      throw new Error('date-time has no compare');
    const [a, b] = [ours.dateTime.compare, theirs.dateTime.compare];
    fc.assert(
      fc.property(fc.oneof(dateTime, anyString), fc.oneof(dateTime, anyString), (x, y) => {
        expect({ x, y, order: a(x, y) }).toStrictEqual({ x, y, order: b(x, y) });
      }),
      { numRuns: 2000, seed: 3 },
    );
  });

  it('uri: on arbitrary strings', () => {
    agree('uri', anyString, 3000, 4);
  });

  it('uri: on near-valid URIs (with and without scheme, fragments, spaces, unicode, escapes, IP hosts)', () => {
    const seen = agree('uri', uri, 20_000, 5);
    expect(seen.valid).toBeGreaterThan(1000);
    expect(seen.invalid).toBeGreaterThan(1000);
  });
});

/** Every string `format` of the schemas in `value`, by path (example, default, const and enum are data). */
function formatsIn(value: unknown, path: string, found: Map<string, string[]>): Map<string, string[]> {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) formatsIn(item, `${path}/${i}`, found);
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === 'format' && typeof child === 'string')
        found.set(child, [...(found.get(child) ?? []), path]);
      if (!['example', 'examples', 'default', 'const', 'enum'].includes(key))
        formatsIn(child, `${path}/${key}`, found);
    }
  }
  return found;
}

describe('the formats the browser build carries', () => {
  it('are every format the schemas it compiles use (contract/openapi.json, data.schema.json, the agent contract)', () => {
    const found = new Map<string, string[]>();
    formatsIn(openapi, 'contract/openapi.json#', found);
    formatsIn(dataSchema, 'contract/data.schema.json#', found);
    for (const [file, json] of Object.entries(AGENT_FILES)) formatsIn(json, `contract/agent/${file}#`, found);
    // The walk finds the formats the contract is known to use, so it is not looking at nothing.
    expect([...found.keys()]).toEqual(expect.arrayContaining(['date-time', 'uri']));
    const missing = [...found].filter(([name]) => !Object.hasOwn(closureFormats, name));
    expect(
      missing,
      'a schema uses a format src/contract/schema-closures/formats.ts does not carry: port it from ajv-formats',
    ).toEqual([]);
  });

  it('refuse any other format at compile time, naming it and the schema path, never accepting silently', () => {
    const ajv = addFormats(new ClosureAjv({ strict: true, allErrors: true }));
    const schema = { type: 'object', properties: { contact: { type: 'string', format: 'email' } } };
    expect(() => ajv.compile(schema)).toThrow(
      'unknown format "email" ignored in schema at path "#/properties/contact" (registered formats: date-time, uri)',
    );
    // The same through the contract's own set-up (createAjv), as a page compiles a component.
    const doc = {
      ...(openapi as unknown as OpenAPIV3_1.Document),
      components: { schemas: { Contact: schema } },
    } as OpenAPIV3_1.Document;
    const closures = createAjv(doc, undefined, closureAjvModules);
    expect(() => compileIn(closures, { $ref: '#/components/schemas/Contact' })).toThrow(
      /unknown format "email"/,
    );
  });
});
