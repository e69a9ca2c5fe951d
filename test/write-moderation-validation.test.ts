/**
 * Every constraint of spec 2.7, on the single route (400 INCOMPLETE / 422 INVALID with the field list)
 * and as a batch item (rejected with the same code and list, the other items unaffected).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { sampleSubmission } from '../mocks/engine/moderation/sample.ts';
import { createHarness, obj } from './write-support.ts';

type Edit = (s: Record<string, unknown>) => Record<string, unknown>;
interface Case {
  readonly rule: string;
  readonly what: string;
  readonly edit: Edit;
  readonly missing?: readonly string[];
  readonly invalid?: readonly string[];
}

const set =
  (key: string, value: unknown): Edit =>
  (s) => ({ ...s, [key]: value });
const drop =
  (key: string): Edit =>
  (s) => {
    const { [key]: _dropped, ...rest } = s;
    return rest;
  };
const nested =
  (
    key: string,
    inner: Record<string, unknown> | ((o: Record<string, unknown>) => Record<string, unknown>),
  ): Edit =>
  (s) => ({ ...s, [key]: typeof inner === 'function' ? inner(s[key] as Record<string, unknown>) : inner });
const chars = (n: number) => 'x'.repeat(n);
const media = (over: Record<string, unknown>) => [
  { url: 'https://cdn.example/a.jpg', type: 'image', position: 1, ...over },
];
const withoutKey = (o: Record<string, unknown>, key: string) =>
  Object.fromEntries(Object.entries(o).filter(([k]) => k !== key));

const lengths: Array<[string, string, number, number, boolean]> = [
  ['MOD-EXTERNALID-LENGTH', 'externalId', 1, 256, true],
  ['MOD-SOURCESYSTEM-LENGTH', 'sourceSystem', 1, 128, true],
  ['MOD-SOURCEPLATFORM-LENGTH', 'sourcePlatform', 1, 128, true],
  ['MOD-SOURCEADID-LENGTH', 'sourceAdId', 1, 256, true],
  ['MOD-ADVERTISERID-LENGTH', 'advertiserId', 1, 256, false],
  ['MOD-ADVERTISERNAME-LENGTH', 'advertiserName', 1, 500, true],
  ['MOD-CAMPAIGNID-LENGTH', 'campaignId', 1, 256, false],
  ['MOD-MARKET-LENGTH', 'market', 1, 128, true],
  ['MOD-PLACEMENT-LENGTH', 'placement', 1, 128, true],
  ['MOD-LANGUAGE-LENGTH', 'language', 1, 64, false],
  ['MOD-TITLE-LENGTH', 'title', 1, 500, true],
  ['MOD-HEADLINE-LENGTH', 'headline', 1, 500, false],
  ['MOD-BRANDNAME-LENGTH', 'brandName', 1, 500, false],
];

const cases: Case[] = [
  ...lengths.flatMap(([rule, field, , max, required]): Case[] => [
    { rule, what: `${field} empty`, edit: set(field, ''), invalid: [field] },
    { rule, what: `${field} of ${max + 1} characters`, edit: set(field, chars(max + 1)), invalid: [field] },
    { rule, what: `${field} not a string`, edit: set(field, 42), invalid: [field] },
    ...(required
      ? [{ rule: 'MOD-REQUIRED-FIELDS', what: `${field} missing`, edit: drop(field), missing: [field] }]
      : []),
  ]),
  ...['sourceSystem', 'landingPageUrl', 'media', 'attachment', 'targeting', 'copy'].map(
    (field): Case => ({
      rule: 'MOD-REQUIRED-FIELDS',
      what: `${field} missing`,
      edit: drop(field),
      missing: [field],
    }),
  ),
  {
    rule: 'MOD-REQUIRED-FIELDS',
    what: 'landingPageUrl a number',
    edit: set('landingPageUrl', 5),
    invalid: ['landingPageUrl'],
  },
  {
    rule: 'MOD-CALLTOACTION-ENUM',
    what: 'callToAction BUY',
    edit: set('callToAction', 'BUY'),
    invalid: ['callToAction'],
  },
  {
    rule: 'MOD-PUBLICPROFILE-SHAPE',
    what: 'displayName empty',
    edit: set('publicProfile', { displayName: '' }),
    invalid: ['publicProfile.displayName'],
  },
  {
    rule: 'MOD-PUBLICPROFILE-SHAPE',
    what: 'displayName 501',
    edit: set('publicProfile', { displayName: chars(501) }),
    invalid: ['publicProfile.displayName'],
  },
  {
    rule: 'MOD-PUBLICPROFILE-SHAPE',
    what: 'logoUrl not a URI',
    edit: set('publicProfile', { logoUrl: 'not a uri' }),
    invalid: ['publicProfile.logoUrl'],
  },
  {
    rule: 'MOD-PUBLICPROFILE-SHAPE',
    what: 'verified a string',
    edit: set('publicProfile', { verified: 'yes' }),
    invalid: ['publicProfile.verified'],
  },
  ...['body', 'caption', 'linkDescription', 'sourceTitle'].map(
    (field): Case => ({
      rule: 'MOD-COPY-LENGTH',
      what: `copy.${field} of 20001`,
      edit: set('copy', { [field]: chars(20001) }),
      invalid: [`copy.${field}`],
    }),
  ),
  { rule: 'MOD-MEDIA-COUNT', what: 'media empty', edit: set('media', []), invalid: ['media'] },
  {
    rule: 'MOD-MEDIA-COUNT',
    what: 'media of 21',
    edit: set(
      'media',
      Array.from({ length: 21 }, (_, i) => ({
        url: `https://cdn.example/${i}.jpg`,
        type: 'image',
        position: (i % 20) + 1,
      })),
    ),
    invalid: ['media'],
  },
  {
    rule: 'MOD-MEDIA-ITEM',
    what: 'url ftp',
    edit: set('media', media({ url: 'ftp://cdn.example/a.jpg' })),
    invalid: ['media[0].url'],
  },
  {
    rule: 'MOD-MEDIA-ITEM',
    what: 'url relative',
    edit: set('media', media({ url: '/a.jpg' })),
    invalid: ['media[0].url'],
  },
  {
    rule: 'MOD-MEDIA-ITEM',
    what: 'type gif',
    edit: set('media', media({ type: 'gif' })),
    invalid: ['media[0].type'],
  },
  {
    rule: 'MOD-MEDIA-ITEM',
    what: 'position 0',
    edit: set('media', media({ position: 0 })),
    invalid: ['media[0].position'],
  },
  {
    rule: 'MOD-MEDIA-ITEM',
    what: 'position 21',
    edit: set('media', media({ position: 21 })),
    invalid: ['media[0].position'],
  },
  {
    rule: 'MOD-MEDIA-ITEM',
    what: 'position 1.5',
    edit: set('media', media({ position: 1.5 })),
    invalid: ['media[0].position'],
  },
  ...['url', 'type', 'position'].map(
    (field): Case => ({
      rule: 'MOD-MEDIA-ITEM',
      what: `media[0].${field} missing`,
      edit: set('media', [withoutKey(media({})[0] ?? {}, field)]),
      missing: [`media[0].${field}`],
    }),
  ),
  {
    rule: 'MOD-ATTACHMENT-SHAPE',
    what: 'attachment type web',
    edit: nested('attachment', { type: 'web', destinationUrl: null }),
    invalid: ['attachment.type'],
  },
  {
    rule: 'MOD-ATTACHMENT-SHAPE',
    what: 'destinationUrl missing',
    edit: nested('attachment', { type: 'lens' }),
    missing: ['attachment.destinationUrl'],
  },
  {
    rule: 'MOD-ATTACHMENT-SHAPE',
    what: 'attachment type missing',
    edit: nested('attachment', { destinationUrl: null }),
    missing: ['attachment.type'],
  },
  {
    rule: 'MOD-TARGETING-AGE',
    what: 'ageMin missing',
    edit: nested('targeting', { geos: ['US'] }),
    missing: ['targeting.ageMin'],
  },
  {
    rule: 'MOD-TARGETING-AGE',
    what: 'ageMin 1.5',
    edit: nested('targeting', { ageMin: 1.5, geos: ['US'] }),
    invalid: ['targeting.ageMin'],
  },
  {
    rule: 'MOD-TARGETING-AGE',
    what: 'ageMax a string',
    edit: nested('targeting', { ageMin: null, ageMax: '65', geos: ['US'] }),
    invalid: ['targeting.ageMax'],
  },
  {
    rule: 'MOD-TARGETING-GEOS-RANGE',
    what: 'geos missing',
    edit: nested('targeting', { ageMin: 18 }),
    missing: ['targeting.geos'],
  },
  {
    rule: 'MOD-TARGETING-GEOS-RANGE',
    what: 'geos empty',
    edit: nested('targeting', { ageMin: 18, geos: [] }),
    invalid: ['targeting.geos'],
  },
  {
    rule: 'MOD-TARGETING-GEOS-RANGE',
    what: 'geos of 251',
    edit: nested('targeting', { ageMin: 18, geos: Array.from({ length: 251 }, (_, i) => `G${i}`) }),
    invalid: ['targeting.geos'],
  },
  {
    rule: 'MOD-TARGETING-LANGUAGES-RANGE',
    what: 'languages empty',
    edit: nested('targeting', { ageMin: 18, geos: ['US'], languages: [] }),
    invalid: ['targeting.languages'],
  },
  {
    rule: 'MOD-TARGETING-LANGUAGES-RANGE',
    what: 'languages of 101',
    edit: nested('targeting', {
      ageMin: 18,
      geos: ['US'],
      languages: Array.from({ length: 101 }, (_, i) => `l${i}`),
    }),
    invalid: ['targeting.languages'],
  },
  {
    rule: 'MOD-OPTIONAL-TYPES',
    what: 'discoverTile a string',
    edit: set('discoverTile', 'yes'),
    invalid: ['discoverTile'],
  },
  {
    rule: 'MOD-OPTIONAL-TYPES',
    what: 'partnershipAd a number',
    edit: set('partnershipAd', 1),
    invalid: ['partnershipAd'],
  },
  { rule: 'MOD-OPTIONAL-TYPES', what: 'format a number', edit: set('format', 5), invalid: ['format'] },
  { rule: 'MOD-OPTIONAL-TYPES', what: 'arLens a boolean', edit: set('arLens', true), invalid: ['arLens'] },
  {
    rule: 'MOD-OPTIONAL-TYPES',
    what: 'providerMetadata a string',
    edit: set('providerMetadata', 'x'),
    invalid: ['providerMetadata'],
  },
  {
    rule: 'MOD-OPTIONAL-TYPES',
    what: 'submittedAt not a date-time',
    edit: set('submittedAt', 'yesterday'),
    invalid: ['submittedAt'],
  },
  {
    rule: 'MOCK-MODERATION-INCOMPLETE-400',
    what: 'missing and invalid together',
    edit: (s) => ({ ...drop('title')(s), media: media({ url: 'ftp://x.example/a' }) }),
    missing: ['title'],
    invalid: ['media[0].url'],
  },
];

const h = createHarness();
afterAll(() => {
  expect(h.engine.selfCheckFailures).toEqual([]);
  expect(h.engine.unexpectedErrors).toEqual([]);
});

describe('every constraint of 2.7 is enforced with the right code and field list', () => {
  it.each(cases.map((c, i) => [`${c.rule}: ${c.what}`, c, i] as const))('%s', async (_title, c, i) => {
    const submission = c.edit(sampleSubmission({ externalId: `v-${i}` }));
    const incomplete = (c.missing ?? []).length > 0;
    const code = incomplete ? 'MODERATION_INPUT_INCOMPLETE' : 'MODERATION_INPUT_INVALID';

    const single = await h.request('POST', '/v0/moderation/cases', h.keys.write, submission);
    expect(single.status).toBe(incomplete ? 400 : 422);
    const body = obj(single.body);
    expect(body).toMatchObject({ success: false, code });
    expect(body['missingFields'] ?? []).toEqual(c.missing ?? []);
    expect(body['invalidFields'] ?? []).toEqual(c.invalid ?? []);

    const valid = sampleSubmission({ externalId: `ok-${i}` });
    const batch = await h.request('POST', '/v0/moderation/cases/batch', h.keys.write, {
      cases: [submission, valid],
    });
    expect(batch.status).toBe(202);
    const [rejected, accepted] = obj(batch.body)['results'] as Record<string, unknown>[];
    expect(rejected).toMatchObject({ status: 'rejected', code, caseId: null });
    expect(rejected?.['missingFields'] ?? []).toEqual(c.missing ?? []);
    expect(rejected?.['invalidFields'] ?? []).toEqual(c.invalid ?? []);
    expect(rejected?.['errors']).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(accepted).toMatchObject({ status: 'accepted', externalId: `ok-${i}` });
  });

  it('accepts every bound exactly (1 and max characters, 20 media, 250 geos, 100 languages, 20000 copy)', async () => {
    const bounds = sampleSubmission({
      externalId: chars(256),
      sourceSystem: chars(128),
      title: 'x',
      headline: chars(500),
      language: chars(64),
      media: Array.from({ length: 20 }, (_, i) => ({
        url: `HTTP://cdn.example/${i}.jpg`,
        type: 'video',
        position: i + 1,
      })),
      targeting: {
        ageMin: null,
        ageMax: null,
        geos: Array.from({ length: 250 }, (_, i) => `G${i}`),
        languages: Array.from({ length: 100 }, () => 'en'),
      },
      copy: { body: chars(20000), caption: '', linkDescription: chars(20000), sourceTitle: chars(20000) },
      callToAction: 'SHOP_NOW',
      publicProfile: { displayName: 'A', logoUrl: 'https://cdn.example/logo.png', verified: true },
      discoverTile: false,
      partnershipAd: true,
      format: null,
      arLens: null,
      providerMetadata: { anything: [1, { deep: null }] },
      submittedAt: '2026-11-20T12:00:00Z',
    });
    const answer = await h.request('POST', '/v0/moderation/cases', h.keys.write, bounds);
    expect(answer.status).toBe(202);
  });
});
