/**
 * Ingested record identity (spec 2.8: organization, platform, server and external ID; 4.17: the
 * externalId is preserved across retries). Processing is not observable as such (section 6), but a
 * deployment that turns ingested records into actions shows them in its own reads: the law first
 * establishes that it does (the run's records appear as actions carrying the run's marker, and how
 * long that takes), and only then resends the same batch (no action and no message more) and sends
 * the same record with one identity part changed (a new record: an action or a message more), the
 * externalId also in a single non-ASCII character. A target whose records never show is reported
 * not run, with the reason.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import type { CheckOutcome } from '../../src/conformance/kit/outcome.ts';
import { SAMPLE_FILTER } from './inputs-query.ts';
import { arr, call, expectConforming, num, obj, str } from './support.ts';

/**
 * Pairs of characters an identifier may differ in alone (spec 2: identifiers are preserved exactly):
 * a character of each UTF-8 length, differing in the last byte or in the lead byte, and the last code
 * point, so a deployment that keys records by a hash or a normalised form of the id bytes meets the
 * bytes it might drop.
 */
const NON_ASCII: readonly { readonly what: string; readonly first: string; readonly other: string }[] = [
  { what: 'a two-byte character, its last byte', first: '\u00fc', other: '\u00f6' },
  { what: 'a three-byte character, its lead byte', first: '\u0e01', other: '\u4e01' },
  { what: 'a character from U+E000, its last byte', first: '\uff25', other: '\uff26' },
  { what: 'a four-byte character, its lead bytes', first: '\u{10000}', other: '\u{30000}' },
  // The last code point (surrogates U+DBFF U+DFFF, the edges of UTF-16 decoding) against the two
  // replacement characters a decoder that misreads either edge makes of it.
  { what: 'the last code point, not two U+FFFD', first: '\u{10ffff}', other: '\ufffd\ufffd' },
];

/** Polls waited at most for the first records to show (each poll is a pause of the target's pace). */
const MAX_APPEAR_POLLS = 40;
const MINUTE_MS = 60_000;

interface Seen {
  readonly actions: number;
  /** Sum of the actions' totalMessages, or undefined when none carries a number. */
  readonly messages: number | undefined;
}

const sameSeen = (a: Seen, b: Seen): boolean => a.actions === b.actions && a.messages === b.messages;
const describeSeen = (s: Seen): string =>
  `${s.actions} action(s)${s.messages === undefined ? '' : `, ${s.messages} message(s)`}`;

/** Grown by at least one record: an action more, or (when counted) a message more. */
const grew = (before: Seen, after: Seen): boolean =>
  after.actions > before.actions ||
  (after.messages !== undefined && before.messages !== undefined && after.messages > before.messages);

/**
 * Every item carrying the marker in the reads the run's records could show in: the list around their
 * creation time and around their ingestion (default and with a fullFilter, which has no responded
 * default), and the newest search page. Answers that are not 200 add nothing (their laws charge them).
 */
export async function markedItems(
  ctx: LawContext,
  marker: string,
  createdAt: string,
  sentAt: number,
): Promise<Record<string, unknown>[]> {
  const windows = [
    {
      from: new Date(Date.parse(createdAt) - MINUTE_MS).toISOString(),
      to: new Date(Date.parse(createdAt) + MINUTE_MS).toISOString(),
    },
    { from: new Date(sentAt - MINUTE_MS).toISOString(), to: new Date(ctx.now() + MINUTE_MS).toISOString() },
  ];
  const answers = [];
  for (const window of windows)
    for (const extra of [{}, { fullFilter: SAMPLE_FILTER }])
      answers.push(
        await call(ctx, 'listActions', { auth: 'read', query: { ...window, pageSize: 500, ...extra } }),
      );
  answers.push(await call(ctx, 'searchConversations', { auth: 'read', query: { pageSize: 100 } }));
  const items: Record<string, unknown>[] = [];
  for (const res of answers) {
    if (res.kind === 'network' || res.status !== 200) continue;
    for (const item of arr(obj(res.ok ? res.body : undefined)['data']).map(obj))
      if (str(item['actionId']) !== undefined && JSON.stringify(item).includes(marker)) items.push(item);
  }
  return items;
}

