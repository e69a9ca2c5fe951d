import fc from 'fast-check';
import { enumOf, PLATFORMS, requiredKeysOf } from '../contract/load.ts';

/**
 * Hand-written arbitraries where meaning matters more than the schema: realistic moderation
 * submissions and ingestion batches, identifiers that break naive clients, and date windows.
 */

const TWO_53 = 2n ** 53n;

/** Decimal ids above 2^53: they parse silently wrong as JSON numbers. */
export const bigIdString: fc.Arbitrary<string> = fc
  .bigInt({ min: TWO_53 + 1n, max: 2n ** 64n - 1n })
  .map((n) => n.toString());

/** Ids with leading zeros: `Number()` would drop them. */
export const leadingZeroId: fc.Arbitrary<string> = fc.stringMatching(/^0{1,3}[1-9][0-9]{0,18}$/);

/** Ids with non-ASCII characters (no `/`, `?`, `#` so they can sit in a path segment after encoding). */
export const unicodeId: fc.Arbitrary<string> = fc
  .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
  .filter((s) => s.trim().length > 0);

/** Any of the tricky identifier shapes, plus plain ones. */
export const trickyId: fc.Arbitrary<string> = fc.oneof(
  bigIdString,
  leadingZeroId,
  unicodeId,
  fc.stringMatching(/^[A-Za-z0-9_-]{1,24}$/),
);

/** Text fields: realistic phrases most of the time, arbitrary Unicode sometimes. */
export function text(maxLength: number): fc.Arbitrary<string> {
  return fc
    .oneof(
      {
        weight: 3,
        arbitrary: fc.constantFrom(
          'Summer sale: 50% off',
          'Téléchargez l’app',
          'Neue Kollektion',
          '限时优惠 🎉',
          'Get fit fast',
        ),
      },
      {
        weight: 1,
        arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: Math.min(maxLength, 40) }),
      },
    )
    .filter((s) => s.length >= 1 && [...s].length <= maxLength);
}

const httpsUrl: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('ads.example.com', 'cdn.example.org', 'shop.example.net'),
    fc.stringMatching(/^[a-z0-9]{1,12}$/),
  )
  .map(([host, p]) => `https://${host}/${p}`);

// Enums and required keys come from the contract; only the realistic values are written here.
const CALLS_TO_ACTION = enumOf('ModerationSubmission', 'callToAction');
const ATTACHMENT_TYPES = enumOf('ModerationAttachment', 'type');
const MEDIA_TYPES = enumOf('ModerationMedia', 'type');

export interface ModerationSubmissionOptions {
  /** Every externalId starts with this (e.g. `cca-conform-<runId>-`). */
  readonly externalIdPrefix: string;
}

