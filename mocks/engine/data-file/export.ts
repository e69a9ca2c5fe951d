/**
 * `GET /__mock/data`: the current state in the data file format, so a state reached by clicking
 * through an app can be saved and loaded again (`PUT /__mock/data`, `cca-kit mock --data`). Times
 * are absolute; derived values (counts, responded, durations, metrics) are left to be derived again.
 */
import { NULL_INDEX } from '../../../fixtures/generate/table.ts';
import { keyStatus } from '../auth/index.ts';
import { ingestedActionId, threadIdOf } from '../ingestion/index.ts';
import { statusOf } from '../moderation/status.ts';
import { scoresOf } from '../records/analytics.ts';
import type { OrgData } from '../records/state.ts';
import { actionDetail, actionSummary } from '../records/view.ts';
import type { EngineState } from '../state.ts';
import { deliveredReplyMessages, exportReplyRequests } from './replies.ts';
import type {
  DataFile,
  DataFileAction,
  DataFileIngestionBatch,
  DataFileKey,
  DataFileMessage,
  DataFileModerationCase,
  DataFileOrganization,
} from './types.ts';

const iso = (ms: number): string => new Date(ms).toISOString();

type Defined<T> = Exclude<T, undefined>;

/**
 * The whole state as a data file.
 *
 * @example
 * const file = exportDataFile(engine.state);
 * createEngine({ data: file }); // the same records, keys and cases
 */
export function exportDataFile(state: EngineState): DataFile {
  const now = state.data.clock.now();
  const fromIngestion = ingestionActionIds(state);
  const replyMessages = deliveredReplyMessages(state);
  const organizations: DataFileOrganization[] = [];
  const actions: DataFileAction[] = [];
  for (const [id, org] of state.data.orgs) {
    organizations.push(organizationOf(org, state.organizations.get(id)?.moderationMode ?? 'standard'));
    for (let position = 0; position < org.byCreated.size; position++) {
      const row = org.byCreated.rowAt(position);
      const action = actionOf(org, row);
      if (!fromIngestion.has(JSON.stringify([id, action.actionId])))
        actions.push(withoutReplies(action, replyMessages));
    }
  }
  // By hash only: an export is a backup, and a backup holds no key a client could present.
  const keys: DataFileKey[] = [...state.keys.byHash.values()].map((k) => ({
    keyHash: k.keyHash,
    organizationId: k.organizationId,
    name: k.name,
    profile: k.profile,
    status: keyStatus(k, now),
    expiresAt: k.expiresAt === null ? null : iso(k.expiresAt),
  }));
  return {
    version: 1,
    organizations,
    keys,
    actions,
    moderationCases: moderationCasesOf(state),
    ingestionBatches: ingestionBatchesOf(state),
    replyRequests: exportReplyRequests(state),
  };
}

/** The action without the messages delivered reply requests carry (loading delivers them again). */
function withoutReplies(action: DataFileAction, replyMessages: ReadonlySet<string>): DataFileAction {
  if (replyMessages.size === 0) return action;
  const keep = (m: DataFileMessage): boolean =>
    !replyMessages.has(JSON.stringify([action.organizationId, action.actionId, m.id]));
  return {
    ...action,
    ...(action.messages === undefined ? {} : { messages: action.messages.filter(keep) }),
    ...(action.conversation === undefined ? {} : { conversation: action.conversation.filter(keep) }),
  };
}

function organizationOf(org: OrgData, moderationMode: 'ad_policy' | 'standard'): DataFileOrganization {
  const c = org.catalog;
  return {
    id: c.organization.id,
    name: c.organization.name,
    moderationMode,
    agents: c.agents.map((a) => ({ ...a })),
    queues: c.queues.map((q) => ({ ...q })),
    tagGroups: [...new Set([...c.tags, ...c.closingTags].map((t) => t.group))],
    tags: c.tags.map((t) => ({ ...t })),
    closingTags: c.closingTags.map((t) => ({ ...t })),
    customFields: c.customFields.map((f) => ({
      name: f.name,
      displayName: f.displayName,
      type: f.type,
      ...(f.options === undefined ? {} : { options: [...f.options] }),
    })),
  };
}

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);

function messagesOf(value: unknown, threaded: boolean): DataFileMessage[] {
  const list = Array.isArray(value) ? (value as Record<string, unknown>[]) : [];
  return list.map((m) => ({
    id: String(m['id']),
    timestamp: String(m['timestamp']),
    author: String(m['author']),
    ...(m['authorId'] === undefined ? {} : { authorId: str(m['authorId']) }),
    authorType: m['authorType'] as DataFileMessage['authorType'],
    message: String(m['message']),
    mediaUrls: Array.isArray(m['mediaUrls']) ? (m['mediaUrls'] as string[]) : [],
    ...(threaded ? { parentMessageId: str(m['parentMessageId']) } : {}),
  }));
}

