/**
 * Applies a checked data file to the engine state: organizations and their catalogs, keys, actions,
 * moderation cases, ingestion batches and reply requests. Only ever called with a file `checkDataFile` accepted
 * against the same state, so every reference resolves.
 */
import { createKey, KEY_PROFILES } from '../auth/index.ts';
import { ingestBatch, readBatch, takeDueThreads, threadToAction } from '../ingestion/index.ts';
import { canonicalJson, decide, fingerprintOfCanonical } from '../moderation/index.ts';
import { issueId, organizationSlot } from '../moderation/state.ts';
import type { Evaluation, ModerationCase, ModerationDecision } from '../moderation/types.ts';
import { rowChanged } from '../records/answer-cache.ts';
import { findRow, orgData, upsertIngestedAction } from '../records/index.ts';
import type { EngineState } from '../state.ts';
import type { KeyRecord } from '../types.ts';
import { loadAction } from './actions.ts';
import { mergeCatalog } from './catalog.ts';
import { keyHashOfEntry } from './key-hashes.ts';
import type { ExistingState } from './references.ts';
import { loadReplyRequests } from './replies.ts';
import { timestampOrThrow } from './time.ts';
import type { DataFile, DataFileKey, DataFileModerationCase } from './types.ts';

const DAY_MS = 86_400_000;

/** What a file loaded into `state` may refer to (its organizations, keys and cases). */
export function existingStateOf(state: EngineState): ExistingState {
  const keys = new Map<string, string>();
  for (const key of state.keys.byHash.values()) keys.set(key.keyHash, key.organizationId);
  const externalIds = new Set<string>();
  for (const c of state.moderation.byCaseId.values())
    externalIds.add(JSON.stringify([c.organizationId, c.externalId]));
  return {
    catalogs: new Map([...state.data.orgs].map(([id, org]) => [id, org.catalog])),
    keys,
    caseIds: new Set(state.moderation.byCaseId.keys()),
    externalIds,
    replyIds: new Set(
      [...state.replies.byOrganization].flatMap(([org, requests]) =>
        [...requests.keys()].map((requestId) => JSON.stringify([org, requestId])),
      ),
    ),
    hasAction: (organizationId, actionId) => {
      const org = state.data.orgs.get(organizationId);
      return org !== undefined && findRow(org, actionId) >= 0;
    },
  };
}

/** Loads a checked file into `state`; relative timestamps count from `anchor`. */
export function applyDataFile(state: EngineState, file: DataFile, anchor: number): void {
  for (const org of file.organizations) {
    const existed = state.data.orgs.has(org.id);
    const data = orgData(state.data, org.id);
    // Rows refer to catalog entries by index; merging keeps every index, so the rows stay right. The
    // organization's data object stays the same (overlays and caches are keyed by it); what rows show
    // may have changed (a renamed queue), so every remembered text and answer is forgotten.
    data.catalog = mergeCatalog(existed ? data.catalog : undefined, org);
    for (let row = 0; row < data.table.size; row++) rowChanged(data, row);
    state.organizations.set(org.id, data.catalog.organization);
  }
  for (const key of file.keys ?? []) {
    // A value given here (a file handed to the engine directly) is remembered, never kept in the state.
    if (key.key !== undefined) state.keys.values.remember(key.key);
    const record = keyRecord(key, anchor);
    state.keys.byHash.set(record.keyHash, record);
  }
  // Oldest first: each insert then lands at the end of the window indexes instead of shifting them.
  const actions = (file.actions ?? [])
    .map((action) => ({ action, at: timestampOrThrow(action.createdAt, anchor) }))
    .sort((x, y) => x.at - y.at);
  for (const { action } of actions) loadAction(state.data, action, anchor);
  for (const entry of file.moderationCases ?? []) loadCase(state, entry, anchor);
  loadBatches(state, file);
  loadReplyRequests(state, file, anchor);
  giveKeysToKeyless(state, file, anchor);
}

