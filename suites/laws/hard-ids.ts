/**
 * Section 2: "Identifiers ... must be preserved exactly". The hard shapes of an identifier, sent at
 * every point where the service echoes one back: digits above 2^53, leading zeros, surrounding and
 * inner whitespace, non-ASCII letters, a composed and a decomposed form of the same letter, and the
 * maximum length. And the reverse: a near miss of a known id never reads the known record.
 */
import fc from 'fast-check';
import { bigIdString, leadingZeroId, moderationSubmission, unicodeId } from '../../src/arbitraries/index.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { sampleActionIds, sampleAgentIds } from './discover.ts';
import { arr, call, expectConforming, obj, str } from './support.ts';

/** `é` as one code point (NFC) and as `e` plus a combining acute accent (NFD). */
export const COMPOSED = 'caf\u00e9';
export const DECOMPOSED = 'cafe\u0301';

/** The moderation externalId limit (section 2.7, 8). */
export const EXTERNAL_ID_MAX = 256;

const word = fc.stringMatching(/^[a-z0-9]{1,8}$/);

/** Suffixes of every hard shape, for properties that append them to a run-unique id. */
export const hardIdSuffix: fc.Arbitrary<string> = fc.oneof(
  bigIdString,
  leadingZeroId,
  fc
    .tuple(fc.constantFrom(' ', '\t', '  ', '\u00a0'), word, fc.constantFrom(' ', '\t', ''))
    .map(([before, w, after]) => `${before}${w}${after}`),
  fc.tuple(word, fc.constantFrom(' ', '  ', '\t'), word).map(([a, gap, b]) => `${a}${gap}${b}`),
  unicodeId,
  fc.constantFrom(COMPOSED, DECOMPOSED, '\u00c5ngstr\u00f6m', 'A\u030angstro\u0308m', '\u65e5\u672c-\u00fc'),
);

/** A run-unique string of digits only, above 2^53 (the hex of a unique id read as a number). */
function uniqueDigits(ctx: LawContext, label: string): string {
  return BigInt(`0x${Buffer.from(ctx.unique(label)).toString('hex')}`).toString();
}

/** One externalId of each hard shape; the composed and decomposed ones share everything else. */
export function hardExternalIds(ctx: LawContext): Readonly<Record<string, string>> {
  const base = ctx.unique('nf');
  const max = ctx.unique('max');
  return {
    'digits above 2^53': uniqueDigits(ctx, 'n'),
    'leading zeros': `000${uniqueDigits(ctx, 'z')}`,
    'surrounding whitespace': ` ${ctx.unique('ws')}\t`,
    'inner whitespace': `${ctx.unique('in')} a\tb  c`,
    'non-ASCII letters': `${ctx.unique('u')}-\u00dcn\u00efc\u00f8d\u00e9-\u65e5\u672c`,
    'composed form': `${base}-${COMPOSED}`,
    'decomposed form': `${base}-${DECOMPOSED}`,
    'maximum length': `${max}${'x'.repeat(EXTERNAL_ID_MAX - max.length - 1)}\u00e9`,
  };
}

/** Near misses of a known id: whitespace around or inside, leading zeros, the other normal forms. */
export function nearMisses(id: string): string[] {
  const half = Math.max(1, Math.floor(id.length / 2));
  const variants = [
    ` ${id}`,
    `${id} `,
    `${id}\t`,
    `0${id}`,
    `00${id}`,
    `${id.slice(0, half)} ${id.slice(half)}`,
    id.normalize('NFC'),
    id.normalize('NFD'),
  ];
  return [...new Set(variants)].filter((v) => v !== id);
}

/** Does the text hold a character outside ASCII? */
export function isNonAscii(text: string): boolean {
  return [...text].some((ch) => (ch.codePointAt(0) ?? 0) > 0x7f);
}

