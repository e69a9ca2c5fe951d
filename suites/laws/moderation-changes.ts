/**
 * One change per piece of a moderation submission's content (spec 2.7), each keeping the submission
 * valid. Spec 3.5 and 7: "differing content under an existing externalId is a conflict" — any field,
 * nested ones included, not only the title a duplicate check is likeliest to compare. `providerMetadata`
 * and `submittedAt` are left out: whether they count as content the spec does not say.
 */
type Submission = Record<string, unknown>;

export interface ContentChange {
  /** The field changed, as a path (`copy.body`, `media[0].url`). */
  readonly field: string;
  readonly change: (s: Submission) => Submission;
}

const record = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};

/** A string of at most `max` characters that differs from `value`. */
const other = (value: unknown, max: number): string => {
  const text = typeof value === 'string' ? value : '';
  const next = `${text.slice(0, max - 2)} 2`;
  return next === text ? `${text.slice(0, max - 1)}3` : next;
};

const top = (field: string, max: number): ContentChange => ({
  field,
  change: (s) => ({ ...s, [field]: other(s[field], max) }),
});

const nested = (parent: string, field: string, next: (value: unknown) => unknown): ContentChange => ({
  field: `${parent}.${field}`,
  change: (s) => ({ ...s, [parent]: { ...record(s[parent]), [field]: next(record(s[parent])[field]) } }),
});

const firstMedia = (field: string, next: (value: unknown) => unknown): ContentChange => ({
  field: `media[0].${field}`,
  change: (s) => {
    const media = Array.isArray(s['media']) ? [...(s['media'] as unknown[])] : [];
    media[0] = { ...record(media[0]), [field]: next(record(media[0])[field]) };
    return { ...s, media };
  },
});

const CALLS_TO_ACTION = ['APPLY_NOW', 'BOOK_NOW', 'SHOP_NOW'] as const;

export const CONTENT_CHANGES: readonly ContentChange[] = [
  top('title', 500),
  top('headline', 500),
  top('brandName', 500),
  top('advertiserName', 500),
  top('advertiserId', 256),
  top('campaignId', 256),
  top('sourceSystem', 128),
  top('sourcePlatform', 128),
  top('sourceAdId', 256),
  top('market', 128),
  top('placement', 128),
  {
    field: 'language',
    // An absent language is `en` (its default), so the change is to a language that is not.
    change: (s) => ({ ...s, language: s['language'] === 'de' ? 'fr' : 'de' }),
  },
  {
    field: 'landingPageUrl',
    change: (s) => ({
      ...s,
      landingPageUrl:
        s['landingPageUrl'] === 'https://example.com/other' ? null : 'https://example.com/other',
    }),
  },
  {
    field: 'callToAction',
    change: (s) => ({
      ...s,
      callToAction: CALLS_TO_ACTION.find((c) => c !== s['callToAction']) ?? 'VIEW',
    }),
  },
  nested('copy', 'body', (v) => other(v, 20_000)),
  nested('copy', 'caption', (v) => other(v, 20_000)),
  nested('attachment', 'destinationUrl', (v) =>
    v === 'https://example.com/elsewhere' ? null : 'https://example.com/elsewhere',
  ),
  nested('targeting', 'geos', (v) => [...(Array.isArray(v) ? v.slice(0, 249) : []), 'ZZ']),
  nested('targeting', 'ageMin', (v) => (v === 21 ? 18 : 21)),
  nested('publicProfile', 'displayName', (v) => other(v, 500)),
  firstMedia('url', (v) =>
    v === 'https://example.com/other.png'
      ? 'https://example.com/another.png'
      : 'https://example.com/other.png',
  ),
  firstMedia('type', (v) => (v === 'video' ? 'image' : 'video')),
  { field: 'discoverTile', change: (s) => ({ ...s, discoverTile: s['discoverTile'] !== true }) },
  { field: 'partnershipAd', change: (s) => ({ ...s, partnershipAd: s['partnershipAd'] !== true }) },
];
