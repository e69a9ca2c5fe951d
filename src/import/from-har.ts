/**
 * `cca-kit import`: recorded answers become a data file. Actions from list, search and detail answers
 * merged by id (per organization), agents and queues from their answers and from the actions'
 * assignee and queue fields, tags from tag analytics, custom fields from custom-field reads,
 * moderation cases from status reads (with their submission when the recording has it). One
 * organization per recorded key (several keys that read the same organization's actions, as the
 * `serviceURL` shows, share one), with fresh keys of every profile: recorded keys are never kept.
 * What could not be derived is said in `notes`.
 */
import { randomBytes } from 'node:crypto';
import type { Har } from 'har-format';
import { PLATFORMS } from '../../fixtures/generate/types.ts';
import type {
  DataFile,
  DataFileAction,
  DataFileAgent,
  DataFileCustomField,
  DataFileKey,
  DataFileMessage,
  DataFileModerationCase,
  DataFileOrganization,
  DataFileTag,
} from '../../mocks/engine/data-file/types.ts';
import { type RecordedCall, recordedCalls } from './read-har.ts';

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

interface OrgDraft {
  id: string;
  moderationMode: 'ad_policy' | 'standard' | null;
  readonly actions: Map<string, { summary: Obj; detail: Obj | null }>;
  readonly agents: Map<string, DataFileAgent>;
  readonly queues: Map<string, string>;
  readonly tags: Map<string, DataFileTag>;
  readonly closingTags: Map<string, DataFileTag>;
  readonly fields: Map<string, DataFileCustomField>;
  readonly fieldValues: Map<string, Obj>;
  readonly cases: Map<string, DataFileModerationCase>;
  readonly submissions: Map<string, Obj>;
}

const newOrg = (id: string): OrgDraft => ({
  id,
  moderationMode: null,
  actions: new Map(),
  agents: new Map(),
  queues: new Map(),
  tags: new Map(),
  closingTags: new Map(),
  fields: new Map(),
  fieldValues: new Map(),
  cases: new Map(),
  submissions: new Map(),
});

const SERVICE_URL_ORG = /\/([^/]+)\/actions\/[^/]+$/;

/** The organization id a recorded key read, from an action's serviceURL when it shows one. */
function organizationIdOf(calls: readonly RecordedCall[], key: string, fallback: string): string {
  for (const call of calls) {
    if (call.key !== key || call.status !== 200) continue;
    const items = [...arr(obj(call.responseBody)['data']), call.responseBody];
    for (const item of items) {
      const url = str(obj(item)['serviceURL']);
      const m = url === null ? null : SERVICE_URL_ORG.exec(url);
      if (m?.[1] !== undefined) {
        try {
          return decodeURIComponent(m[1]);
        } catch {
          return m[1];
        }
      }
    }
  }
  return fallback;
}

function mergeAction(org: OrgDraft, item: Obj, detail: boolean): void {
  const id = str(item['actionId']);
  if (id === null) return;
  const entry = org.actions.get(id) ?? { summary: {}, detail: null };
  if (detail) entry.detail = item;
  else entry.summary = { ...entry.summary, ...item };
  org.actions.set(id, entry);
}

