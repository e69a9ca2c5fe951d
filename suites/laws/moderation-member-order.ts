import fc from 'fast-check';
import { moderationSubmission } from '../../src/arbitraries/index.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { expectDuplicateAck } from './moderation.ts';
import { call, expectConforming, obj, str } from './support.ts';

/**
 * Object members whose order JSON libraries do not keep as sent. `providerMetadata` is any object
 * (spec 2.7), so a producer may well put such keys in it: keys that read as array indices
 * (JavaScript objects list them first, in numeric order, whatever order the text had) and a
 * `__proto__` key (an own member to `JSON.parse`, the prototype to a plain assignment). Member order
 * is not content (RFC 8259 section 4: an object is an unordered collection), so the same submission
 * written with every object's members in the other order is an exact resubmission (section 3 fact 5).
 */
const METADATA: readonly { readonly label: string; readonly text: string; readonly mayRefuse: boolean }[] = [
  {
    label: 'index-like keys',
    text: '{"2":"b","10":"a","tier":"smb","nested":{"b":1,"a":[{"y":1,"x":2}]}}',
    mayRefuse: false,
  },
  {
    // Written in code-unit order, so a writer that sorts keys has nothing to move in it the first
    // time. A deployment may refuse a `__proto__` key outright (frameworks guard against prototype
    // pollution so): a 400 or 422 then skips the case, nothing is presumed accepted.
    label: 'a __proto__ key',
    text: '{"__proto__":{"q":1},"a":1,"z":{"x":2,"y":1}}',
    mayRefuse: true,
  },
];

/** JSON text of `value` with each object's members in the order it has (`reverse`: the other way). */
function writeOrdered(value: unknown, reverse: boolean): string {
  if (Array.isArray(value)) return `[${value.map((v) => writeOrdered(v, reverse)).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (reverse) keys.reverse();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${writeOrdered(record[k], reverse)}`).join(',')}}`;
}

function baseSubmission(ctx: LawContext): Record<string, unknown> {
  const [sample] = fc.sample(moderationSubmission({ externalIdPrefix: ctx.prefix }), {
    seed: ctx.seed,
    numRuns: 1,
  });
  return sample ?? {};
}

export const moderationMemberOrder: Law = {
  id: 'moderation.member-order',
  group: 'moderation',
  title:
    'a submission whose providerMetadata has keys JSON libraries reorder (index-like, __proto__) is accepted; sent again with every object in the other order it is a duplicate; a changed title is a 409',
  ruleIds: [
    'MOD-SUBMIT-202',
    'MOD-EXACT-RESUBMIT-DUPLICATE',
    'ID-MODERATION-CASEID-STABLE',
    'MOD-ACK-ANALYSIS-PENDING',
    'MOD-CHANGED-CONTENT-409',
  ],
  needs: { keys: ['write'], writes: true },
  run: (ctx) =>
    runExamples(ctx, async () => {
      let checks = 0;
      for (const { label, text, mayRefuse } of METADATA) {
        const externalId = ctx.unique('order');
        // JSON.parse keeps a `__proto__` member as an own property, as a server's parser reads it.
        const body: Record<string, unknown> = {
          ...baseSubmission(ctx),
          externalId,
          providerMetadata: JSON.parse(text) as unknown,
        };
        const first = await call(ctx, 'submitModerationCase', {
          auth: 'write',
          rawBody: writeOrdered(body, false),
        });
        if (mayRefuse && (first.status === 400 || first.status === 422)) continue;
        let caseId: string | undefined;
        expectConforming(ctx, 'submitModerationCase', first, {
          status: 202,
          statusRule: 'MOD-SUBMIT-202',
          what: `a submission whose providerMetadata has ${label}`,
          before: (parsed) => {
            const p = obj(parsed);
            caseId = str(p['caseId']);
            if (p['status'] !== 'accepted')
              violate(
                'MOD-SUBMIT-202',
                `member-order-new:${String(p['status'])}`,
                `a new externalId ${externalId} (providerMetadata with ${label}) was answered status ${JSON.stringify(p['status'])}, expected accepted`,
              );
          },
        });
        const again = await call(ctx, 'submitModerationCase', {
          auth: 'write',
          rawBody: writeOrdered(body, true),
        });
        expectDuplicateAck(
          ctx,
          again,
          caseId ?? '',
          `(${externalId}, providerMetadata with ${label}, every object's members in the other order)`,
          'member-order',
        );
        const changed = { ...body, title: `${String(body['title']).slice(0, 400)} (changed)` };
        const conflict = await call(ctx, 'submitModerationCase', {
          auth: 'write',
          rawBody: writeOrdered(changed, false),
        });
        expectConforming(ctx, 'submitModerationCase', conflict, {
          status: 409,
          statusRule: 'MOD-CHANGED-CONTENT-409',
          what: `changed title under ${externalId} (providerMetadata with ${label})`,
        });
        checks += 3;
      }
      return checks;
    }),
};
