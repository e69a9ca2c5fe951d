/**
 * The records of spec section 2.1 to 2.6: actions, messages, custom fields, agents, queues and
 * analytics. Each property follows the spec's table literally: "string / null" is a required key of
 * type ["string","null"], identifiers are strings, durations are plain strings (never date-time).
 */
import {
  anyJson,
  arr,
  bool,
  id,
  nullableNum,
  nullableStr,
  nullableTimestamp,
  num,
  obj,
  openObject,
  optional,
  ref,
  type Schema,
  str,
  timestamp,
} from './schema.ts';

const STATUS_GAP =
  'Allowed values of action status and its transitions are not shown (section 3); OPEN appears as a filter value.';

const duration = (description: string): Schema =>
  nullableStr({
    description: `${description}. A duration value, not a timestamp: do not parse it as a date.`,
  });

const authorType: Schema = {
  type: 'string',
  enum: ['USER', 'AGENT', 'BOT'],
  description: 'Who wrote the message.',
};

/** Section 2.1, shared by the action list and (with three more keys) conversation search. */
const actionSummaryProperties: Record<string, Schema> = {
  actionId: id('Action identifier; may exceed 2^53 as a decimal, may have leading zeros.'),
  actionTitle: str({ description: 'Title.' }),
  actionSummary: str({ description: 'Generated summary.' }),
  status: str({ description: 'Current state of the action.', 'x-spec-gap': STATUS_GAP }),
  platform: str({ description: 'Source platform.' }),
  recordType: nullableStr({ description: 'Source record type.' }),
  isPublicPost: bool({ description: 'Whether the record is public.' }),
  serviceURL: str({ description: 'Link to the action in the service.' }),
  sourceURL: nullableStr({ description: 'Link to the original record; null for private content.' }),
  queue: nullableStr({ description: 'Current queue label.' }),
  initialQueue: nullableStr({ description: 'Original queue label.' }),
  sentiment: nullableStr({ description: 'Sentiment label.' }),
  sentimentScore: nullableNum({ description: 'Stored sentiment score.' }),
  moderation: nullableStr({ description: 'Stored moderation value.' }),
  assigneeName: nullableStr({ description: 'Assigned agent name.' }),
  assigneeEmail: nullableStr({ description: 'Assigned agent email.' }),
  assigneeUserId: nullableStr({ description: 'Assigned agent identifier.' }),
  assigneeRole: nullableStr({ description: 'Assigned agent role.' }),
  userName: str({ description: 'Customer name.' }),
  userUsername: str({ description: 'Customer platform handle.' }),
  userId: id('Customer identifier.'),
  userEmail: nullableStr({ description: 'Customer email.' }),
  userFollowerCount: nullableNum({ description: 'Follower count, null if unavailable.' }),
  createdAt: timestamp('Creation timestamp.'),
  updatedAt: nullableTimestamp('Last update timestamp.'),
  initialMessageTime: nullableTimestamp('First customer message time.'),
  initialResponseTime: nullableTimestamp('First agent response time.'),
  closeTime: nullableTimestamp('Time closed.'),
  claimTime: nullableTimestamp('Time claimed.'),
  firstResponseTime: duration('Time to first response'),
  handleTime: duration('Handle time'),
  serverName: str({ description: 'Source account or community name.' }),
  channelName: str({ description: 'Source channel name.' }),
  csatScore: nullableStr({ description: 'Reported satisfaction score.' }),
  csatFeedback: nullableStr({ description: 'Satisfaction feedback text.' }),
  estimatedCSAT: nullableNum({ description: 'Estimated satisfaction.' }),
  totalMessages: nullableNum({ description: 'Message count.' }),
  totalUserMessages: nullableNum({ description: 'Customer message count.' }),
  totalAgentMessages: nullableNum({ description: 'Agent message count.' }),
  tags: arr(ref('Tag'), { description: 'Tags on the action.' }),
  closingTags: arr(ref('Tag'), { description: 'Tags applied at closure.' }),
  customFields: ref('CustomFields'),
  rootMessageText: nullableStr({ description: 'Root message body.' }),
  conversationJson: nullableStr({
    description:
      'Serialized conversation; filled only when requested (action list with includeFullConversation=true), null otherwise.',
  }),
};