function readCall(org: OrgDraft, call: RecordedCall): void {
  const body = obj(call.responseBody);
  const segments = call.path.split('/').filter((s) => s !== '');
  const [, first, second, third] = segments;
  if (call.method === 'POST' && first === 'moderation' && second === 'cases') {
    if (call.status === 202) org.moderationMode = 'ad_policy';
    if (call.status === 403 && arr(body['supported']).includes('ad_policy')) org.moderationMode = 'standard';
    const submissions =
      second === 'cases' && third === 'batch' ? arr(obj(call.requestBody)['cases']) : [call.requestBody];
    for (const s of submissions) {
      const externalId = str(obj(s)['externalId']);
      if (externalId !== null) org.submissions.set(externalId, obj(s));
    }
    return;
  }
  if (call.status !== 200) return;
  if (first === 'action' && second === 'list')
    for (const item of arr(body['data'])) mergeAction(org, obj(item), false);
  else if (first === 'conversations' && second === 'search')
    for (const item of arr(body['data'])) mergeAction(org, obj(item), false);
  else if (first === 'action' && second !== undefined) mergeAction(org, body, true);
  else if (first === 'agents' && second === undefined)
    for (const item of arr(body['data'])) {
      const id = str(obj(item)['agentId']);
      if (id !== null && !org.agents.has(id))
        org.agents.set(id, { userId: id, name: '', email: '', role: '' });
    }
  else if (first === 'queues')
    for (const item of arr(body['data'])) {
      const id = str(obj(item)['queueId']);
      const name = str(obj(item)['queueName']);
      if (id !== null && name !== null) org.queues.set(id, name);
    }
  else if (first === 'analytics' && second === 'tags' && third === undefined)
    for (const item of arr(obj(body['data'])['tagBreakdown'])) {
      const t = obj(item);
      const id = str(t['tagId']);
      const value = str(t['tagName']);
      if (id !== null && value !== null)
        org.tags.set(id, { id, value, group: str(t['groupName']) ?? 'Tags' });
    }
  else if (first === 'actions' && third === 'custom-fields' && second !== undefined) {
    const values: Obj = {};
    for (const item of arr(body['fields'])) {
      const f = obj(item);
      const name = str(f['fieldName']);
      const type = str(f['fieldType']);
      if (name === null || type === null || type === 'unregistered') continue;
      if (FIELD_TYPES.has(type) && !org.fields.has(name))
        org.fields.set(name, {
          name,
          displayName: str(f['displayName']) ?? name,
          type: type as DataFileCustomField['type'],
        });
      if (f['value'] !== null && f['value'] !== undefined) values[name] = f['value'];
    }
    org.fieldValues.set(str(body['actionId']) ?? second, values);
  } else if (first === 'moderation' && second === 'cases' && third !== undefined) readCase(org, body);
}

const FIELD_TYPES = new Set(['text', 'number', 'boolean', 'single_select', 'date', 'json']);

function readCase(org: OrgDraft, body: Obj): void {
  const caseId = str(body['caseId']);
  const externalId = str(body['externalId']);
  const status = str(body['analysisStatus']);
  if (caseId === null || externalId === null) return;
  const submission = { externalId };
  const base = { organizationId: org.id, caseId, submission };
  if (status === 'completed')
    org.cases.set(caseId, { ...base, analysisStatus: 'completed', decision: obj(body['decision']) });
  else if (status === 'failed')
    org.cases.set(caseId, {
      ...base,
      analysisStatus: 'failed',
      failureCode: str(body['failureCode']) ?? 'UNKNOWN',
    });
  else if (status === 'pending' || status === 'running')
    org.cases.set(caseId, { ...base, analysisStatus: status });
}

/** The submission a case needs: the recorded one, else a placeholder valid against the contract. */
function placeholderSubmission(externalId: string): Obj {
  return {
    externalId,
    sourceSystem: 'cca-kit-import',
    sourcePlatform: 'unknown',
    sourceAdId: externalId,
    advertiserName: 'not recorded',
    market: 'unknown',
    placement: 'unknown',
    landingPageUrl: null,
    title: 'not recorded',
    media: [{ url: 'https://example.invalid/not-recorded.png', type: 'image', position: 1 }],
    attachment: { type: 'web_view', destinationUrl: null },
    targeting: { ageMin: null, geos: ['US'] },
    copy: {},
  };
}

function messagesOf(value: unknown, threaded: boolean): DataFileMessage[] {
  return arr(value).map((raw) => {
    const m = obj(raw);
    const authorId = m['authorId'];
    return {
      id: String(m['id']),
      timestamp: String(m['timestamp']),
      author: String(m['author'] ?? ''),
      ...(typeof authorId === 'string' || authorId === null ? { authorId } : {}),
      authorType: (['USER', 'AGENT', 'BOT'].includes(String(m['authorType']))
        ? m['authorType']
        : 'USER') as DataFileMessage['authorType'],
      message: String(m['message'] ?? ''),
      mediaUrls: arr(m['mediaUrls']).filter((u): u is string => typeof u === 'string'),
      ...(threaded ? { parentMessageId: str(m['parentMessageId']) } : {}),
    };
  });
}

function tagIds(org: OrgDraft, tags: unknown, notes: Set<string>, closing: boolean): string[] {
  const catalog = closing ? org.closingTags : org.tags;
  return arr(tags).flatMap((raw) => {
    const t = obj(raw);
    const value = str(t['value']);
    const group = str(t['group']) ?? 'Tags';
    if (value === null) return [];
    const known = [...catalog.values()].find((k) => k.value === value && k.group === group);
    if (known !== undefined) return [known.id];
    notes.add('Some tag ids were not in a recorded tag analytics answer: their value is used as id.');
    const id = value;
    if (!catalog.has(id)) catalog.set(id, { id, value, group });
    return [id];
  });
}

