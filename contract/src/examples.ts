/**
 * Realistic examples for every request and response. A request example and the response it produces
 * share one name (e.g. `invalidPageSize` on the parameter and on the 400), so example-driven tools can
 * pair them. A test validates every example against its schema with the project's own validators.
 */
import type { Json } from './schema.ts';

type JsonObject = { [key: string]: Json };

export const tagBilling: JsonObject = { value: 'billing', group: 'Topic' };
export const tagRefund: JsonObject = { value: 'refund-request', group: 'Intent' };

export const actionSummary: JsonObject = {
  actionId: '1187533000000001195',
  actionTitle: 'Charged twice for the annual plan',
  actionSummary:
    'Customer reports a duplicate charge after upgrading and asks for a refund of the second payment.',
  status: 'OPEN',
  platform: 'TWITTER',
  recordType: 'DIRECT_MESSAGE',
  isPublicPost: false,
  serviceURL: 'https://app.example.com/actions/1187533000000001195',
  sourceURL: null,
  queue: 'Billing',
  initialQueue: 'Triage',
  sentiment: 'Negative',
  sentimentScore: -0.62,
  moderation: null,
  assigneeName: 'Priya Natarajan',
  assigneeEmail: 'priya@acme.example',
  assigneeUserId: '000417',
  assigneeRole: 'agent',
  userName: 'Jordan Lee',
  userUsername: 'jordanlee',
  userId: '1844674407370955161',
  userEmail: null,
  userFollowerCount: 1204,
  createdAt: '2026-11-19T14:03:11.000Z',
  updatedAt: '2026-11-19T15:20:45.000Z',
  initialMessageTime: '2026-11-19T14:03:11.000Z',
  initialResponseTime: '2026-11-19T14:07:23.000Z',
  closeTime: null,
  claimTime: '2026-11-19T14:05:02.000Z',
  firstResponseTime: 'PT4M12S',
  handleTime: 'PT1H17M34S',
  serverName: 'Acme Support',
  channelName: 'Direct messages',
  csatScore: null,
  csatFeedback: null,
  estimatedCSAT: 2.4,
  totalMessages: 6,
  totalUserMessages: 3,
  totalAgentMessages: 3,
  tags: [tagBilling, tagRefund],
  closingTags: [],
  customFields: { order_number: 'A-100234', refund_amount: 129.0, is_vip: false },
  rootMessageText: 'I was charged twice for the annual plan, please refund one of them.',
  conversationJson: null,
};

const conversation: Json[] = [
  {
    id: '9007199254740993200',
    timestamp: '2026-11-19T14:03:11.000Z',
    author: 'Jordan Lee',
    authorId: '1844674407370955161',
    authorType: 'USER',
    message: 'I was charged twice for the annual plan, please refund one of them.',
    parentMessageId: null,
    mediaUrls: ['https://media.example.com/receipts/a-100234.png'],
  },
  {
    id: '9007199254740993201',
    timestamp: '2026-11-19T14:07:23.000Z',
    author: 'Priya Natarajan',
    authorId: '000417',
    authorType: 'AGENT',
    message: 'Sorry about that, Jordan. I can see both charges and have started the refund.',
    parentMessageId: '9007199254740993200',
    mediaUrls: [],
  },
];

export const actionSummaryWithConversation: JsonObject = {
  ...actionSummary,
  conversationJson: JSON.stringify(conversation),
};

export const searchItem: JsonObject = {
  ...actionSummary,
  threadId: '9007199254740993200',
  easyId: 'ACME-1042',
  contributors: 'Jordan Lee, Priya Natarajan',
};

