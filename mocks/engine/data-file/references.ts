/**
 * The checks JSON Schema cannot express: references between parts of a data file (and, for a merge,
 * the state it merges into), uniqueness of ids, timestamps, custom-field values against their
 * registered type, and the moderation and ingestion bodies against the contract's own schemas.
 */
import type { OrgCatalog } from '../../../fixtures/generate/types.ts';
import { type SchemaName, validateSchema } from '../../../src/contract/index.ts';
import { ingestedActionId } from '../ingestion/to-action.ts';
import { typeError } from '../records/custom-fields.ts';
import { TERMINAL_STATES } from '../replies/model.ts';
import { mergeCatalog } from './catalog.ts';
import { keyHashOfEntry } from './key-hashes.ts';
import { resolveTimestamp } from './time.ts';
import type { DataFile, DataFileAction, DataFileMessage, DataProblem } from './types.ts';

/** What a file may refer to besides itself: the state it is merged into (empty for a replace). */
export interface ExistingState {
  readonly catalogs: ReadonlyMap<string, OrgCatalog>;
  /** Key hash (`keyHashOf`) to organization id. */
  readonly keys: ReadonlyMap<string, string>;
  readonly caseIds: ReadonlySet<string>;
  /** `JSON.stringify([organizationId, externalId])` of existing moderation cases. */
  readonly externalIds: ReadonlySet<string>;
  /** `JSON.stringify([organizationId, requestId])` of existing reply requests. */
  readonly replyIds?: ReadonlySet<string>;
  /** Whether the state has this action (a reply request may answer one the file does not list). */
  readonly hasAction?: (organizationId: string, actionId: string) => boolean;
}

export const NOTHING_EXISTS: ExistingState = {
  catalogs: new Map(),
  keys: new Map(),
  caseIds: new Set(),
  externalIds: new Set(),
};

/**
 * A contract component check. A validator that cannot be built is not a problem of the user's file, and
 * the check must not crash on it, so it reports none.
 */
function componentProblems(name: SchemaName, value: unknown, at: string): DataProblem[] {
  try {
    const result = validateSchema(name, value);
    return result.ok
      ? []
      : result.issues.map((issue) => ({ pointer: `${at}${issue.pointer}`, message: issue.message }));
  } catch {
    return [];
  }
}

/** JSON pointer escaping of one reference token (RFC 6901). */
const token = (value: string): string => value.replaceAll('~', '~0').replaceAll('/', '~1');