function queueIdOf(org: OrgDraft, name: unknown, notes: Set<string>): string | null {
  if (typeof name !== 'string') return null;
  for (const [id, queueName] of org.queues) if (queueName === name) return id;
  notes.add('Some queue ids were not in a recorded queue list: their name is used as id.');
  org.queues.set(name, name);
  return name;
}

function inferType(value: unknown): DataFileCustomField['type'] {
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'string') return /^\d{4}-\d{2}-\d{2}$/.test(value) ? 'date' : 'text';
  return 'json';
}

function actionOf(
  org: OrgDraft,
  id: string,
  summary: Obj,
  detail: Obj | null,
  notes: Set<string>,
): DataFileAction | null {
  const s = { ...summary, ...(detail ?? {}) };
  const platform = str(s['platform']);
  if (platform === null || !(PLATFORMS as readonly string[]).includes(platform)) {
    notes.add(
      `Actions on platforms outside the contract's enum were left out (e.g. ${JSON.stringify(platform)}).`,
    );
    return null;
  }
  const user = obj(detail?.['user']);
  const userId = str(user['userId']) ?? str(summary['userId']) ?? '';
  const assigneeId = str(obj(detail?.['assignee'])['userId']) ?? str(summary['assigneeUserId']);
  // An agent known only from the agent list (no name yet) takes the assignee fields of its actions.
  if (assigneeId !== null && (org.agents.get(assigneeId)?.name ?? '') === '') {
    const a = obj(detail?.['assignee']);
    org.agents.set(assigneeId, {
      userId: assigneeId,
      name: str(a['name']) ?? str(summary['assigneeName']) ?? assigneeId,
      email: str(a['email']) ?? str(summary['assigneeEmail']) ?? '',
      role: str(a['role']) ?? str(summary['assigneeRole']) ?? '',
    });
  }
  let messages: DataFileMessage[] = [];
  let conversation: DataFileMessage[] | undefined;
  if (detail !== null) {
    messages = messagesOf(detail['messages'], false);
    if (detail['conversation'] !== undefined) conversation = messagesOf(detail['conversation'], true);
  } else if (typeof summary['conversationJson'] === 'string') {
    try {
      conversation = messagesOf(JSON.parse(summary['conversationJson']), true);
      messages = conversation.map(({ parentMessageId: _p, ...m }) => m);
      notes.add(
        'Actions read only in lists with includeFullConversation: messages come from conversationJson.',
      );
    } catch {
      notes.add('An unreadable conversationJson was ignored.');
    }
  } else {
    notes.add(
      'Actions seen only in lists or searches (no detail read): their messages and comments are unknown, so message counts, the responded flag and response times derived by the mock differ from the recording.',
    );
  }
  const customFields = { ...obj(s['customFields']), ...(org.fieldValues.get(id) ?? {}) };
  for (const [name, value] of Object.entries(customFields)) {
    if (org.fields.has(name)) continue;
    notes.add('Some custom fields had no recorded definition: their type is inferred from a value.');
    org.fields.set(name, { name, displayName: name, type: inferType(value) });
  }
  const tags = tagIds(org, s['tags'], notes, false);
  if (tags.length > 4) notes.add('Actions with more than 4 tags keep their first 4 (the mock stores 4).');
  const closingTags = tagIds(org, s['closingTags'], notes, true);
  const csat = str(s['csatScore']);
  return {
    organizationId: org.id,
    actionId: id,
    title: String(s['actionTitle'] ?? ''),
    summary: String(s['actionSummary'] ?? ''),
    status: (['OPEN', 'PENDING', 'ESCALATED', 'CLOSED', 'CANCELLED'].includes(String(s['status']))
      ? s['status']
      : 'OPEN') as DataFileAction['status'] & string,
    platform,
    recordType: str(s['recordType']),
    isPublicPost: s['isPublicPost'] === true,
    sourceURL: str(s['sourceURL']),
    serverName: String(s['serverName'] ?? ''),
    channelName: String(s['channelName'] ?? ''),
    queue: queueIdOf(org, s['queue'], notes),
    initialQueue: queueIdOf(org, s['initialQueue'], notes),
    assignee: assigneeId,
    sentiment: (['Very Negative', 'Negative', 'Neutral', 'Positive'].includes(String(s['sentiment']))
      ? s['sentiment']
      : null) as DataFileAction['sentiment'] & (string | null),
    sentimentScore: num(s['sentimentScore']),
    moderation: (['approved', 'flagged', 'hidden'].includes(String(s['moderation']))
      ? s['moderation']
      : null) as DataFileAction['moderation'] & (string | null),
    user: {
      userId,
      name: str(user['name']) ?? str(summary['userName']) ?? '',
      username: str(user['username']) ?? str(summary['userUsername']) ?? '',
      email: str(user['email']) ?? str(summary['userEmail']),
      followerCount: num(user['followerCount'] ?? summary['userFollowerCount']),
    },
    createdAt: String(s['createdAt']),
    updatedAt: str(s['updatedAt']),
    claimTime: str(s['claimTime']),
    closeTime: str(s['closeTime']),
    csatScore: csat !== null && /^[1-5]$/.test(csat) ? (csat as '1') : null,
    csatFeedback: str(s['csatFeedback']),
    estimatedCSAT: num(s['estimatedCSAT']),
    tags: tags.slice(0, 4),
    closingTags: closingTags.slice(0, 2),
    customFields,
    messages,
    ...(conversation === undefined ? {} : { conversation }),
    comments: arr(detail?.['comments']).map((c) => ({
      text: String(obj(c)['text'] ?? ''),
      authorNativeId: String(obj(c)['authorNativeId'] ?? ''),
      authorNativeName: str(obj(c)['authorNativeName']),
    })),
    rootMessageText: str(s['rootMessageText']),
  };
}