const metricsProperties: Record<string, Schema> = Object.fromEntries(
  [
    'totalActions',
    'totalMessages',
    'totalAgentMessages',
    'totalUserMessages',
    'averageCsat',
    'averageResponseTime',
    'averageHandleTime',
    'averageEstimatedCsat',
    'averageResolutionQuality',
    'averageSentimentChange',
    'averageRubricScore',
  ].map((name) => [name, num()]),
);

const METRIC_UNITS =
  'Units of the response and handle averages are defined by a separate metrics reference that the spec does not include.';

export const recordSchemas: Record<string, Schema> = {
  Tag: obj(
    { value: str({ description: 'Tag value.' }), group: str({ description: 'Tag group.' }) },
    { description: 'A tag with its group (section 2.1).' },
  ),
  CustomFields: {
    type: 'object',
    additionalProperties: true,
    description: 'Organization-defined custom field names mapped to their values (a dynamic map).',
  },
  ActionSummary: obj(actionSummaryProperties, {
    description: 'Action summary record (section 2.1): items of the action list. All keys required.',
  }),
  ConversationSearchItem: {
    description:
      'Conversation search item (section 2.1): an action summary record plus threadId, easyId and contributors.',
    allOf: [
      ref('ActionSummary'),
      obj({
        threadId: id('Thread identifier.'),
        easyId: nullableStr({ description: 'Readable case identifier.' }),
        contributors: nullableStr({ description: 'Contributor summary.' }),
      }),
    ],
  },
  ActionUser: obj(
    {
      name: str({ description: 'Customer name.' }),
      username: str({ description: 'Customer platform handle.' }),
      userId: id('Customer identifier.'),
      email: nullableStr({ description: 'Customer email.' }),
      followerCount: nullableNum({ description: 'Follower count, null if unavailable.' }),
    },
    { description: 'The customer of an action (section 2.2).' },
  ),
  ActionAssignee: obj(
    {
      name: nullableStr(),
      email: nullableStr(),
      userId: nullableStr({ description: 'Agent identifier (a string, preserved exactly).' }),
      role: nullableStr(),
    },
    { description: 'The assigned agent of an action (section 2.2); every key may be null.' },
  ),
  ActionComment: obj(
    {
      text: str(),
      authorNativeId: id('Native identifier of the comment author.'),
      authorNativeName: nullableStr(),
    },
    { description: 'An internal comment on an action (section 2.2).' },
  ),
  Message: obj(
    {
      id: id('Message identifier.'),
      timestamp: timestamp('Message time.'),
      author: str({ description: 'Author display name.' }),
      authorId: optional(id('Author identifier.')),
      authorType,
      message: str({ description: 'Message body.' }),
      mediaUrls: arr(str(), { description: 'Attached media.' }),
    },
    { description: 'An item of `messages` (section 2.3).' },
  ),
  ConversationEntry: obj(
    {
      id: id('Message identifier.'),
      timestamp: timestamp('Message time.'),
      author: str({ description: 'Author display name.' }),
      authorId: nullableStr({ description: 'Author identifier (string, preserved exactly).' }),
      authorType,
      message: str({ description: 'Message body.' }),
      parentMessageId: nullableStr({ description: 'Identifier of the message this one replies to.' }),
      mediaUrls: arr(str(), { description: 'Attached media.' }),
    },
    { description: 'An item of the threaded `conversation` (section 2.3).' },
  ),
  ActionDetail: obj(
    {
      user: ref('ActionUser'),
      actionId: actionSummaryProperties['actionId'] as Schema,
      actionTitle: str(),
      actionSummary: str(),
      platform: str(),
      recordType: nullableStr(),
      isPublicPost: bool(),
      sentiment: nullableStr(),
      sentimentScore: nullableNum(),
      queue: nullableStr(),
      initialQueue: nullableStr(),
      status: str({ 'x-spec-gap': STATUS_GAP }),
      createdAt: timestamp('Creation timestamp.'),
      serviceURL: str(),
      sourceURL: nullableStr({ description: 'Link to the original record; null for private content.' }),
      updatedAt: nullableTimestamp('Last update timestamp.'),
      initialMessageTime: nullableTimestamp('First customer message time.'),
      initialResponseTime: nullableTimestamp('First agent response time.'),
      closeTime: nullableTimestamp('Time closed.'),
      firstResponseTime: duration('Time to first response'),
      handleTime: duration('Handle time'),
      claimTime: nullableTimestamp('Time claimed.'),
      assignee: ref('ActionAssignee'),
      serverName: str(),
      channelName: str(),
      tags: arr(ref('Tag')),
      closingTags: arr(ref('Tag')),
      moderation: nullableStr(),
      comments: arr(ref('ActionComment')),
      messages: arr(ref('Message')),
      conversation: optional(
        arr(ref('ConversationEntry'), { description: 'Threaded conversation, when available.' }),
      ),
      rootMessageText: nullableStr(),
      customFields: ref('CustomFields'),
      csatScore: nullableStr(),
      csatFeedback: nullableStr(),
      estimatedCSAT: nullableNum(),
      totalMessages: nullableNum(),
      totalUserMessages: nullableNum(),
      totalAgentMessages: nullableNum(),
    },
    { description: 'Action detail record (section 2.2): GET /v0/action/{id}.' },
  ),
  CustomFieldValue: obj(
    {
      fieldName: str({ minLength: 1, description: 'Registered custom field name.' }),
      displayName: str({ description: 'Visible label (read only).' }),
      fieldType: str({ description: 'Registered field type (read only).' }),
      value: anyJson('Stored value; its JSON type depends on the registered field.'),
      provenance: optional({
        description: 'Stored origin of the value (read only).',
        'x-spec-gap': 'The shape of provenance is not shown beyond being JSON.',
      }),
    },
    { description: 'A custom field value as read (sections 2.4 and 4.3).' },
  ),
  CustomFieldWrite: obj(
    {
      fieldName: str({ minLength: 1, description: 'Registered custom field name.' }),
      value: anyJson('The value to store; must match the registered field type.'),
      confidence: optional(num({ minimum: 0, maximum: 1, description: 'Write only.' })),
      rationale: optional(str({ description: 'Write only.' })),
    },
    { description: 'A custom field value to write (sections 2.4 and 4.4).' },
  ),
  CustomFieldUpdated: obj(
    { fieldName: str({ minLength: 1 }), value: anyJson('The stored value.') },
    { description: 'An item of `updated` in the custom-field PATCH answer (section 4.4).' },
  ),
  Metrics: obj(metricsProperties, {
    description: `Aggregated metrics, all numbers (section 2.5). ${METRIC_UNITS}`,
  }),
  AgentMetrics: {
    description: 'Metrics of an agent list entry (section 2.5).',
    allOf: [
      ref('Metrics'),
      obj({
        totalActionsWithResponse: optional(
          num({
            'x-spec-gap':
              'The spec says agent list entries "also carry" totalActionsWithResponse while listing it with the metrics keys; where it sits is not shown, so it is accepted in metrics and not required. The mock sends it in metrics.',
          }),
        ),
      }),
    ],
  },
  QueueMetrics: {
    description: 'Metrics of a queue entry (section 2.5).',
    allOf: [
      ref('Metrics'),
      obj({
        averageSentimentScore: optional(
          num({
            'x-spec-gap':
              'The spec says queue entries "also carry" averageSentimentScore while listing it with the metrics keys; where it sits is not shown, so it is accepted in metrics and not required. The mock sends it in metrics.',
          }),
        ),
      }),
    ],
  },
  Workload: obj(
    { active: num(), closed: num(), cancelled: num() },
    { description: 'Counts of actions in each workload state (section 2.5); not a transition model.' },
  ),
  AgentEntry: obj(
    { agentId: id('Agent identifier.'), metrics: ref('AgentMetrics'), workload: ref('Workload') },
    { description: 'Agent list entry (section 2.5).' },
  ),
  QueueEntry: obj(
    {
      queueId: nullableStr({ description: 'Queue identifier; null can stand for no queue.' }),
      queueName: nullableStr(),
      metrics: ref('QueueMetrics'),
      workload: ref('Workload'),
    },
    { description: 'Queue entry (section 2.5).' },
  ),
  AgentDetail: obj(
    {
      metrics: arr(
        openObject('Item shape of agent-detail metrics is not shown beyond objects (section 2.5).'),
      ),
      aggregatedMetrics: ref('Metrics'),
      currentWorkload: ref('Workload'),
      queues: arr(openObject('Item shape of agent-detail queues is not shown beyond objects (section 2.5).')),
    },
    { description: 'Agent detail (section 4.6).' },
  ),
  TagSummary: obj(
    { totalTags: num(), totalTagGroups: num(), totalTaggedRecords: num(), totalActions: num() },
    { description: 'Tag analytics summary (section 2.6).' },
  ),
  TagBreakdownItem: obj(
    {
      tagId: id('Tag identifier.'),
      tagName: str(),
      groupName: nullableStr(),
      count: num(),
      percentage: num(),
    },
    { description: 'An item of tagBreakdown (section 2.6).' },
  ),
  TagVolumeByTagItem: obj(
    {
      tagId: id('Tag identifier.'),
      tagName: str(),
      total: num(),
      responded: num(),
      notResponded: num(),
      avgSentiment: nullableNum(),
      avgActionability: nullableNum(),
      avgRelevance: nullableNum(),
    },
    { description: 'An item of volumeByTag (section 2.6).' },
  ),
  Pagination: obj(
    { total: num(), limit: num(), offset: num(), hasMore: bool() },
    { description: 'Tag analytics pagination (section 2.6).' },
  ),
  TagAnalytics: obj(
    {
      summary: ref('TagSummary'),
      tagBreakdown: arr(ref('TagBreakdownItem')),
      volumeByTag: arr(ref('TagVolumeByTagItem')),
      pagination: ref('Pagination'),
    },
    { description: 'Tag analytics (section 4.8).' },
  ),
  TagVolume: obj(
    {
      data: arr(openObject('Row shape of tag volume data is not shown beyond objects (section 2.5).')),
      tags: arr(str()),
    },
    { description: 'Tag volume (section 4.9).' },
  ),
  SentimentDayRow: obj(
    {
      day: str({ description: 'The day.' }),
      'Very Negative': num(),
      Negative: num(),
      Neutral: num(),
      Positive: num(),
    },
    { description: 'Sentiment by day row (section 2.6).' },
  ),
  SentimentTagRow: obj(
    {
      tagName: str(),
      veryNegative: num(),
      negative: num(),
      neutral: num(),
      positive: num(),
      totalMentions: num(),
    },
    { description: 'Sentiment by tag row (section 2.6).' },
  ),
  EngagementPercentile: obj(
    {
      platform: str(),
      p25MessagesPerUser: num(),
      medianMessagesPerUser: num(),
      p75MessagesPerUser: num(),
    },
    {
      description: 'Engagement percentiles per platform (section 2.6).',
      'x-spec-gap':
        'Value types are not stated; the contract takes platform as a string and the percentiles as numbers.',
    },
  ),
  GrowthTrend: obj(
    {
      week: { type: 'string', format: 'date-time', description: 'Week start (date-time).' },
      platform: str(),
      currentWeekUsers: num(),
      previousWeekUsers: num(),
      growthPercentage: num(),
    },
    { description: 'Weekly growth trend row (section 2.6).' },
  ),
  Engagement: obj(
    {
      engagementPercentiles: arr(ref('EngagementPercentile')),
      growthTrends: arr(ref('GrowthTrend')),
      conversionFunnel: arr(
        openObject('Row shape of conversionFunnel is not shown beyond objects (section 2.5).'),
      ),
    },
    { description: 'Engagement analytics (section 4.12).' },
  ),
};