function keyRecord(key: DataFileKey, anchor: number): KeyRecord {
  const status = key.status ?? 'active';
  const expiresAt =
    key.expiresAt === null
      ? null
      : key.expiresAt !== undefined
        ? timestampOrThrow(key.expiresAt, anchor)
        : status === 'expired'
          ? anchor - DAY_MS
          : anchor + 90 * DAY_MS;
  return {
    keyHash: keyHashOfEntry(key),
    name: key.name ?? `${key.profile} key (data file)`,
    organizationId: key.organizationId,
    profile: key.profile,
    // An `expired` key whose expiry lies ahead is expired at the anchor instead.
    expiresAt:
      status === 'expired' && (expiresAt === null || expiresAt > anchor) ? anchor - DAY_MS : expiresAt,
    revoked: status === 'revoked',
  };
}

/** An organization of the file with no key at all gets one active key of every profile. */
function giveKeysToKeyless(state: EngineState, file: DataFile, anchor: number): void {
  const owners = new Set([...state.keys.byHash.values()].map((k) => k.organizationId));
  for (const org of file.organizations) {
    if (owners.has(org.id)) continue;
    for (const profile of KEY_PROFILES)
      createKey(
        state.keys,
        { organizationId: org.id, profile, expiry: 'none', name: `${profile} key` },
        anchor,
      );
  }
}

const DECISION_DEFAULTS = { title: null, decisionSource: 'model', failureCode: null, failureMessage: null };

function loadCase(state: EngineState, entry: DataFileModerationCase, anchor: number): void {
  const moderation = state.moderation;
  const slot = organizationSlot(moderation, entry.organizationId);
  const acceptedAt = timestampOrThrow(entry.acceptedAt ?? 'now', anchor);
  const submission = { ...entry.submission };
  const evaluation: Evaluation = {
    evaluationId: entry.evaluationId ?? issueId(moderation, 'ev'),
    workflowId: slot.workflow?.workflowId ?? null,
    createdAt: acceptedAt,
    outcome:
      entry.analysisStatus === 'completed'
        ? {
            analysisStatus: 'completed',
            decision: { ...DECISION_DEFAULTS, ...entry.decision } as unknown as ModerationDecision,
          }
        : entry.analysisStatus === 'failed'
          ? { analysisStatus: 'failed', failureCode: entry.failureCode }
          : decide(submission),
    // A loaded case stays in the state the file gives until the admin API steps it on.
    phase:
      entry.analysisStatus === 'pending'
        ? { name: 'pending', nextAt: null }
        : entry.analysisStatus === 'running'
          ? { name: 'running', startedAt: acceptedAt, nextAt: null }
          : { name: 'settled' },
  };
  const externalId = String(submission['externalId']);
  const canonical = canonicalJson(submission);
  const moderationCase: ModerationCase = {
    caseId: entry.caseId,
    organizationId: entry.organizationId,
    externalId,
    submissionJson: JSON.stringify(submission),
    canonical,
    fingerprint: fingerprintOfCanonical(canonical),
    acceptedAt,
    evaluations: [evaluation],
  };
  slot.byExternalId.set(externalId, moderationCase);
  moderation.byCaseId.set(entry.caseId, moderationCase);
}

/** Ingestion batches go through intake and are processed at once, as if sent and settled at load. */
function loadBatches(state: EngineState, file: DataFile): void {
  const batches = file.ingestionBatches ?? [];
  if (batches.length === 0) return;
  for (const { organizationId, ...body } of batches) {
    const read = readBatch(body);
    if (read.ok) ingestBatch(state.ingestion, organizationId, read.batch);
  }
  for (const thread of takeDueThreads(state.ingestion, Number.POSITIVE_INFINITY)) {
    if (thread.processingLevel !== 'STATS_ONLY')
      upsertIngestedAction(state.data, thread.organizationId, threadToAction(thread));
  }
}