export const actionDetail: JsonObject = {
  user: {
    name: 'Jordan Lee',
    username: 'jordanlee',
    userId: '1844674407370955161',
    email: null,
    followerCount: 1204,
  },
  actionId: '1187533000000001195',
  actionTitle: 'Charged twice for the annual plan',
  actionSummary:
    'Customer reports a duplicate charge after upgrading and asks for a refund of the second payment.',
  platform: 'TWITTER',
  recordType: 'DIRECT_MESSAGE',
  isPublicPost: false,
  sentiment: 'Negative',
  sentimentScore: -0.62,
  queue: 'Billing',
  initialQueue: 'Triage',
  status: 'OPEN',
  createdAt: '2026-11-19T14:03:11.000Z',
  serviceURL: 'https://app.example.com/actions/1187533000000001195',
  sourceURL: null,
  updatedAt: '2026-11-19T15:20:45.000Z',
  initialMessageTime: '2026-11-19T14:03:11.000Z',
  initialResponseTime: '2026-11-19T14:07:23.000Z',
  closeTime: null,
  firstResponseTime: 'PT4M12S',
  handleTime: 'PT1H17M34S',
  claimTime: '2026-11-19T14:05:02.000Z',
  assignee: { name: 'Priya Natarajan', email: 'priya@acme.example', userId: '000417', role: 'agent' },
  serverName: 'Acme Support',
  channelName: 'Direct messages',
  tags: [tagBilling, tagRefund],
  closingTags: [],
  moderation: null,
  comments: [
    { text: 'Refund approved by finance.', authorNativeId: '000417', authorNativeName: 'Priya Natarajan' },
  ],
  messages: [
    {
      id: '9007199254740993200',
      timestamp: '2026-11-19T14:03:11.000Z',
      author: 'Jordan Lee',
      authorId: '1844674407370955161',
      authorType: 'USER',
      message: 'I was charged twice for the annual plan, please refund one of them.',
      mediaUrls: ['https://media.example.com/receipts/a-100234.png'],
    },
    {
      id: '9007199254740993201',
      timestamp: '2026-11-19T14:07:23.000Z',
      author: 'Priya Natarajan',
      authorId: '000417',
      authorType: 'AGENT',
      message: 'Sorry about that, Jordan. I can see both charges and have started the refund.',
      mediaUrls: [],
    },
    {
      id: '9007199254740993202',
      timestamp: '2026-11-19T14:07:30.000Z',
      author: 'Acme Bot',
      authorType: 'BOT',
      message: 'A refund confirmation will be emailed within 3 business days.',
      mediaUrls: [],
    },
  ],
  conversation,
  rootMessageText: 'I was charged twice for the annual plan, please refund one of them.',
  customFields: { order_number: 'A-100234', refund_amount: 129.0, is_vip: false },
  csatScore: null,
  csatFeedback: null,
  estimatedCSAT: 2.4,
  totalMessages: 6,
  totalUserMessages: 3,
  totalAgentMessages: 3,
};

const metrics: JsonObject = {
  totalActions: 42,
  totalMessages: 318,
  totalAgentMessages: 131,
  totalUserMessages: 171,
  averageCsat: 4.3,
  averageResponseTime: 252,
  averageHandleTime: 4654,
  averageEstimatedCsat: 3.9,
  averageResolutionQuality: 0.82,
  averageSentimentChange: 0.35,
  averageRubricScore: 4.1,
};
const workload: JsonObject = { active: 7, closed: 33, cancelled: 2 };

export const agentList: JsonObject = {
  success: true,
  data: [{ agentId: '000417', metrics: { ...metrics, totalActionsWithResponse: 40 }, workload }],
};

export const agentDetail: JsonObject = {
  success: true,
  data: {
    metrics: [{ day: '2026-11-19', totalActions: 6, averageResponseTime: 241 }],
    aggregatedMetrics: metrics,
    currentWorkload: workload,
    queues: [{ queueId: 'q_billing', queueName: 'Billing', totalActions: 30 }],
  },
};

export const queueList: JsonObject = {
  success: true,
  data: [
    {
      queueId: 'q_billing',
      queueName: 'Billing',
      metrics: { ...metrics, averageSentimentScore: -0.21 },
      workload,
    },
    {
      queueId: null,
      queueName: null,
      metrics: { ...metrics, totalActions: 5, averageSentimentScore: 0.1 },
      workload: { active: 1, closed: 4, cancelled: 0 },
    },
  ],
};

export const tagAnalytics: JsonObject = {
  success: true,
  data: {
    summary: { totalTags: 2, totalTagGroups: 2, totalTaggedRecords: 57, totalActions: 120 },
    tagBreakdown: [
      { tagId: 'tag_billing', tagName: 'billing', groupName: 'Topic', count: 38, percentage: 31.67 },
      { tagId: 'tag_refund', tagName: 'refund-request', groupName: 'Intent', count: 19, percentage: 15.83 },
    ],
    volumeByTag: [
      {
        tagId: 'tag_billing',
        tagName: 'billing',
        total: 38,
        responded: 31,
        notResponded: 7,
        avgSentiment: -0.18,
        avgActionability: null,
        avgRelevance: null,
      },
    ],
    pagination: { total: 2, limit: 50, offset: 0, hasMore: false },
  },
};