const PROFILES = ['reporting', 'write', 'read_write', 'import'] as const;

/**
 * The data file of a recording.
 *
 * @example
 * const file = importHar(JSON.parse(await readFile('session.har', 'utf8')));
 * await writeFile('data.json', JSON.stringify(file, null, 2));
 */
export function importHar(har: Har, freshKey: (profile: string) => string = defaultKey): DataFile {
  const calls = recordedCalls(har);
  const notes = new Set<string>();
  const byKey = new Map<string, OrgDraft>();
  const orgs = new Map<string, OrgDraft>();
  for (const key of new Set(calls.map((c) => c.key))) {
    const id = organizationIdOf(calls, key, `org_recorded_${byKey.size + 1}`);
    const org = orgs.get(id) ?? newOrg(id);
    orgs.set(id, org);
    byKey.set(key, org);
  }
  for (const call of calls) {
    const org = byKey.get(call.key);
    if (org !== undefined) readCall(org, call);
  }
  const organizations: DataFileOrganization[] = [];
  const keys: DataFileKey[] = [];
  const actions: DataFileAction[] = [];
  const moderationCases: DataFileModerationCase[] = [];
  for (const org of orgs.values()) {
    for (const [id, { summary, detail }] of org.actions) {
      const action = actionOf(org, id, summary, detail, notes);
      if (action !== null) actions.push(action);
    }
    for (const c of org.cases.values()) {
      const externalId = String(c.submission['externalId']);
      const recorded = org.submissions.get(externalId);
      if (recorded === undefined)
        notes.add('Moderation cases whose submission was not recorded carry a placeholder submission.');
      moderationCases.push({ ...c, submission: recorded ?? placeholderSubmission(externalId) });
    }
    if (org.moderationMode === null)
      notes.add(`The recording does not show the moderation mode of ${org.id}: standard assumed.`);
    const tags = [...org.tags.values()];
    const closingTags = [...org.closingTags.values()];
    organizations.push({
      id: org.id,
      name: org.id,
      moderationMode: org.moderationMode ?? 'standard',
      agents: [...org.agents.values()].map((a) => ({
        ...a,
        name: a.name || a.userId,
        email: a.email || `${a.userId}@example.invalid`,
        role: a.role || 'agent',
      })),
      queues: [...org.queues].map(([id, name]) => ({ id, name })),
      tagGroups: [...new Set([...tags, ...closingTags].map((t) => t.group))],
      tags,
      closingTags,
      customFields: [...org.fields.values()].map((f) =>
        f.type === 'single_select' ? { ...f, type: 'text' as const } : f,
      ),
    });
    for (const profile of PROFILES)
      keys.push({ key: freshKey(profile), organizationId: org.id, profile, expiresAt: null });
  }
  if (organizations.some((o) => (o.customFields ?? []).length > 0))
    notes.add('single_select fields are imported as text (their options are not shown by the API).');
  notes.add(
    'serviceURL, easyId and the metrics no action field carries (resolution quality, sentiment change, rubric score) are derived by the mock, not imported.',
  );
  return { version: 1, organizations, keys, actions, moderationCases, notes: [...notes] };
}

function defaultKey(profile: string): string {
  return `cca_imported_${profile}_${randomBytes(12).toString('hex')}`;
}
