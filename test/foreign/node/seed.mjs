// Deterministic seed data for two organizations.
import { randomBytes } from 'node:crypto';

function mulberry32(a) {
  return function () {
    a |= 0; a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const ORG_A = 'org_7f3a91';
export const ORG_B = 'org_b20c44';
export const SHARED_ACTION_ID = '18014398509481985'; // 2^54 + 1, exists in both orgs
export const SHARED_AGENT_ID = '9007199254740993'; // 2^53 + 1, exists in both orgs

const HOUR = 3600e3, DAY = 24 * HOUR, MIN = 60e3;

const TOPICS = [
  {
    key: 'billing', tag: 'Billing', range: [-0.95, 0.1],
    titles: ['Double charged on the {month} invoice', 'Refund request for order #{n}', 'Charged again after cancelling subscription', 'Invoice shows wrong VAT number'],
    summary: 'Customer reports a billing problem with {detail}. Agent reviewed the invoice history and {outcome}.',
    details: ['a duplicate card charge', 'a renewal after cancellation', 'an incorrect tax line', 'a missing refund'],
    outcomes: ['issued a refund', 'explained the proration', 'escalated to finance', 'corrected the invoice'],
    user: ['I was charged twice this month, order #{n}. Can someone fix this?', 'Why did you bill me after I cancelled? This is ridiculous.', 'My invoice has the wrong VAT number, I need a corrected copy.', 'Still waiting on the refund you promised last week.'],
    agent: ['Sorry about that! I can see the duplicate charge and have started a refund; it takes 3-5 business days.', 'Thanks for flagging this. I have corrected the invoice and emailed you a new copy.', 'I have escalated this to our finance team and will update you within 24 hours.'],
  },
  {
    key: 'login', tag: 'Login', range: [-0.8, 0.3],
    titles: ['Cannot log in after password reset', '2FA codes not arriving', 'Locked out of account', 'SSO login loops back to sign-in page'],
    summary: 'Customer could not access their account because of {detail}. Agent {outcome}.',
    details: ['an expired reset link', 'SMS codes not arriving', 'too many failed attempts', 'an SSO redirect loop'],
    outcomes: ['reset the second factor', 'unlocked the account', 'shared SSO troubleshooting steps', 'asked for a HAR file'],
    user: ['I reset my password and now it says invalid credentials.', 'The 2FA code never arrives, I have tried 5 times.', 'Your SSO just loops me back to the login page.', 'Locked out again, please help, I have a demo in an hour'],
    agent: ['I have unlocked your account, please try again now.', 'Could you try the backup codes from your security settings?', 'Thanks, I reproduced the SSO loop and our team is deploying a fix.'],
  },
  {
    key: 'shipping', tag: 'Shipping', range: [-0.9, 0.2],
    titles: ['Package stuck in transit', 'Order #{n} delivered to wrong address', 'Tracking number not working', 'Delivery delayed two weeks'],
    summary: 'Customer asked about {detail}. Agent {outcome}.',
    details: ['a parcel stuck in transit', 'a delivery to the wrong address', 'an invalid tracking number', 'a two-week delay'],
    outcomes: ['opened a carrier claim', 'sent a replacement', 'shared the updated tracking link', 'offered a shipping refund'],
    user: ['My order #{n} has been "in transit" for 12 days.', 'Tracking says delivered but nothing arrived.', 'The tracking number you sent does not work on the carrier site.'],
    agent: ['I opened a claim with the carrier and will ship a replacement today.', 'Here is the corrected tracking link, sorry for the confusion.', 'I have refunded the shipping cost for the delay.'],
  },
  {
    key: 'feature', tag: 'Feature Request', range: [-0.1, 0.8],
    titles: ['Request: dark mode for the dashboard', 'Export reports to CSV', 'Please add Slack notifications', 'Bulk edit for tags'],
    summary: 'Customer requested {detail}. Agent {outcome}.',
    details: ['dark mode', 'CSV export of reports', 'Slack notifications', 'bulk tag editing'],
    outcomes: ['logged the request on the roadmap board', 'shared a workaround', 'linked the public feature vote'],
    user: ['Would love a dark mode, my eyes hurt at night.', 'Any plans to export reports to CSV?', 'It would be great to get Slack notifications for new tickets.'],
    agent: ['Great idea! I have added your vote to the roadmap item.', 'That is on our roadmap; meanwhile you can use the API export.', 'Thanks for the suggestion, I passed it to the product team.'],
  },
  {
    key: 'bug', tag: 'Bug', range: [-0.85, 0.0],
    titles: ['App crashes on startup (v{v})', 'Charts not loading on Safari', 'Upload fails with error 413', 'Notifications duplicated'],
    summary: 'Customer hit {detail}. Agent {outcome}.',
    details: ['a crash on startup', 'charts that never load in Safari', 'a failing upload', 'duplicated notifications'],
    outcomes: ['reproduced it and filed a bug', 'shared a hotfix build', 'asked for logs', 'confirmed the fix in the next release'],
    user: ['The app crashes right after the splash screen since the update.', 'Charts spin forever on Safari 17.', 'Uploading a 20MB file fails with 413.'],
    agent: ['Thanks, we reproduced it; a fix ships in version {v}.', 'Could you send the logs from Settings > Diagnostics?', 'This is a known issue and the hotfix is rolling out now.'],
  },
  {
    key: 'praise', tag: 'Praise', range: [0.3, 1.0],
    titles: ['Thanks for the quick help!', 'Love the new update', 'Shoutout to the support team'],
    summary: 'Customer shared positive feedback about {detail}. Agent {outcome}.',
    details: ['the new release', 'fast support', 'the onboarding flow'],
    outcomes: ['thanked them', 'shared the feedback with the team'],
    user: ['Huge thanks to your support team, sorted in minutes!', 'The new update is fantastic, so much faster.', 'Best onboarding experience I have had.'],
    agent: ['Thank you so much, we will pass this on to the team!', 'That made our day, thanks for sharing!'],
  },
  {
    key: 'account', tag: 'Account', range: [-0.6, 0.4],
    titles: ['Delete my account and data', 'Change account owner email', 'Merge two workspaces', 'Update company name on account'],
    summary: 'Customer asked to {detail}. Agent {outcome}.',
    details: ['delete their account', 'change the owner email', 'merge two workspaces', 'rename the company'],
    outcomes: ['completed the request after verification', 'sent the verification form', 'escalated to the accounts team'],
    user: ['Please delete my account and all my data (GDPR).', 'I need to transfer ownership to my colleague.', 'Can you merge my two workspaces into one?'],
    agent: ['I have sent a verification email; once confirmed we will process it within 30 days.', 'Done, the ownership has been transferred.', 'I escalated the merge to our accounts team.'],
  },
];

const PRODUCT_TAGS = ['Mobile App', 'Web Dashboard', 'Public API'];
const CLOSING_TAGS = ['Resolved', 'Refunded', 'Escalated', 'Duplicate', 'No Reply Needed'];
const FIRST = ['Maya', 'Liam', 'Sofia', 'Noah', 'Aisha', 'Kenji', 'Elena', 'Omar', 'Priya', 'Lucas', 'Chloe', 'Mateo', 'Hana', 'Tariq', 'Freya', 'Diego', 'Ines', 'Yusuf', 'Zoe', 'Arjun', 'Nora', 'Felix', 'Leila', 'Sven'];
const LAST = ['Okafor', 'Schmidt', 'Rossi', 'Tanaka', 'Haddad', 'Silva', 'Novak', 'Kim', 'Dubois', 'Patel', 'Larsen', 'Moreau', 'Quinn', 'Alvarez', 'Berg', 'Costa'];

function sentimentLabel(s) {
  if (s == null) return null;
  if (s < -0.6) return 'Very Negative';
  if (s < -0.15) return 'Negative';
  if (s < 0.25) return 'Neutral';
  return 'Positive';
}
export { sentimentLabel };

const ORGS = {
  [ORG_A]: {
    name: 'Acme Outfitters', slug: 'acme', count: 430, easy: 'ACME',
    platforms: [
      ['TWITTER', 5], ['DISCORD', 4], ['ZENDESK', 5], ['SLACK', 2], ['INSTAGRAM', 2], ['WHATSAPP', 2], ['APPSTORE', 2], ['GITHUB', 1],
    ],
    agents: [
      [SHARED_AGENT_ID, 'Rosa Martinez', 'rosa.martinez@acme.example', 'Team Lead'],
      ['0042', 'Dev Anand', 'dev.anand@acme.example', 'Agent'],
      ['U7K3M9QX', 'Grace Liu', 'grace.liu@acme.example', 'Agent'],
      ['1234567890123456789', 'Tom Becker', 'tom.becker@acme.example', 'Senior Agent'],
      ['agent-ana', 'Ana Ferreira', null, 'Agent'],
      ['00917', 'Jonas Weber', 'jonas.weber@acme.example', 'Agent'],
      ['88231', 'Fatima Zahra', 'fatima.zahra@acme.example', null],
      ['7493028571930485721', 'Bot Escalations', null, 'Supervisor'],
    ],
    queues: [['q_billing', 'Billing'], ['q_tech', 'Technical Support'], ['q_ship', 'Shipping & Returns'], ['q_social', 'Social Care'], ['q_vip', 'VIP']],
    fields: [
      ['priority_level', 'Priority level', 'select', ['low', 'medium', 'high', 'urgent']],
      ['refund_amount', 'Refund amount (USD)', 'number', null],
      ['is_vip', 'VIP customer', 'boolean', null],
      ['root_cause', 'Root cause', 'text', null],
      ['follow_up_date', 'Follow-up date', 'date', null],
      ['product_areas', 'Product areas', 'multi_select', ['checkout', 'mobile', 'dashboard', 'api', 'shipping']],
    ],
  },
  [ORG_B]: {
    name: 'Northbeam Games', slug: 'northbeam', count: 64, easy: 'NB',
    platforms: [['DISCORD', 5], ['TELEGRAM', 2], ['GOOGLE_PLAY', 2], ['YOUTUBE', 1]],
    agents: [
      [SHARED_AGENT_ID, 'Ilya Petrov', 'ilya@northbeam.example', 'Community Manager'],
      ['nb-004', 'Sara Holm', 'sara@northbeam.example', 'Moderator'],
      ['000318', 'Kwame Mensah', null, 'Moderator'],
    ],
    queues: [['general', 'General'], ['bugs', 'Bug Reports']],
    fields: [
      ['region', 'Player region', 'text', null],
      ['churn_risk', 'Churn risk', 'number', null],
    ],
  },
};

const PLATFORM_META = {
  TWITTER: { types: [['tweet', true], ['direct_message', false]], server: ['@AcmeSupport', '@AcmeOutfitters'], channel: ['mentions', 'dms'], url: (id, u) => `https://x.com/${u}/status/${id}` },
  DISCORD: { types: [['thread', true], ['message', true]], server: ['Acme Community', 'Northbeam Official'], channel: ['#help', '#bug-reports', '#general'], url: (id) => `https://discord.com/channels/880112/990221/${id}` },
  ZENDESK: { types: [['ticket', false]], server: ['acme.zendesk.com'], channel: ['email', 'web_form'], url: null },
  SLACK: { types: [['message', false]], server: ['Acme Partners'], channel: ['#partner-support'], url: null },
  INSTAGRAM: { types: [['comment', true], ['dm', false]], server: ['acme.outfitters'], channel: ['comments', 'direct'], url: (id) => `https://www.instagram.com/p/${id.slice(-11)}/` },
  WHATSAPP: { types: [['chat', false]], server: ['Acme WhatsApp +1 555 0100'], channel: ['business'], url: null },
  APPSTORE: { types: [['review', true]], server: ['Acme Shop iOS'], channel: ['reviews'], url: (id) => `https://apps.apple.com/app/id1459012345?see-all=reviews#${id}` },
  GITHUB: { types: [['issue', true]], server: ['acme/acme-sdk'], channel: ['issues'], url: (id, u, n) => `https://github.com/acme/acme-sdk/issues/${n}` },
  TELEGRAM: { types: [['message', true]], server: ['Northbeam Players'], channel: ['general', 'support'], url: (id) => `https://t.me/northbeam/${id}` },
  GOOGLE_PLAY: { types: [['review', true]], server: ['Northbeam: Skyforge'], channel: ['reviews'], url: (id) => `https://play.google.com/store/apps/details?id=com.northbeam.skyforge&reviewId=${id}` },
  YOUTUBE: { types: [['comment', true]], server: ['Northbeam Games'], channel: ['Skyforge trailer'], url: (id) => `https://www.youtube.com/watch?v=xS7fQ2nbLk0&lc=${id}` },
};

export function newKey(prefix) {
  return `${prefix}_${randomBytes(18).toString('base64url')}`;
}

export function seed(db, nowMs) {
  const rng = mulberry32(0xC0FFEE);
  const pick = (arr) => arr[Math.floor(rng() * arr.length)];
  const between = (a, b) => a + rng() * (b - a);
  const digits = (n) => { let s = String(1 + Math.floor(rng() * 9)); while (s.length < n) s += Math.floor(rng() * 10); return s; };
  const iso = (ms) => new Date(Math.round(ms)).toISOString();
  const weighted = (pairs) => { const tot = pairs.reduce((s, p) => s + p[1], 0); let r = rng() * tot; for (const [v, w] of pairs) { if ((r -= w) < 0) return v; } return pairs[0][0]; };

  const ins = {
    org: db.prepare('INSERT INTO orgs VALUES (?,?,?,?,?)'),
    agent: db.prepare('INSERT INTO agents VALUES (?,?,?,?,?)'),
    queue: db.prepare('INSERT INTO queues VALUES (?,?,?)'),
    customer: db.prepare('INSERT OR IGNORE INTO customers VALUES (?,?,?,?,?,?)'),
    tag: db.prepare('INSERT INTO tags VALUES (?,?,?,?)'),
    actionTag: db.prepare('INSERT OR IGNORE INTO action_tags VALUES (?,?,?,?)'),
    field: db.prepare('INSERT INTO custom_field_defs VALUES (?,?,?,?,?,?)'),
    value: db.prepare('INSERT INTO custom_field_values VALUES (?,?,?,?,?)'),
    msg: db.prepare('INSERT INTO messages VALUES (?,?,?,?,?,?,?,?,?,?,?)'),
    comment: db.prepare('INSERT INTO comments VALUES (?,?,?,?,?,?)'),
  };
  const actionCols = ['org_id', 'action_id', 'seq', 'title', 'summary', 'status', 'platform', 'record_type', 'is_public', 'source_url', 'queue_id', 'initial_queue_id', 'sentiment', 'sentiment_score', 'moderation', 'assignee_id', 'user_id', 'created_at', 'updated_at', 'initial_message_time', 'initial_response_time', 'close_time', 'claim_time', 'first_response_secs', 'handle_secs', 'server_name', 'channel_name', 'csat_score', 'csat_feedback', 'estimated_csat', 'resolution_quality', 'sentiment_change', 'rubric_score', 'root_message_text', 'thread_id', 'easy_id', 'total_messages', 'total_user_messages', 'total_agent_messages'];
  const insAction = db.prepare(`INSERT INTO actions (${actionCols.join(',')}) VALUES (${actionCols.map(() => '?').join(',')})`);

  db.exec('BEGIN');
  for (const [orgId, o] of Object.entries(ORGS)) {
    ins.org.run(orgId, o.name, o.slug, orgId === ORG_A ? 'ad_policy' : 'standard', orgId === ORG_A ? 'adpol-wf-2026.11' : null);
    for (const a of o.agents) ins.agent.run(orgId, ...a);
    for (const q of o.queues) ins.queue.run(orgId, ...q);
    o.fields.forEach((f, i) => ins.field.run(orgId, f[0], f[1], f[2], f[3] ? JSON.stringify(f[3]) : null, i));
    // tags
    const tagIds = {};
    let tn = orgId === ORG_A ? 101 : 501;
    const addTag = (name, group) => { const id = `tg-${tn++}`; tagIds[name] = id; ins.tag.run(orgId, id, name, group); };
    for (const t of TOPICS) addTag(t.tag, 'Topic');
    for (const p of PRODUCT_TAGS) addTag(p, 'Product');
    addTag('Urgent', 'Priority');
    addTag('Churn Risk', null);
    for (const c of CLOSING_TAGS) addTag(c, 'Resolution');

    const usedIds = new Set();
    for (let i = 0; i < o.count; i++) {
      const platform = weighted(o.platforms);
      const pm = PLATFORM_META[platform];
      let actionId;
      if (orgId === ORG_A && i === 7) actionId = SHARED_ACTION_ID;
      else if (orgId === ORG_B && i === 3) actionId = SHARED_ACTION_ID;
      else if (platform === 'TWITTER' || platform === 'DISCORD' || platform === 'YOUTUBE') actionId = digits(19);
      else if (platform === 'ZENDESK') actionId = digits(5 + Math.floor(rng() * 2));
      else if (platform === 'WHATSAPP' || platform === 'TELEGRAM') actionId = '000' + digits(6);
      else if (platform === 'GOOGLE_PLAY') actionId = 'gp:AOqpTO' + randomToken(rng, 12);
      else actionId = 'act_' + randomHex(rng, 16);
      if (usedIds.has(actionId)) { i--; continue; }
      usedIds.add(actionId);
      const topic = pick(TOPICS);
      const variant = Math.floor(rng() * 4);
      const vpick = (arr) => arr[variant % arr.length];
      const n = digits(5);
      const fill = (s) => s.replace('{n}', n).replace('{month}', pick(['March', 'October', 'November'])).replace('{v}', `4.${Math.floor(rng() * 9)}.${Math.floor(rng() * 5)}`);
      // time: 25% in last 7 days, rest spread over 90 days
      const ageMs = (i === 7 || i === 3) ? 2 * DAY + 3 * HOUR : (rng() < 0.25 ? between(0.1 * HOUR, 7 * DAY) : between(0, 89 * DAY));
      const created = nowMs - ageMs;
      const [recordType, isPublic] = pick(pm.types);
      const first = pick(FIRST), last = pick(LAST);
      const handle = (first + '_' + last.slice(0, 3) + Math.floor(rng() * 999)).toLowerCase();
      const userId = platform === 'TWITTER' || platform === 'DISCORD' ? digits(18) : platform === 'ZENDESK' ? digits(10) : platform === 'WHATSAPP' ? '+' + digits(11) : 'u_' + randomHex(rng, 10);
      const hasEmail = platform === 'ZENDESK' || (platform === 'WHATSAPP' && rng() < 0.4);
      const followers = platform === 'TWITTER' || platform === 'INSTAGRAM' || platform === 'YOUTUBE' ? Math.floor(rng() ** 3 * 50000) : null;
      ins.customer.run(orgId, userId, `${first} ${last}`, handle, hasEmail ? `${first}.${last}@mail.example`.toLowerCase() : null, followers);

      const ageDays = ageMs / DAY;
      let responded = rng() < (ageDays > 3 ? 0.88 : 0.6);
      const claimDelay = between(2 * MIN, 4 * HOUR), respDelay = between(1 * MIN, 40 * MIN);
      if (created + claimDelay + respDelay > nowMs - 2 * MIN) responded = false;
      if (i === 7 || i === 3) responded = true;
      let status;
      const cancelled = rng() < 0.05;
      if (cancelled) status = 'CANCELLED';
      else if (!responded) status = 'OPEN';
      else if (ageDays > 5) status = rng() < 0.92 ? 'CLOSED' : 'PENDING_CUSTOMER';
      else status = pick(['OPEN', 'ASSIGNED', 'PENDING_CUSTOMER', 'CLOSED']);
      const agent = responded || rng() < 0.3 ? pick(o.agents) : null;
      let claim = agent ? created + claimDelay : null;
      if (claim != null && claim > nowMs - MIN) claim = null;
      const respTime = responded ? (claim ?? created) + respDelay : null;
      const closed = (status === 'CLOSED' || status === 'CANCELLED') ? Math.min(nowMs - MIN, (respTime ?? created) + between(10 * MIN, 2 * DAY)) : null;
      const queue = rng() < 0.08 ? null : pick(o.queues)[0];
      const initialQueue = queue && rng() < 0.2 ? pick(o.queues)[0] : queue;
      const score = rng() < 0.9 ? Math.round(between(topic.range[0], topic.range[1]) * 1000) / 1000 : null;

      // messages
      const msgs = [];
      let t = created;
      const botAck = (platform === 'ZENDESK' || platform === 'WHATSAPP') && rng() < 0.6;
      const rootMsgId = platform === 'TWITTER' || platform === 'DISCORD' ? actionId : 'm_' + randomHex(rng, 12);
      msgs.push({ id: rootMsgId, ts: t, author: `${first} ${last}`, authorId: userId, type: 'USER', body: fill(vpick(topic.user)), parent: null, media: rng() < 0.12 ? [`https://media.cca-cdn.example/${orgId}/${randomHex(rng, 8)}.jpg`] : [] });
      if (botAck) { t += 5e3; msgs.push({ id: 'm_' + randomHex(rng, 12), ts: t, author: 'Acme Assistant', authorId: null, type: 'BOT', body: 'Thanks for reaching out! An agent will be with you shortly.', parent: rootMsgId, media: [] }); }
      if (responded) {
        t = respTime;
        msgs.push({ id: 'm_' + randomHex(rng, 12), ts: t, author: agent[1], authorId: agent[0], type: 'AGENT', body: fill(pick(topic.agent)), parent: rootMsgId, media: [] });
        const extra = Math.floor(rng() * 5);
        for (let k = 0; k < extra; k++) {
          t += between(2 * MIN, 3 * HOUR);
          if (t > nowMs - MIN) break;
          const isUser = k % 2 === 0;
          msgs.push({ id: 'm_' + randomHex(rng, 12), ts: t, author: isUser ? `${first} ${last}` : agent[1], authorId: isUser ? userId : agent[0], type: isUser ? 'USER' : 'AGENT', body: isUser ? pick(['Thanks, that worked.', 'Still not fixed, any update?', 'Ok, I will wait.', 'Here is the screenshot you asked for.']) : pick(['Glad to hear it!', 'Following up: the fix is live now.', 'Thanks, I have added this to the ticket.']), parent: msgs[msgs.length - 1].id, media: [] });
        }
      }
      const lastEvent = Math.max(t, claim ?? 0, closed ?? 0);
      const updated = lastEvent > created + 1000 ? Math.min(nowMs - 1000, lastEvent + between(0, 2 * HOUR)) : (rng() < 0.5 ? null : created + between(MIN, 6 * HOUR));
      const uc = msgs.filter(m => m.type === 'USER').length, ac = msgs.filter(m => m.type === 'AGENT').length;
      const csat = status === 'CLOSED' && rng() < 0.4 ? String(1 + Math.floor(between(score != null && score > 0 ? 2.5 : 0, 5))) : null;
      const seq = i + 1;
      insAction.run(
        orgId, actionId, seq, fill(vpick(topic.titles)),
        topic.summary.replace('{detail}', vpick(topic.details)).replace('{outcome}', responded ? pick(topic.outcomes) : 'has not replied yet'),
        status, platform, rng() < 0.08 ? null : recordType, isPublic ? 1 : 0,
        isPublic && pm.url ? pm.url(actionId, handle, n) : null,
        queue, initialQueue, sentimentLabel(score), score,
        rng() < 0.85 ? null : pick(['SAFE', 'FLAGGED_SPAM', 'FLAGGED_ABUSE', 'HIDDEN']),
        agent ? agent[0] : null, userId, iso(created), updated == null ? null : iso(updated), iso(created),
        respTime ? iso(respTime) : null, closed ? iso(closed) : null, claim ? iso(claim) : null,
        respTime ? Math.round((respTime - created) / 1000) : null,
        closed && claim ? Math.round((closed - claim) / 1000) : null,
        pick(pm.server.filter((s, k) => orgId === ORG_A ? !s.startsWith('Northbeam') || pm.server.length === 1 : s.startsWith('Northbeam') || pm.server.length === 1)), pick(pm.channel),
        csat, csat && rng() < 0.6 ? pick(['Quick and friendly.', 'Took too long to get an answer.', 'Agent was great!', 'Problem came back the next day.']) : null,
        responded ? Math.round(between(1.5, 5) * 10) / 10 : null,
        responded ? Math.round(between(0.3, 1) * 100) / 100 : null,
        responded && score != null ? Math.round(between(-0.2, 0.8) * 100) / 100 : null,
        responded ? Math.round(between(55, 98)) : null,
        msgs[0].body, platform === 'ZENDESK' ? `zd-${actionId}` : rootMsgId,
        rng() < 0.9 ? `${o.easy}-${1000 + seq}` : null,
        msgs.length, uc, ac,
      );
      msgs.forEach((m, k) => ins.msg.run(orgId, actionId, m.id, k, iso(m.ts), m.author, m.authorId, m.type, m.body, m.parent, JSON.stringify(m.media)));
      if (rng() < 0.15 && agent) ins.comment.run(orgId, actionId, 0, pick(['Customer is on the enterprise plan, prioritise.', 'Checked with finance, refund approved.', 'Possible duplicate of an earlier ticket.']), agent[0], rng() < 0.8 ? agent[1] : null);
      // tags
      if (rng() < 0.93) ins.actionTag.run(orgId, actionId, tagIds[topic.tag], 0);
      if (rng() < 0.5) ins.actionTag.run(orgId, actionId, tagIds[pick(PRODUCT_TAGS)], 0);
      if (score != null && score < -0.7 && rng() < 0.5) ins.actionTag.run(orgId, actionId, tagIds.Urgent, 0);
      if (rng() < 0.05) ins.actionTag.run(orgId, actionId, tagIds['Churn Risk'], 0);
      if (status === 'CLOSED' || status === 'CANCELLED') ins.actionTag.run(orgId, actionId, tagIds[status === 'CANCELLED' ? 'Duplicate' : pick(CLOSING_TAGS)], 1);
      // custom fields
      const prov = JSON.stringify({ source: 'classifier', model: 'cf-extract-3', recordedAt: iso(created + 30 * MIN) });
      if (orgId === ORG_A) {
        if (rng() < 0.4) ins.value.run(orgId, actionId, 'priority_level', JSON.stringify(pick(['low', 'medium', 'high', 'urgent'])), prov);
        if (topic.key === 'billing' && rng() < 0.5) ins.value.run(orgId, actionId, 'refund_amount', JSON.stringify(Math.round(between(5, 400) * 100) / 100), prov);
        if (rng() < 0.1) ins.value.run(orgId, actionId, 'is_vip', 'true', null);
        if (rng() < 0.2) ins.value.run(orgId, actionId, 'product_areas', JSON.stringify([pick(['checkout', 'mobile', 'dashboard', 'api', 'shipping'])]), prov);
      } else if (rng() < 0.5) {
        ins.value.run(orgId, actionId, 'region', JSON.stringify(pick(['EU', 'NA', 'SEA', 'LATAM'])), null);
      }
    }
  }
  db.exec('COMMIT');
}

function randomHex(rng, n) { let s = ''; while (s.length < n) s += Math.floor(rng() * 16).toString(16); return s; }
function randomToken(rng, n) { const a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-'; let s = ''; while (s.length < n) s += a[Math.floor(rng() * a.length)]; return s; }
