import type { Law } from '../../src/conformance/kit/law.ts';
import { agentLaws } from '../agent/index.ts';
import { agentFigures } from './agent-figures.ts';
import { agentWindowDateRules, windowEdgesInclusive } from './agents-window.ts';
import { authLaws } from './auth.ts';
import { conversationJsonOnRequest } from './conversation-json.ts';
import { customFieldLaws } from './custom-fields.ts';
import { docsLaws } from './docs.ts';
import { swaggerUiAssets } from './docs-assets.ts';
import { engagementUsers } from './engagement-users.ts';
import { figureMeans } from './figure-means.ts';
import { identityLaws } from './identity.ts';
import { rawPathCharacters } from './identity-raw-path.ts';
import { ingestionLaws } from './ingestion.ts';
import { ingestionActionLaws } from './ingestion-actions.ts';
import { ingestionIdentity } from './ingestion-identity.ts';
import { inputLaws } from './inputs.ts';
import { listCalendarDates } from './inputs-calendar.ts';
import { moderationLaws } from './moderation.ts';
import { moderationBatchNonObjectItems } from './moderation-batch-values.ts';
import { decisionsOfSensitiveContent } from './moderation-decisions.ts';
import { moderationMemberOrder } from './moderation-member-order.ts';
import { moderationExternalIdPerOrganization } from './moderation-organizations.ts';
import { moderationSettlesUnread } from './moderation-unread.ts';
import { pagingLaws } from './paging.ts';
import { listCountsAtEdges } from './paging-edges.ts';
import { searchFilter, searchPages } from './parameters-search.ts';
import { engagementPlatforms, tagAnalyticsParameters, tagVolumeParameters } from './parameters-tags.ts';
import { analyticsWindows } from './parameters-windows.ts';
import { readsAgree } from './reads-agree.ts';
import { otherReadsDateRules } from './reads-date-only.ts';
import { fullFilterNoRespondedDefault, legacyRespondedFalse } from './responded-default.ts';
import { responseTimesPaired } from './response-times.ts';
import { schemaLaws } from './schemas.ts';
import { searchQueueTermKeeps } from './search-queue-term.ts';
import { sentimentCounts } from './sentiment-counts.ts';
import { sentimentDays } from './sentiment-days.ts';
import { sentimentTagIsolation } from './sentiment-tag-isolation.ts';
import { sharedIds } from './shared-ids.ts';
import { statefulLaws } from './stateful.ts';
import { statusLaws } from './status.ts';
import { tagFiguresAgree } from './tag-figures.ts';
import { tagSearchIsolation } from './tag-search-isolation.ts';
import { tagVolumeKeepsListed, tagVolumeNamesTags } from './tag-volume-keeps.ts';
import { tagVolumeRespondedOnly } from './tag-volume-responded.ts';
import { windowOffsets } from './window-offsets.ts';
import { windowLaws } from './windows.ts';
import { workloadBuckets } from './workload-buckets.ts';

/** Every conformance law, in run order (cheap read-only groups first, writes and sequences last). */
export const allLaws: readonly Law[] = [
  ...docsLaws,
  swaggerUiAssets,
  ...schemaLaws,
  responseTimesPaired,
  conversationJsonOnRequest,
  ...authLaws,
  ...statusLaws,
  sharedIds,
  ...pagingLaws,
  listCountsAtEdges,
  ...windowLaws,
  fullFilterNoRespondedDefault,
  legacyRespondedFalse,
  agentWindowDateRules,
  windowEdgesInclusive,
  otherReadsDateRules,
  // Every listed parameter has an effect: group `parameters`.
  analyticsWindows,
  tagAnalyticsParameters,
  tagFiguresAgree,
  figureMeans,
  engagementUsers,
  tagVolumeParameters,
  tagVolumeKeepsListed,
  tagVolumeNamesTags,
  tagVolumeRespondedOnly,
  engagementPlatforms,
  searchFilter,
  searchQueueTermKeeps,
  searchPages,
  ...identityLaws,
  readsAgree,
  agentFigures,
  rawPathCharacters,
  sentimentTagIsolation,
  tagSearchIsolation,
  ...inputLaws,
  listCalendarDates,
  windowOffsets,
  sentimentDays,
  sentimentCounts,
  workloadBuckets,
  ...customFieldLaws,
  ...moderationLaws,
  moderationExternalIdPerOrganization,
  decisionsOfSensitiveContent,
  moderationMemberOrder,
  moderationBatchNonObjectItems,
  moderationSettlesUnread,
  ...ingestionLaws,
  ingestionIdentity,
  ...ingestionActionLaws,
  ...statefulLaws,
  // The agent interface (MCP, spec 4.18): group `agent`, `--skip agent` leaves it out.
  ...agentLaws,
];

/** The groups, in run order. */
export const GROUPS: readonly string[] = [...new Set(allLaws.map((l) => l.group))];

export function lawsOf(group: string): readonly Law[] {
  return allLaws.filter((l) => l.group === group);
}