export function referenceProblems(file: DataFile, existing: ExistingState, anchor: number): DataProblem[] {
  const problems: DataProblem[] = [];
  const problem = (pointer: string, message: string): void => {
    problems.push({ pointer, message });
  };
  const catalogs = new Map(existing.catalogs);
  const seenOrgs = new Set<string>();
  file.organizations.forEach((org, i) => {
    const at = `/organizations/${i}`;
    if (seenOrgs.has(org.id)) problem(`${at}/id`, `organization ${JSON.stringify(org.id)} is listed twice`);
    seenOrgs.add(org.id);
    const base = catalogs.get(org.id);
    const groups = new Set([...(org.tagGroups ?? []), ...(base?.tags ?? []).map((t) => t.group)]);
    for (const g of base?.closingTags ?? []) groups.add(g.group);
    const unique = <T>(list: readonly T[] | undefined, name: string, id: (item: T) => string): void => {
      const seen = new Set<string>();
      (list ?? []).forEach((item, k) => {
        const value = id(item);
        if (seen.has(value)) problem(`${at}/${name}/${k}`, `${JSON.stringify(value)} is listed twice`);
        seen.add(value);
      });
    };
    unique(org.agents, 'agents', (a) => a.userId);
    unique(org.queues, 'queues', (q) => q.id);
    unique(org.tags, 'tags', (t) => t.id);
    unique(org.closingTags, 'closingTags', (t) => t.id);
    unique(org.customFields, 'customFields', (f) => f.name);
    for (const name of ['tags', 'closingTags'] as const) {
      (org[name] ?? []).forEach((tag, k) => {
        if (!groups.has(tag.group))
          problem(`${at}/${name}/${k}/group`, `tag group ${JSON.stringify(tag.group)} is not in tagGroups`);
      });
    }
    (org.customFields ?? []).forEach((field, k) => {
      if (field.type === 'single_select' && field.options === undefined)
        problem(`${at}/customFields/${k}/options`, 'a single_select field needs options');
      if (field.type !== 'single_select' && field.options !== undefined)
        problem(`${at}/customFields/${k}/options`, 'only a single_select field has options');
    });
    catalogs.set(org.id, mergeCatalog(base, org));
  });

  const orgRef = (pointer: string, id: string): OrgCatalog | undefined => {
    const catalog = catalogs.get(id);
    if (catalog === undefined) problem(pointer, `organization ${JSON.stringify(id)} is not defined`);
    return catalog;
  };
  const time = (pointer: string, value: string | null | undefined): void => {
    if (typeof value === 'string' && resolveTimestamp(value, anchor) === null)
      problem(
        pointer,
        `${JSON.stringify(value)} is not an ISO 8601 timestamp with a zone nor an offset like -2d`,
      );
  };

  const keyHashes = new Set<string>();
  (file.keys ?? []).forEach((key, i) => {
    const at = `/keys/${i}`;
    const field = `${at}/${key.key === undefined ? 'keyHash' : 'key'}`;
    orgRef(`${at}/organizationId`, key.organizationId);
    const hash = keyHashOfEntry(key);
    if (keyHashes.has(hash)) problem(field, 'this key is listed twice (by value or by hash)');
    keyHashes.add(hash);
    const owner = existing.keys.get(hash);
    if (owner !== undefined && owner !== key.organizationId)
      problem(field, `this key belongs to organization ${JSON.stringify(owner)} already`);
    time(`${at}/expiresAt`, key.expiresAt);
  });

  const actionIds = new Set<string>();
  (file.actions ?? []).forEach((action, i) => {
    const at = `/actions/${i}`;
    const catalog = orgRef(`${at}/organizationId`, action.organizationId);
    const id = JSON.stringify([action.organizationId, action.actionId]);
    if (actionIds.has(id))
      problem(
        `${at}/actionId`,
        `action ${JSON.stringify(action.actionId)} is listed twice in its organization`,
      );
    actionIds.add(id);
    for (const field of ['createdAt', 'updatedAt', 'claimTime', 'closeTime'] as const)
      time(`${at}/${field}`, action[field]);
    messageProblems(action.messages, `${at}/messages`, time, problem);
    messageProblems(action.conversation, `${at}/conversation`, time, problem);
    if (catalog !== undefined) actionReferenceProblems(action, at, catalog, problem);
  });

  const caseIds = new Set<string>();
  const externalIds = new Set<string>();
  (file.moderationCases ?? []).forEach((entry, i) => {
    const at = `/moderationCases/${i}`;
    orgRef(`${at}/organizationId`, entry.organizationId);
    if (caseIds.has(entry.caseId) || existing.caseIds.has(entry.caseId))
      problem(`${at}/caseId`, `case ${JSON.stringify(entry.caseId)} exists already`);
    caseIds.add(entry.caseId);
    time(`${at}/acceptedAt`, entry.acceptedAt);
    problems.push(...componentProblems('ModerationSubmission', entry.submission, `${at}/submission`));
    const externalId = entry.submission['externalId'];
    if (typeof externalId === 'string') {
      const key = JSON.stringify([entry.organizationId, externalId]);
      if (externalIds.has(key) || existing.externalIds.has(key))
        problem(`${at}/submission/externalId`, `externalId ${JSON.stringify(externalId)} has a case already`);
      externalIds.add(key);
    }
    if (entry.analysisStatus === 'completed') {
      problems.push(...componentProblems('ModerationDecision', entry.decision, `${at}/decision`));
    }
  });

  (file.ingestionBatches ?? []).forEach((batch, i) => {
    const at = `/ingestionBatches/${i}`;
    orgRef(`${at}/organizationId`, batch.organizationId);
    const { organizationId: _org, ...body } = batch;
    problems.push(...componentProblems('IngestionBatch', body, at));
  });
  // Actions the file's ingestion batches build (INSIGHTS threads) may be answered too.
  // forEach, not for-of: a list may be sparse (entries that broke the schema are left out).
  (file.ingestionBatches ?? []).forEach((batch) => {
    if (batch.processingLevel === 'STATS_ONLY') return;
    for (const record of batch.records) {
      const thread = record['threadExternalId'] ?? record['externalId'];
      if (typeof thread !== 'string') continue;
      const id = ingestedActionId({
        platform: batch.platform,
        serverId: batch.serverId,
        threadExternalId: thread,
      });
      actionIds.add(JSON.stringify([batch.organizationId, id]));
    }
  });
  replyProblems(file, existing, actionIds, anchor, orgRef, time, problem);
  return problems;
}