/** How many hard shapes an id shows: the ids a live target has in these shapes are tried first. */
export function hardness(id: string): number {
  const digits = /^\d+$/.test(id);
  return (
    (digits && id.length >= 16 ? 1 : 0) +
    (/^0\d/.test(id) ? 1 : 0) +
    (/\s/.test(id) ? 1 : 0) +
    // Characters a path segment must percent-encode or a form decoder reads otherwise (+ as space).
    (/[+%?#&=/;]/.test(id) ? 1 : 0) +
    (isNonAscii(id) ? 1 : 0) +
    (id.normalize('NFC') !== id.normalize('NFD') ? 1 : 0)
  );
}

/** The `n` ids of a sample with the most hard shapes (stable: ties keep the sample's order). */
export function hardestIds(ids: readonly string[], n: number): string[] {
  return ids
    .map((id, i) => ({ id, i, h: hardness(id) }))
    .sort((a, b) => b.h - a.h || a.i - b.i)
    .slice(0, n)
    .map((x) => x.id);
}

function submission(ctx: LawContext): Record<string, unknown> {
  const [sample] = fc.sample(moderationSubmission({ externalIdPrefix: ctx.prefix }), {
    seed: ctx.seed,
    numRuns: 1,
  });
  return sample ?? {};
}

/** A 200 on a near miss must carry exactly the id sent; anything else means it read another record. */
function expectNotResolved(
  ctx: LawContext,
  operationId: string,
  path: Record<string, string>,
  sent: string,
  original: string,
  idField: string | undefined,
): Promise<void> {
  return call(ctx, operationId, { auth: 'read', path }).then((res) => {
    const ok = expectConforming(ctx, operationId, res, { what: `${operationId} of ${JSON.stringify(sent)}` });
    if (ok.status < 200 || ok.status >= 300) return;
    const echoed = idField === undefined ? undefined : obj(ok.parsed)[idField];
    if (echoed !== sent)
      violate(
        'ID-VARIANT-NOT-RESOLVED',
        `resolved:${operationId}`,
        `${operationId} of ${JSON.stringify(sent)} (a near miss of ${JSON.stringify(original)}) answered ${ok.status}${idField === undefined ? '' : ` with ${idField} ${JSON.stringify(echoed)}`}: it read another record`,
        { sent, original, status: ok.status },
      );
  });
}

/** A read of a known id answers 200 with exactly that id in `actionId`. */
async function expectEchoed(
  ctx: LawContext,
  operationId: string,
  path: Record<string, string>,
  id: string,
): Promise<void> {
  const res = await call(ctx, operationId, { auth: 'read', path });
  expectConforming(ctx, operationId, res, {
    status: 200,
    statusRule: 'DETAIL-CONSISTENT-WITH-LIST',
    what: `${operationId} of the listed id ${JSON.stringify(id)}`,
    before: (parsed) => {
      if (obj(parsed)['actionId'] !== id)
        violate(
          'ID-STRING-PRESERVED',
          `echo:${operationId}`,
          `${operationId} of ${JSON.stringify(id)} answered actionId ${JSON.stringify(obj(parsed)['actionId'])}`,
        );
    },
  });
}

export const idVariants: Law = {
  id: 'identity.id-variants',
  group: 'identity',
  title:
    'the hardest-shaped listed action and agent ids read back exactly; their near misses (whitespace, leading zeros, other normal forms) never read the known record',
  ruleIds: ['ID-VARIANT-NOT-RESOLVED', 'ID-STRING-PRESERVED'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      let checks = 0;
      for (const id of hardestIds(await sampleActionIds(ctx), 5)) {
        // The id itself, in whatever hard shape it has, is echoed exactly by both reads.
        await expectEchoed(ctx, 'getAction', { id }, id);
        await expectEchoed(ctx, 'getCustomFields', { actionId: id }, id);
        checks += 2;
        for (const variant of nearMisses(id)) {
          await expectNotResolved(ctx, 'getAction', { id: variant }, variant, id, 'actionId');
          await expectNotResolved(ctx, 'getCustomFields', { actionId: variant }, variant, id, 'actionId');
          checks += 2;
        }
      }
      for (const id of hardestIds(await sampleAgentIds(ctx), 3)) {
        for (const variant of nearMisses(id)) {
          await expectNotResolved(ctx, 'getAgent', { id: variant }, variant, id, undefined);
          checks += 1;
        }
      }
      return checks;
    }),
};

export const moderationHardIds: Law = {
  id: 'identity.moderation-hard-ids',
  group: 'identity',
  title:
    'externalIds of every hard shape are distinct, accepted and echoed exactly by the acknowledgement, the batch results and the status read; near misses of a caseId read nothing',
  ruleIds: [
    'ID-STRING-PRESERVED',
    'MOD-ACK-EXTERNALID-ECHO',
    'MOD-GET-CASE-FROM-ACK',
    'MOD-BATCH-ORDER',
    'ID-VARIANT-NOT-RESOLVED',
  ],
  needs: { keys: ['write', 'read'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const content = submission(ctx);
      let checks = 0;
      let firstCase: string | undefined;
      for (const [shape, externalId] of Object.entries(hardExternalIds(ctx))) {
        const ack = await call(ctx, 'submitModerationCase', {
          auth: 'write',
          json: { ...content, externalId },
        });
        const a = obj(
          expectConforming(ctx, 'submitModerationCase', ack, {
            status: 202,
            statusRule: 'MOD-SUBMIT-202',
            what: `a case whose externalId has ${shape}`,
            before: (parsed) => {
              const p = obj(parsed);
              if (p['externalId'] !== externalId)
                violate(
                  'MOD-ACK-EXTERNALID-ECHO',
                  `ack-echo:${shape}`,
                  `externalId with ${shape}: sent ${JSON.stringify(externalId)}, acknowledged ${JSON.stringify(p['externalId'])}`,
                );
              if (p['status'] !== 'accepted')
                violate(
                  'ID-STRING-PRESERVED',
                  `not-distinct:${shape}`,
                  `externalId with ${shape} (${JSON.stringify(externalId)}) is new, but was acknowledged ${JSON.stringify(p['status'])}: the service took it for another id`,
                );
            },
          }).parsed,
        );
        const caseId = str(a['caseId']) ?? '';
        firstCase ??= caseId;
        const read = await call(ctx, 'getModerationCase', { auth: 'read', path: { caseId } });
        expectConforming(ctx, 'getModerationCase', read, {
          status: 200,
          statusRule: 'MOD-GET-CASE-FROM-ACK',
          before: (parsed) => {
            if (obj(parsed)['externalId'] !== externalId)
              violate(
                'MOD-GET-CASE-FROM-ACK',
                `read-echo:${shape}`,
                `case ${caseId} (externalId with ${shape}) reads back externalId ${JSON.stringify(obj(parsed)['externalId'])}, sent ${JSON.stringify(externalId)}`,
              );
          },
        });
        checks += 2;
      }
      const batchIds = Object.values(hardExternalIds(ctx));
      const batch = await call(ctx, 'submitModerationBatch', {
        auth: 'write',
        json: { cases: batchIds.map((externalId) => ({ ...content, externalId })) },
      });
      expectConforming(ctx, 'submitModerationBatch', batch, {
        status: 202,
        statusRule: 'MOD-BATCH-STATUSES-DECLARED',
        before: (parsed) => {
          const results = arr(obj(parsed)['results']).map(obj);
          batchIds.forEach((externalId, i) => {
            const result = results[i] ?? {};
            if (result['externalId'] !== externalId)
              violate(
                'MOD-ACK-EXTERNALID-ECHO',
                'batch-echo',
                `batch result ${i}: sent externalId ${JSON.stringify(externalId)}, result carries ${JSON.stringify(result['externalId'])}`,
              );
            if (result['status'] !== 'accepted')
              violate(
                'ID-STRING-PRESERVED',
                'batch-not-distinct',
                `batch result ${i} (externalId ${JSON.stringify(externalId)}, new) is ${JSON.stringify(result['status'])}`,
              );
          });
        },
      });
      checks += batchIds.length;
      if (firstCase !== undefined && firstCase !== '')
        for (const variant of nearMisses(firstCase)) {
          await expectNotResolved(
            ctx,
            'getModerationCase',
            { caseId: variant },
            variant,
            firstCase,
            'caseId',
          );
          checks += 1;
        }
      return checks;
    }),
};