export const tagVolume: JsonObject = {
  success: true,
  data: {
    data: [{ date: '2026-11-19', billing: 6, 'refund-request': 3 }],
    tags: ['billing', 'refund-request'],
  },
};

export const sentimentByDay: JsonObject = {
  success: true,
  data: [{ day: '2026-11-19', 'Very Negative': 2, Negative: 5, Neutral: 11, Positive: 7 }],
};

export const sentimentByTag: JsonObject = {
  success: true,
  data: [{ tagName: 'billing', veryNegative: 4, negative: 12, neutral: 15, positive: 7, totalMentions: 38 }],
};

export const engagement: JsonObject = {
  success: true,
  data: {
    engagementPercentiles: [
      { platform: 'DISCORD', p25MessagesPerUser: 1, medianMessagesPerUser: 3, p75MessagesPerUser: 6 },
    ],
    growthTrends: [
      {
        week: '2026-11-16T00:00:00.000Z',
        platform: 'DISCORD',
        currentWeekUsers: 84,
        previousWeekUsers: 70,
        growthPercentage: 20,
      },
    ],
    conversionFunnel: [{ stage: 'messaged', users: 84 }],
  },
};

export const moderationSubmission: JsonObject = {
  externalId: 'ad-2026-000981',
  sourceSystem: 'ads-manager',
  sourcePlatform: 'SNAPCHAT',
  sourceAdId: '9007199254740993999',
  advertiserId: 'adv-0042',
  advertiserName: 'Northwind Outdoor Co.',
  campaignId: 'cmp-winter-2026',
  market: 'US',
  placement: 'story',
  language: 'en',
  landingPageUrl: 'https://northwind.example/winter',
  title: 'Winter jackets, 30% off this week',
  headline: 'Stay warm for less',
  brandName: 'Northwind',
  callToAction: 'SHOP_NOW',
  publicProfile: {
    displayName: 'Northwind Outdoor',
    logoUrl: 'https://cdn.northwind.example/logo.png',
    verified: true,
  },
  media: [{ url: 'https://cdn.northwind.example/ads/winter-1.jpg', type: 'image', position: 1 }],
  attachment: { type: 'web_view', destinationUrl: 'https://northwind.example/winter' },
  targeting: { ageMin: 18, ageMax: null, geos: ['US', 'CA'], languages: ['en'] },
  copy: { body: 'Our warmest jackets are 30% off until Sunday.', caption: 'Winter sale' },
  submittedAt: '2026-11-20T09:15:00.000Z',
};

export const moderationAck: JsonObject = {
  caseId: 'mc_93fb5afae8571390',
  externalId: 'ad-2026-000981',
  status: 'accepted',
  analysisStatus: 'pending',
  evaluationId: 'ev_8b0370bdc5070d7b',
  idempotency: { key: 'org_acme:ad-2026-000981', replayed: false },
};

export const moderationDuplicateAck: JsonObject = {
  ...moderationAck,
  status: 'duplicate',
  idempotency: { key: 'org_acme:ad-2026-000981', replayed: true },
};

export const moderationDecision: JsonObject = {
  disposition: 'approve',
  confidence: 'high',
  title: null,
  reason: 'No policy rule was violated by the copy, media or landing page.',
  hits: [
    {
      ruleId: 'R-200',
      ruleSlug: 'clear-pricing',
      polarity: 'POSITIVE',
      confidence: 'medium',
      reasoning: 'The discount is stated with its end date.',
      evidence: [
        {
          modality: 'text',
          claim: 'States the discount and its end date.',
          locator: { textSpan: { field: 'copy.body', start: 0, end: 45 } },
        },
      ],
    },
  ],
  advertiserAssessment: {
    polarity: 'POSITIVE',
    reasoning: 'Verified advertiser with a consistent brand name.',
  },
  landingAssessment: { polarity: 'POSITIVE', reasoning: 'The landing page matches the advertised offer.' },
  decisionSource: 'model',
  failureCode: null,
  failureMessage: null,
};

export const errorExamples = {
  unauthorized: { success: false, error: 'Missing or invalid API key (header X-API-Key)' },
  forbidden: { success: false, error: 'Forbidden: this API key lacks the read scope' },
  internal: { success: false, error: 'Internal server error' },
};
