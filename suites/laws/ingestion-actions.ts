/**
 * What a deployment makes of the run's own ingested records, judged only by what the spec says of
 * every action. How records become actions is not stated (section 6: processing is not observable;
 * 4.17: it continues asynchronously), so nothing is presumed of the mapping: an action is the run's
 * when it carries the run's marker, and only the sentences that hold for any action are applied to
 * it. And a retry that moves a record to another thread, a valid batch like any other, leaves the
 * service answering valid requests as before.
 */
import { INGESTION_PLATFORMS } from '../../src/arbitraries/index.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import type { CheckOutcome } from '../../src/conformance/kit/outcome.ts';
import { markedItems } from './ingestion-identity.ts';
import { call, expectConforming, str } from './support.ts';

/** Polls waited at most for the run's records to show (each poll is a pause of the target's pace). */
const MAX_APPEAR_POLLS = 40;
/** Polls after a batch before the next request: a mock past its processing delay, a live target some time. */
const PROCESSING_POLLS = 5;
const HOUR_MS = 3_600_000;

async function ingest(ctx: LawContext, body: Record<string, unknown>, what: string): Promise<void> {
  const res = await call(ctx, 'ingestRecords', { auth: 'ingest', json: body });
  expectConforming(ctx, 'ingestRecords', res, { status: 202, statusRule: 'ING-202-ACCEPTED', what });
}

/** One record of the run: its author, name and text carry the marker (and the batch's tag). */
function markedRecord(ctx: LawContext, marker: string, tag: string, createdAt: string) {
  return {
    externalId: ctx.unique('rec'),
    authorId: `${marker}-author`,
    authorName: marker,
    body: `${marker} ${tag}: a record ingested to check the action it becomes (conformance check)`,
    createdAt,
    recordType: 'post',
    url: `https://example.com/cca-kit/${encodeURIComponent(marker)}/${tag.slice(1)}`,
  };
}

export const ingestedActions: Law = {
  id: 'ingestion.own-actions',
  group: 'ingestion',
  title:
    "once the run's records (each with a url) show as actions: a private one has no sourceURL, and each names its own batch's platform",
  ruleIds: ['SCHEMA-SOURCEURL-NULL-FOR-PRIVATE', 'ING-ACTION-PLATFORM-OF-BATCH', 'ING-202-ACCEPTED'],
  needs: { keys: ['ingest', 'read'], writes: true },
  run: async (ctx): Promise<CheckOutcome> => {
    let reason = '';
    const outcome = await runExamples(ctx, async () => {
      const marker = ctx.unique('own');
      const createdAt = new Date(ctx.now() - 2 * HOUR_MS).toISOString();
      const sentAt = ctx.now();
      // Two sources of different platforms; the tag tells their actions apart (no other text of a
      // record holds a '#').
      const batches = [
        { tag: '#one', platform: 'CUSTOM_FORM' },
        { tag: '#two', platform: 'DISCORD' },
      ] as const;
      for (const { tag, platform } of batches)
        await ingest(
          ctx,
          {
            platform,
            serverId: ctx.unique('server'),
            serverName: `${marker} ${tag}`,
            records: [markedRecord(ctx, marker, tag, createdAt)],
          },
          `ingestRecords (a ${platform} record with a url)`,
        );
      let items = await markedItems(ctx, marker, createdAt, sentAt);
      for (let polls = 0; polls < MAX_APPEAR_POLLS && items.length === 0; polls++) {
        await ctx.poll();
        items = await markedItems(ctx, marker, createdAt, sentAt);
      }
      // Both sources, when one shows: the other may be a moment behind.
      for (let polls = 0; polls < PROCESSING_POLLS; polls++) {
        if (batches.every(({ tag }) => items.some((i) => JSON.stringify(i).includes(tag)))) break;
        await ctx.poll();
        items = await markedItems(ctx, marker, createdAt, sentAt);
      }
      if (items.length === 0) {
        reason = `the ingested records never showed as actions (action list and search, ${MAX_APPEAR_POLLS} polls): ingestion processing is not observable on this target (spec section 6)`;
        return 0;
      }
      const platforms = new Map<string, Set<string>>();
      for (const item of items) {
        const id = str(item['actionId']);
        const text = JSON.stringify(item);
        const batch = batches.find(({ tag }) => text.includes(tag));
        // A private action says there is no link to show (2.1), whatever the record carried.
        if (item['isPublicPost'] === false && item['sourceURL'] !== null && item['sourceURL'] !== undefined)
          violate(
            'SCHEMA-SOURCEURL-NULL-FOR-PRIVATE',
            'private-source-url',
            `action ${id} (made of the run's ingested record${batch === undefined ? '' : ` from ${batch.platform}`}) is private (isPublicPost false) but has sourceURL ${String(item['sourceURL'])}`,
          );
        const platform = str(item['platform']);
        if (batch === undefined || batches.every(({ tag }) => text.includes(tag)) || platform === undefined)
          continue;
        // Another ingestion platform's name is another source; a name outside the list is judged
        // only against the other batch's below.
        if ((INGESTION_PLATFORMS as readonly string[]).includes(platform) && platform !== batch.platform)
          violate(
            'ING-ACTION-PLATFORM-OF-BATCH',
            `platform:${batch.platform}`,
            `action ${id}, made of the run's record ingested with platform ${batch.platform}, has platform ${platform}`,
          );
        platforms.set(batch.platform, (platforms.get(batch.platform) ?? new Set()).add(platform));
      }
      const [one, two] = batches.map(({ platform }) => platforms.get(platform));
      const shared = [...(one ?? [])].filter((p) => two?.has(p) === true);
      if (shared.length > 0)
        violate(
          'ING-ACTION-PLATFORM-OF-BATCH',
          'platform:same-for-two-sources',
          `the run's records ingested with platforms ${batches.map((b) => b.platform).join(' and ')} both became actions of platform ${shared.join(', ')}`,
        );
      return items.length;
    });
    if (outcome.kind === 'passed' && outcome.checks === 0)
      return { kind: 'not-run', ruleIds: ctx.ruleIds, reason };
    return outcome;
  },
};