export const ingestionIdentity: Law = {
  id: 'ingestion.record-identity',
  group: 'ingestion',
  title:
    'once ingested records show as actions: resending the batch adds no action nor message; the same record under another server, platform or externalId is a new record',
  ruleIds: ['ID-INGEST-EXTERNALID-RETRIES', 'ID-INGEST-RECORD-IDENTITY', 'ING-202-ACCEPTED'],
  needs: { keys: ['ingest', 'read'], writes: true },
  run: async (ctx): Promise<CheckOutcome> => {
    let reason = '';
    const outcome = await runExamples(ctx, async () => {
      // The marker names the run's records in whatever the target makes of them: the source's name,
      // the author and the text.
      const marker = ctx.unique('identity');
      const createdAt = new Date(ctx.now() - 2 * 3_600_000).toISOString();
      const sentAt = ctx.now();
      const record = (externalId: string) => ({
        externalId,
        authorId: `${marker}-author`,
        authorName: marker,
        body: `${marker}: a record ingested to check record identity (conformance check)`,
        createdAt,
        recordType: 'post',
      });
      // The first record's externalId holds one character of each UTF-8 length (and one from
      // U+E000 up); the records that differ from it in just one of them are records of their own.
      const stem = ctx.unique('rec');
      const first = record(`${stem}-${NON_ASCII.map((p) => p.first).join('-')}`);
      const batch = { platform: 'CUSTOM_FORM', serverId: ctx.unique('server'), serverName: marker };
      const ingest = async (body: Record<string, unknown>, what: string): Promise<void> => {
        const res = await call(ctx, 'ingestRecords', { auth: 'ingest', json: body });
        expectConforming(ctx, 'ingestRecords', res, { status: 202, statusRule: 'ING-202-ACCEPTED', what });
      };

      const observe = async (): Promise<Seen> => {
        const found = new Map<string, number | undefined>();
        for (const item of await markedItems(ctx, marker, createdAt, sentAt))
          found.set(str(item['actionId']) ?? '', num(item['totalMessages']));
        const counts = [...found.values()].filter((n): n is number => n !== undefined);
        return {
          actions: found.size,
          messages: counts.length === 0 ? undefined : counts.reduce((a, b) => a + b, 0),
        };
      };

      await ingest({ ...batch, records: [first] }, 'ingestRecords (the first record)');
      // Establish that records show, how long they take, and that the count has settled.
      let polls = 0;
      let seen = await observe();
      while (seen.actions === 0 && polls < MAX_APPEAR_POLLS) {
        await ctx.poll();
        polls += 1;
        seen = await observe();
      }
      if (seen.actions === 0) {
        reason = `the ingested record never showed as an action (action list and search, ${polls} polls): ingestion processing is not observable on this target (spec section 6)`;
        return 0;
      }
      // Long enough for a record of this shape to show, twice over.
      const wait = Math.max(3, 2 * polls);
      const settle = async (until?: (s: Seen) => boolean): Promise<Seen> => {
        let last = await observe();
        for (let i = 0; i < wait && !(until?.(last) ?? false); i++) {
          await ctx.poll();
          last = await observe();
        }
        return last;
      };
      let base = await settle();
      const again = await observe();
      if (!sameSeen(base, again)) {
        reason = `the run's own records kept changing in the target's reads (${describeSeen(base)}, then ${describeSeen(again)}): no settled count to compare with`;
        return 0;
      }

      await ingest({ ...batch, records: [first] }, 'ingestRecords (the same batch resent)');
      const resent = await settle();
      if (grew(base, resent))
        violate(
          'ID-INGEST-EXTERNALID-RETRIES',
          'resend-new-record',
          `the same batch (platform ${batch.platform}, serverId ${batch.serverId}, record externalId ${first.externalId}) sent again made new records: the run's records showed as ${describeSeen(base)} before the resend and ${describeSeen(resent)} after it`,
          { externalId: first.externalId, serverId: batch.serverId },
        );
      base = resent;

      // One identity part changed at a time: each is a record of its own (2.8).
      const changes: readonly { part: string; body: Record<string, unknown> }[] = [
        { part: 'serverId', body: { ...batch, serverId: ctx.unique('server'), records: [first] } },
        { part: 'platform', body: { ...batch, platform: 'DISCORD', records: [first] } },
        { part: 'externalId', body: { ...batch, records: [record(ctx.unique('rec'))] } },
        ...NON_ASCII.map((pair, j) => ({
          part: `externalId (${pair.what}: ${pair.first} to ${pair.other})`,
          body: {
            ...batch,
            records: [record(`${stem}-${NON_ASCII.map((p, k) => (k === j ? p.other : p.first)).join('-')}`)],
          },
        })),
      ];
      for (const change of changes) {
        await ingest(change.body, `ingestRecords (the record with another ${change.part})`);
        const after = await settle((s) => grew(base, s));
        if (!grew(base, after))
          violate(
            'ID-INGEST-RECORD-IDENTITY',
            `same-record:${change.part}`,
            `a record whose ${change.part} differs from an ingested one (${describeSeen(base)} before) is a different record, yet no action nor message was added after ${wait} polls (${describeSeen(after)}), though the first record showed within ${polls}`,
            {
              changed: change.part,
              externalId: arr(change.body['records']).map((r) => str(obj(r)['externalId'])),
            },
          );
        base = after;
      }
      return 1 + changes.length;
    });
    if (outcome.kind === 'passed' && outcome.checks === 0)
      return { kind: 'not-run', ruleIds: ctx.ruleIds, reason };
    return outcome;
  },
};