/** Reply requests: their organization, an action to answer, unique ids, times in order. */
function replyProblems(
  file: DataFile,
  existing: ExistingState,
  actionIds: ReadonlySet<string>,
  anchor: number,
  orgRef: (pointer: string, id: string) => OrgCatalog | undefined,
  time: (pointer: string, value: string | null | undefined) => void,
  problem: (pointer: string, message: string) => void,
): void {
  const seen = new Set<string>();
  (file.replyRequests ?? []).forEach((reply, i) => {
    const at = `/replyRequests/${i}`;
    const catalog = orgRef(`${at}/organizationId`, reply.organizationId);
    const id = JSON.stringify([reply.organizationId, reply.requestId]);
    if (seen.has(id) || existing.replyIds?.has(id) === true)
      problem(
        `${at}/requestId`,
        `reply request ${JSON.stringify(reply.requestId)} exists already in its organization`,
      );
    seen.add(id);
    const action = JSON.stringify([reply.organizationId, reply.actionId]);
    if (
      catalog !== undefined &&
      !actionIds.has(action) &&
      existing.hasAction?.(reply.organizationId, reply.actionId) !== true
    )
      problem(
        `${at}/actionId`,
        `no action ${JSON.stringify(reply.actionId)} in organization ${JSON.stringify(reply.organizationId)}`,
      );
    time(`${at}/createdAt`, reply.createdAt);
    time(`${at}/updatedAt`, reply.updatedAt);
    const created = resolveTimestamp(reply.createdAt ?? reply.updatedAt ?? 'now', anchor);
    const updated = reply.updatedAt === undefined ? created : resolveTimestamp(reply.updatedAt, anchor);
    if (created !== null && updated !== null && updated < created)
      problem(`${at}/updatedAt`, 'is before createdAt');
    if (reply.plannedOutcome !== undefined && TERMINAL_STATES.has(reply.state))
      problem(`${at}/plannedOutcome`, `a ${reply.state} request is settled: it has no planned outcome`);
  });
}

function messageProblems(
  messages: readonly DataFileMessage[] | undefined,
  at: string,
  time: (pointer: string, value: string | null | undefined) => void,
  problem: (pointer: string, message: string) => void,
): void {
  const ids = new Set<string>();
  (messages ?? []).forEach((m, k) => {
    time(`${at}/${k}/timestamp`, m.timestamp);
    if (ids.has(m.id)) problem(`${at}/${k}/id`, `message ${JSON.stringify(m.id)} is listed twice`);
    ids.add(m.id);
  });
  (messages ?? []).forEach((m, k) => {
    if (typeof m.parentMessageId === 'string' && !ids.has(m.parentMessageId))
      problem(`${at}/${k}/parentMessageId`, `no message ${JSON.stringify(m.parentMessageId)} in this list`);
  });
}

function actionReferenceProblems(
  action: DataFileAction,
  at: string,
  catalog: OrgCatalog,
  problem: (pointer: string, message: string) => void,
): void {
  const org = JSON.stringify(catalog.organization.id);
  for (const field of ['queue', 'initialQueue'] as const) {
    const id = action[field];
    if (typeof id === 'string' && !catalog.queues.some((q) => q.id === id))
      problem(`${at}/${field}`, `no queue ${JSON.stringify(id)} in organization ${org}`);
  }
  const assignee = action.assignee;
  if (typeof assignee === 'string' && !catalog.agents.some((a) => a.userId === assignee))
    problem(`${at}/assignee`, `no agent ${JSON.stringify(assignee)} in organization ${org}`);
  (action.tags ?? []).forEach((id, k) => {
    if (!catalog.tags.some((t) => t.id === id))
      problem(`${at}/tags/${k}`, `no tag ${JSON.stringify(id)} in organization ${org}`);
  });
  (action.closingTags ?? []).forEach((id, k) => {
    if (!catalog.closingTags.some((t) => t.id === id))
      problem(`${at}/closingTags/${k}`, `no closing tag ${JSON.stringify(id)} in organization ${org}`);
  });
  for (const [name, value] of Object.entries(action.customFields ?? {})) {
    const pointer = `${at}/customFields/${token(name)}`;
    const field = catalog.customFields.find((f) => f.name === name);
    if (field === undefined) {
      problem(pointer, `${JSON.stringify(name)} is not a custom field of organization ${org}`);
      continue;
    }
    const error = typeError(field, value);
    if (error !== null) problem(pointer, error);
  }
}