export const retryOtherThread: Law = {
  id: 'ingestion.retry-other-thread',
  group: 'ingestion',
  title:
    'a record resent with another threadExternalId, after time to process the first, is accepted, and so are the next batch and list read',
  ruleIds: ['ING-202-ACCEPTED', 'LIST-RESPONSE-ENVELOPE'],
  needs: { keys: ['ingest', 'read'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const marker = ctx.unique('moved');
      const createdAt = new Date(ctx.now() - HOUR_MS).toISOString();
      const record = { ...markedRecord(ctx, marker, '#first', createdAt), threadExternalId: `${marker}-a` };
      const batch = { platform: 'CUSTOM_FORM', serverId: ctx.unique('server'), serverName: marker };
      await ingest(ctx, { ...batch, records: [record] }, 'ingestRecords (a record in thread a)');
      for (let i = 0; i < PROCESSING_POLLS; i++) await ctx.poll();
      // The same record (its externalId preserved, 4.17) now in another thread: a valid batch.
      await ingest(
        ctx,
        { ...batch, records: [{ ...record, threadExternalId: `${marker}-b` }] },
        'ingestRecords (the same record resent in thread b)',
      );
      for (let i = 0; i < PROCESSING_POLLS; i++) await ctx.poll();
      // Whatever processing did with the move, the next valid requests are answered as ever.
      await ingest(
        ctx,
        { ...batch, records: [markedRecord(ctx, marker, '#next', createdAt)] },
        'ingestRecords (the next batch, after the move was processed)',
      );
      const list = await call(ctx, 'listActions', {
        auth: 'read',
        query: {
          from: new Date(Date.parse(createdAt) - HOUR_MS).toISOString(),
          to: new Date(ctx.now()).toISOString(),
        },
      });
      expectConforming(ctx, 'listActions', list, {
        status: 200,
        statusRule: 'LIST-RESPONSE-ENVELOPE',
        what: 'listActions after a record moved to another thread',
      });
      return 4;
    }),
};

export const ingestionActionLaws: readonly Law[] = [ingestedActions, retryOtherThread];
