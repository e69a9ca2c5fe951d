/**
 * The seeded mock plus a few actions of the read key's organization that the seeded data set lacks and
 * some laws need to see: actions answered by an agent (one within its first second), replies of the
 * agent interface delivered by a person's approval (the data file records the approval, which no law
 * gives), a platform of three customers with unequal message counts, and a tag carried by one action
 * nobody answered. Everything seeded stays, so a law run here sees the seeded data as well.
 */
import organizationsJson from '../fixtures/organizations.json' with { type: 'json' };
import { agentSays, scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import { type MockTargetOptions, type RunningTarget, startMockTarget } from './target.ts';

/** A tag of the organization that only an unanswered action carries. */
export const UNANSWERED_TAG_ID = 'tg_unanswered_only';

export async function startRepliedMockTarget(options: MockTargetOptions = {}): Promise<RunningTarget> {
  const acme = (organizationsJson as readonly { id: string; name: string; moderationMode: string }[]).find(
    (o) => o.moderationMode === 'ad_policy',
  );
  if (acme === undefined) throw new Error('the seeded organizations have none in ad_policy mode');
  const many = Array.from({ length: 9 }, (_, k) => userSays(`Still broken (${k + 1})`, `-${70 - k}m`));
  const data = scenario()
    .organization(acme.id, { name: acme.name, moderationMode: 'ad_policy' })
    .tag({ id: UNANSWERED_TAG_ID, value: 'Unanswered only', group: 'Replied scenario' })
    // Answered within its first second: a first response time equal to createdAt, a duration of 0 s.
    .action({
      actionId: 'replied_first_second',
      platform: 'WHATSAPP',
      messages: [userSays('Is it down?', '-3h'), agentSays('Looking now', '-2h59m59s500ms')],
    })
    // Answered, then answered again by a reply a person approved.
    .action({
      actionId: 'replied_twice',
      platform: 'WHATSAPP',
      messages: [
        userSays('Refund please', '-2h'),
        userSays('Order 77', '-1h59m'),
        agentSays('On it', '-1h50m'),
      ],
    })
    .replyRequest({
      state: 'delivered',
      text: 'Refunded, thanks for waiting.',
      createdAt: '-40m',
      updatedAt: '-30m',
    })
    // Unanswered until a reply a person approved is delivered.
    .action({ actionId: 'replied_late', platform: 'WHATSAPP', messages: many })
    .replyRequest({ state: 'delivered', text: 'Fixed in 4.2.', createdAt: '-25m', updatedAt: '-20m' })
    .action({
      actionId: 'unanswered_tagged',
      platform: 'TELEGRAM',
      tags: [UNANSWERED_TAG_ID],
      messages: [userSays('Anyone there?', '-2h30m')],
    })
    .build();
  return startMockTarget({ seed: 42, ...options, data });
}