function actionOf(org: OrgData, row: number): DataFileAction {
  const t = org.table;
  const d = actionDetail(org, row);
  const s = actionSummary(org, row, false);
  const user = d['user'] as Record<string, unknown>;
  const queueId = (column: Int16Array): string | null =>
    org.catalog.queues[column[row] ?? NULL_INDEX]?.id ?? null;
  const tagIds = (closing: boolean): string[] =>
    t.tagsOf(row, closing).flatMap((k) => {
      const tag = (closing ? org.catalog.closingTags : org.catalog.tags)[k];
      return tag === undefined ? [] : [tag.id];
    });
  const ingested = org.ingested.get(row);
  const scores = scoresOf(org, row);
  return {
    organizationId: org.catalog.organization.id,
    actionId: String(d['actionId']),
    title: String(d['actionTitle']),
    summary: String(d['actionSummary']),
    status: d['status'] as Defined<DataFileAction['status']>,
    platform: String(d['platform']),
    recordType: str(d['recordType']),
    isPublicPost: d['isPublicPost'] === true,
    sourceURL: str(d['sourceURL']),
    ...(ingested === undefined ? {} : { serverId: ingested.serverId }),
    serverName: String(d['serverName']),
    channelName: String(d['channelName']),
    queue: queueId(t.queue),
    initialQueue: queueId(t.initialQueue),
    assignee: org.catalog.agents[t.assignee[row] ?? NULL_INDEX]?.userId ?? null,
    sentiment: d['sentiment'] as Defined<DataFileAction['sentiment']>,
    sentimentScore: d['sentimentScore'] as number | null,
    moderation: d['moderation'] as Defined<DataFileAction['moderation']>,
    user: {
      userId: String(user['userId']),
      name: String(user['name']),
      username: String(user['username']),
      email: str(user['email']),
      followerCount: typeof user['followerCount'] === 'number' ? user['followerCount'] : null,
    },
    createdAt: String(d['createdAt']),
    updatedAt: str(d['updatedAt']),
    claimTime: str(d['claimTime']),
    closeTime: str(d['closeTime']),
    csatScore: d['csatScore'] as Defined<DataFileAction['csatScore']>,
    csatFeedback: str(d['csatFeedback']),
    estimatedCSAT: d['estimatedCSAT'] as number | null,
    ...(scores === undefined ? {} : { scores }),
    tags: tagIds(false),
    closingTags: tagIds(true),
    customFields: s['customFields'] as Record<string, unknown>,
    messages: messagesOf(d['messages'], false),
    ...(d['conversation'] === undefined ? {} : { conversation: messagesOf(d['conversation'], true) }),
    comments: (d['comments'] as Defined<DataFileAction['comments']>) ?? [],
    rootMessageText: str(d['rootMessageText']),
  };
}

function moderationCasesOf(state: EngineState): DataFileModerationCase[] {
  return [...state.moderation.byCaseId.values()].map((c) => {
    const status = statusOf(state.moderation, c);
    const base = {
      organizationId: c.organizationId,
      caseId: c.caseId,
      submission: JSON.parse(c.submissionJson) as DataFileModerationCase['submission'],
      acceptedAt: iso(c.acceptedAt),
      ...(status.evaluationId === undefined ? {} : { evaluationId: status.evaluationId }),
    };
    if (status.analysisStatus === 'completed' && status.decision !== undefined)
      return { ...base, analysisStatus: 'completed', decision: { ...status.decision } };
    if (status.analysisStatus === 'failed')
      return { ...base, analysisStatus: 'failed', failureCode: status.failureCode ?? 'UNKNOWN' };
    // policy_not_configured is a property of the organization, not of a case: exported as pending.
    return { ...base, analysisStatus: status.analysisStatus === 'running' ? 'running' : 'pending' };
  });
}

/** Ids of the actions ingestion built (they come back from `ingestionBatches`, not `actions`). */
function ingestionActionIds(state: EngineState): Set<string> {
  const ids = new Set<string>();
  for (const stored of state.ingestion.records.values()) {
    const { organizationId, platform, serverId } = stored.identity;
    ids.add(
      JSON.stringify([
        organizationId,
        ingestedActionId({ platform, serverId, threadExternalId: threadIdOf(stored) }),
      ]),
    );
  }
  return ids;
}

function ingestionBatchesOf(state: EngineState): DataFileIngestionBatch[] {
  return [...state.ingestion.records.values()].map((stored) => ({
    organizationId: stored.identity.organizationId,
    platform: stored.identity.platform,
    serverId: stored.identity.serverId,
    serverName: stored.origin.serverName,
    ...(stored.origin.channelId === null ? {} : { channelId: stored.origin.channelId }),
    ...(stored.origin.channelName === null ? {} : { channelName: stored.origin.channelName }),
    processingLevel: stored.origin.processingLevel,
    ...(stored.origin.sourceSystem === null
      ? {}
      : {
          source: {
            system: stored.origin.sourceSystem,
            ...(stored.origin.sourceId === null ? {} : { sourceId: stored.origin.sourceId }),
          },
        }),
    records: [{ ...stored.record }],
  }));
}
