/**
 * The data file's TypeScript types (mocks/engine/data-file/types.ts, written by hand for readable docs)
 * name exactly the properties contract/data.schema.json declares, record kind by record kind. Each list
 * below must name every key of its type and no other (`satisfies Record<keyof T, true>`), and the test
 * holds it to the schema, so a property added on one side only fails here.
 */
import { describe, expect, it } from 'vitest';
import schema from '../contract/data.schema.json' with { type: 'json' };
import type {
  DataFile,
  DataFileAction,
  DataFileKey,
  DataFileMessage,
  DataFileModerationCase,
  DataFileOrganization,
  DataFileReplyRequest,
  DataFileScores,
} from '../mocks/engine/data-file/types.ts';

/** Every key of every member of a union (a moderation case's keys depend on its status). */
type AllKeys<T> = T extends unknown ? keyof T : never;
const keysOf = <T>(keys: Record<AllKeys<T>, true>): string[] => Object.keys(keys).sort();

const TYPES: Record<string, string[]> = {
  '': keysOf<DataFile>({
    $schema: true,
    version: true,
    notes: true,
    organizations: true,
    keys: true,
    actions: true,
    moderationCases: true,
    ingestionBatches: true,
    replyRequests: true,
  }),
  organization: keysOf<DataFileOrganization>({
    id: true,
    name: true,
    moderationMode: true,
    agents: true,
    queues: true,
    tagGroups: true,
    tags: true,
    closingTags: true,
    customFields: true,
  }),
  key: keysOf<DataFileKey>({
    key: true,
    keyHash: true,
    organizationId: true,
    name: true,
    profile: true,
    status: true,
    expiresAt: true,
  }),
  message: keysOf<DataFileMessage>({
    id: true,
    timestamp: true,
    author: true,
    authorId: true,
    authorType: true,
    message: true,
    mediaUrls: true,
    parentMessageId: true,
  }),
  action: keysOf<DataFileAction>({
    organizationId: true,
    actionId: true,
    title: true,
    summary: true,
    status: true,
    platform: true,
    recordType: true,
    isPublicPost: true,
    sourceURL: true,
    serverId: true,
    serverName: true,
    channelName: true,
    queue: true,
    initialQueue: true,
    assignee: true,
    sentiment: true,
    sentimentScore: true,
    moderation: true,
    user: true,
    createdAt: true,
    updatedAt: true,
    claimTime: true,
    closeTime: true,
    csatScore: true,
    csatFeedback: true,
    estimatedCSAT: true,
    scores: true,
    tags: true,
    closingTags: true,
    customFields: true,
    messages: true,
    conversation: true,
    comments: true,
    rootMessageText: true,
  }),
  'action/scores': keysOf<DataFileScores>({
    resolutionQuality: true,
    sentimentChange: true,
    rubricScore: true,
    actionability: true,
    relevance: true,
  }),
  moderationCase: keysOf<DataFileModerationCase>({
    organizationId: true,
    caseId: true,
    evaluationId: true,
    submission: true,
    acceptedAt: true,
    analysisStatus: true,
    decision: true,
    failureCode: true,
  }),
  replyRequest: keysOf<DataFileReplyRequest>({
    organizationId: true,
    requestId: true,
    actionId: true,
    text: true,
    state: true,
    serverId: true,
    isPublicReply: true,
    preparedBy: true,
    createdAt: true,
    updatedAt: true,
    plannedOutcome: true,
  }),
};

type SchemaNode = { properties?: Record<string, SchemaNode> };
const defs = schema.$defs as Record<string, SchemaNode>;

function schemaKeys(path: string): string[] {
  if (path === '') return Object.keys(schema.properties).sort();
  const [def = '', ...rest] = path.split('/');
  let node: SchemaNode | undefined = defs[def];
  for (const name of rest) node = node?.properties?.[name];
  return Object.keys(node?.properties ?? {}).sort();
}

describe('data file types and data.schema.json', () => {
  for (const [path, keys] of Object.entries(TYPES)) {
    it(`${path === '' ? 'the file' : path}: the type's keys are the schema's properties`, () => {
      expect(keys).toEqual(schemaKeys(path));
    });
  }
});