/** A realistic `ModerationSubmission` (spec 2.7): all required keys, a random subset of optional ones. */
export function moderationSubmission(
  options: ModerationSubmissionOptions,
): fc.Arbitrary<Record<string, unknown>> {
  const media = fc
    .array(fc.record({ url: httpsUrl, type: fc.constantFrom(...MEDIA_TYPES) }), {
      minLength: 1,
      maxLength: 4,
    })
    .map((items) => items.map((m, i) => ({ ...m, position: i + 1 })));
  const targeting = fc.record(
    {
      ageMin: fc.option(fc.integer({ min: 13, max: 25 }), { nil: null }),
      ageMax: fc.option(fc.integer({ min: 26, max: 65 }), { nil: null }),
      geos: fc.uniqueArray(fc.constantFrom('US', 'GB', 'DE', 'FR', 'BR', 'JP', 'IN'), {
        minLength: 1,
        maxLength: 4,
      }),
      languages: fc.uniqueArray(fc.constantFrom('en', 'de', 'fr', 'pt', 'ja'), {
        minLength: 1,
        maxLength: 3,
      }),
    },
    { requiredKeys: requiredKeysOf('ModerationTargeting') },
  );
  return fc.record(
    {
      externalId: fc.stringMatching(/^[a-z0-9]{8,16}$/).map((s) => options.externalIdPrefix + s),
      sourceSystem: fc.constantFrom('meta-ads', 'tiktok-ads', 'snap-ads', 'google-ads'),
      sourcePlatform: fc.constantFrom('META', 'TIKTOK', 'SNAPCHAT', 'GOOGLE'),
      sourceAdId: fc.oneof(bigIdString, leadingZeroId, fc.stringMatching(/^ad_[a-z0-9]{6,12}$/)),
      advertiserId: bigIdString,
      advertiserName: text(500),
      campaignId: fc.stringMatching(/^cmp-[0-9]{3,10}$/),
      market: fc.constantFrom('US', 'GB', 'DE', 'FR', 'BR', 'JP'),
      placement: fc.constantFrom('feed', 'stories', 'reels', 'search', 'spotlight'),
      language: fc.constantFrom('en', 'de', 'fr', 'ja'),
      providerMetadata: fc.record({ accountTier: fc.constantFrom('smb', 'enterprise') }),
      landingPageUrl: fc.option(httpsUrl, { nil: null }),
      title: text(500),
      headline: text(500),
      brandName: text(500),
      callToAction: fc.constantFrom(...CALLS_TO_ACTION),
      publicProfile: fc.record(
        { displayName: text(500), logoUrl: httpsUrl, verified: fc.boolean() },
        { requiredKeys: [] },
      ),
      media,
      attachment: fc.record({
        type: fc.constantFrom(...ATTACHMENT_TYPES),
        destinationUrl: fc.option(httpsUrl, { nil: null }),
      }),
      targeting,
      copy: fc.record(
        { body: text(20000), caption: text(20000), linkDescription: text(20000), sourceTitle: text(20000) },
        { requiredKeys: [] },
      ),
      discoverTile: fc.boolean(),
      partnershipAd: fc.boolean(),
      format: fc.option(fc.constantFrom('single_image', 'carousel', 'video'), { nil: null }),
      arLens: fc.constant(null),
      submittedAt: fc
        .date({
          min: new Date('2025-01-01T00:00:00Z'),
          max: new Date('2026-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString()),
    },
    { requiredKeys: requiredKeysOf('ModerationSubmission') },
  );
}

/** The contract's ingestion platform enum (kept under this name for the laws that import it). */
export const INGESTION_PLATFORMS = PLATFORMS;

export interface IngestionBatchOptions {
  readonly externalIdPrefix: string;
  readonly minRecords?: number;
  readonly maxRecords?: number;
}

/** A realistic `IngestionBatch` (spec 4.17). */
export function ingestionBatch(options: IngestionBatchOptions): fc.Arbitrary<Record<string, unknown>> {
  const record = fc.record(
    {
      externalId: fc
        .oneof(bigIdString, fc.stringMatching(/^[a-z0-9]{6,12}$/))
        .map((s) => options.externalIdPrefix + s),
      threadExternalId: fc.stringMatching(/^t[0-9]{1,10}$/),
      // A reply names its parent; thread roots here are `t<digits>`, so replies point at one.
      parentExternalId: fc.stringMatching(/^t[0-9]{1,10}$/),
      authorId: fc.oneof(bigIdString, leadingZeroId),
      authorName: text(64),
      title: text(200),
      body: fc.oneof(text(2000), fc.constant('')),
      score: fc.integer({ min: 0, max: 50 }).map((n) => n / 10),
      createdAt: fc
        .date({
          min: new Date('2024-01-01T00:00:00Z'),
          max: new Date('2026-12-31T00:00:00Z'),
          noInvalidDate: true,
        })
        .map((d) => d.toISOString()),
      url: httpsUrl,
      recordType: fc.constantFrom('message', 'post', 'review', 'comment'),
      customFields: fc.record({ tier: fc.constantFrom('gold', 'silver') }),
    },
    { requiredKeys: requiredKeysOf('IngestionRecord') },
  );
  return fc.record(
    {
      platform: fc.constantFrom(...INGESTION_PLATFORMS),
      serverId: fc.stringMatching(/^[a-z0-9]{4,10}$/).map((s) => options.externalIdPrefix + s),
      serverName: text(64),
      channelId: fc.stringMatching(/^c[0-9]{1,8}$/),
      channelName: text(64),
      processingLevel: fc.constantFrom(...enumOf('IngestionBatch', 'processingLevel')),
      source: fc.record(
        { system: fc.constantFrom('zendesk-export', 'cca-conform'), sourceId: fc.uuid() },
        { requiredKeys: requiredKeysOf('IngestionSource') },
      ),
      records: fc
        .uniqueArray(record, {
          minLength: options.minRecords ?? 1,
          maxLength: options.maxRecords ?? 5,
          selector: (r) => r.externalId,
        })
        .map((rs) => rs),
    },
    { requiredKeys: requiredKeysOf('IngestionBatch') },
  );
}

/** A `from`/`to` pair as sent on the wire. */
export interface Window {
  readonly from: string;
  readonly to: string;
}

const DAY = 86_400_000;

function render(ms: number, dateOnly: boolean): string {
  const iso = new Date(ms).toISOString();
  return dateOnly ? iso.slice(0, 10) : iso;
}

/** Instant a window bound denotes: a date-only bound is midnight UTC (spec 4.1, also for `to`). */
export function boundInstant(bound: string): number {
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(bound) ? `${bound}T00:00:00.000Z` : bound);
}

export interface WindowOptions {
  /** Latest instant a window may reach (epoch ms). */
  readonly anchor: number;
  /** How far back windows may start, in days (default 60). */
  readonly spanDays?: number;
}

/** A window inside `[anchor - spanDays, anchor]`, bounds date-only or timestamps. */
export function window(options: WindowOptions): fc.Arbitrary<Window> {
  const span = (options.spanDays ?? 60) * DAY;
  const lo = options.anchor - span;
  return fc
    .tuple(fc.integer({ min: 0, max: span }), fc.integer({ min: 0, max: span }), fc.boolean(), fc.boolean())
    .map(([a, b, fromDate, toDate]) => {
      const from = render(lo + Math.min(a, b), fromDate);
      let to = render(lo + Math.max(a, b), toDate);
      if (boundInstant(to) < boundInstant(from)) to = render(lo + Math.max(a, b), false);
      return { from, to };
    })
    .filter((w) => boundInstant(w.from) <= boundInstant(w.to));
}

/** Two windows, the inner inside the outer (for the subset property). */
export function nestedWindows(options: WindowOptions): fc.Arbitrary<{ outer: Window; inner: Window }> {
  return fc
    .tuple(
      window(options),
      fc.double({ min: 0, max: 1, noNaN: true }),
      fc.double({ min: 0, max: 1, noNaN: true }),
    )
    .map(([outer, p, q]) => {
      const a = boundInstant(outer.from);
      const b = boundInstant(outer.to);
      const x = Math.ceil(a + (b - a) * Math.min(p, q));
      const y = Math.floor(a + (b - a) * Math.max(p, q));
      const inner = { from: new Date(x).toISOString(), to: new Date(Math.max(x, y)).toISOString() };
      return { outer, inner };
    });
}
