/**
 * The write side: moderation submissions, decisions and acknowledgements (section 2.7, 4.14-4.16)
 * and ingestion batches (section 4.17). Request bodies carry every limit of section 8.
 */
import {
  anyJson,
  arr,
  bool,
  HTTP_URL_PATTERN,
  httpUrl,
  id,
  int,
  nullableInt,
  nullableStr,
  num,
  obj,
  optional,
  ref,
  type Schema,
  str,
} from './schema.ts';

const MAX_SAFE = 9007199254740991;

const sized = (min: number, max: number, description: string): Schema =>
  str({ minLength: min, maxLength: max, description });

const confidenceLevel: Schema = { type: 'string', enum: ['low', 'medium', 'high'] };
const polarity: Schema = { type: 'string', enum: ['AMBIGUOUS', 'NEGATIVE', 'POSITIVE'] };

export const INGESTION_PLATFORMS = [
  'DISCORD',
  'SLACK',
  'GITHUB',
  'ZENDESK',
  'TELEGRAM',
  'FACEBOOK_GROUP',
  'TWITTER_COMMUNITY',
  'SALESFORCE',
  'FACEBOOK',
  'TWITTER',
  'THREADS',
  'TIKTOK',
  'INSTAGRAM',
  'LINKEDIN',
  'WHATSAPP',
  'YOUTUBE',
  'GAINSIGHT',
  'APPSTORE',
  'GOOGLE_PLAY',
  'HIGHER_LOGIC',
  'DISCOURSE',
  'CUSTOM_FORM',
  'MODERATION_API',
  'CHROME_WEB_STORE',
  'CANNY',
];

const copyField = (name: string): Schema => str({ maxLength: 20000, description: `Ad copy: ${name}.` });

export const writeSchemas: Record<string, Schema> = {
  ModerationMedia: obj(
    {
      url: httpUrl('Absolute HTTP or HTTPS URL of the asset.'),
      type: { type: 'string', enum: ['image', 'video'] },
      position: int({ minimum: 1, maximum: 20 }),
    },
    { description: 'A media item of a moderation submission (section 2.7).' },
  ),
  ModerationAttachment: obj(
    {
      type: { type: 'string', enum: ['web_view', 'deep_link', 'app_install', 'lens', 'long_form_video'] },
      destinationUrl: nullableStr(),
    },
    { description: 'Attachment of a moderation submission (section 2.7).' },
  ),
  ModerationTargeting: obj(
    {
      ageMin: nullableInt(),
      ageMax: optional(nullableInt()),
      geos: arr(str(), { minItems: 1, maxItems: 250 }),
      languages: optional(arr(str(), { minItems: 1, maxItems: 100 })),
    },
    { description: 'Targeting of a moderation submission (section 2.7).' },
  ),
  ModerationCopy: obj(
    {
      body: optional(copyField('body')),
      caption: optional(copyField('caption')),
      linkDescription: optional(copyField('link description')),
      sourceTitle: optional(copyField('source title')),
    },
    { description: 'Ad copy of a moderation submission (section 2.7); every field up to 20000 characters.' },
  ),
  ModerationPublicProfile: obj(
    {
      displayName: optional(sized(1, 500, 'Profile display name.')),
      logoUrl: optional(str({ format: 'uri', description: 'Logo URL.' })),
      verified: optional(bool()),
    },
    { description: 'Public profile of the advertiser (section 2.7).' },
  ),
  ModerationSubmission: obj(
    {
      externalId: sized(1, 256, 'Producer identifier, immutable per organization; echoed byte for byte.'),
      sourceSystem: sized(1, 128, 'Producing system.'),
      sourcePlatform: sized(1, 128, 'Advertising platform.'),
      sourceAdId: sized(1, 256, 'Ad identifier on the source platform.'),
      advertiserId: optional(sized(1, 256, 'Advertiser identifier.')),
      advertiserName: sized(1, 500, 'Advertiser name.'),
      campaignId: optional(sized(1, 256, 'Campaign identifier.')),
      market: sized(1, 128, 'Market.'),
      placement: sized(1, 128, 'Placement.'),
      language: optional(
        str({ minLength: 1, maxLength: 64, default: 'en', description: 'Language, default en.' }),
      ),
      providerMetadata: optional({ type: 'object', description: 'Retained with the submission.' }),
      landingPageUrl: nullableStr({ description: 'Landing page URL, or null.' }),
      title: sized(1, 500, 'Ad title.'),
      headline: optional(sized(1, 500, 'Headline.')),
      brandName: optional(sized(1, 500, 'Brand name.')),
      callToAction: optional({
        type: 'string',
        enum: [
          'APPLY_NOW',
          'BOOK_NOW',
          'GET_NOW',
          'INSTALL_NOW',
          'MORE',
          'SHOP_NOW',
          'SIGN_UP',
          'VIEW',
          'WATCH',
        ],
      }),
      publicProfile: optional(ref('ModerationPublicProfile')),
      media: arr(ref('ModerationMedia'), { minItems: 1, maxItems: 20 }),
      attachment: ref('ModerationAttachment'),
      targeting: ref('ModerationTargeting'),
      copy: ref('ModerationCopy'),
      discoverTile: optional(bool()),
      partnershipAd: optional(bool()),
      format: optional(nullableStr()),
      arLens: optional(nullableStr()),
      submittedAt: optional(str({ format: 'date-time' })),
    },
    { description: 'A moderation case submission (section 2.7): the single-case body and a batch item.' },
  ),
  ModerationTextSpan: obj(
    {
      field: optional(str({ minLength: 1, maxLength: 128, description: 'Name of the text field.' })),
      start: int({ minimum: 0, maximum: MAX_SAFE }),
      end: int({ minimum: 0, maximum: MAX_SAFE }),
    },
    { description: 'A span of text inside a submission field (section 2.7).' },
  ),
  ModerationLocator: obj(
    {
      asset: optional({ type: 'string', enum: ['public_profile_logo'] }),
      mediaIndex: optional(int({ minimum: 0, maximum: MAX_SAFE })),
      boundingBox: optional(anyJson('Region of an image or frame.')),
      startSeconds: optional(num({ minimum: 0 })),
      endSeconds: optional(num({ minimum: 0 })),
      textSpan: optional(ref('ModerationTextSpan')),
    },
    { description: 'Where evidence points inside the submission (section 2.7).' },
  ),
  ModerationEvidence: obj(
    {
      modality: { type: 'string', enum: ['image', 'video', 'text', 'metadata'] },
      claim: str({ minLength: 1 }),
      locator: optional(ref('ModerationLocator')),
    },
    { description: 'Evidence of a hit (section 2.7).' },
  ),
  ModerationHit: obj(
    {
      ruleId: str({ minLength: 1 }),
      ruleSlug: str({ minLength: 1 }),
      polarity,
      confidence: confidenceLevel,
      reasoning: nullableStr(),
      evidence: arr(ref('ModerationEvidence')),
    },
    { description: 'A policy rule hit (section 2.7).' },
  ),
  ModerationAssessment: obj(
    {
      polarity: str({
        'x-spec-gap':
          'Allowed polarity values of assessments are not listed (hits use AMBIGUOUS, NEGATIVE, POSITIVE).',
      }),
      reasoning: str({ minLength: 1, maxLength: 1000 }),
    },
    { description: 'Advertiser or landing-page assessment (section 2.7).' },
  ),
  ModerationDecision: obj(
    {
      disposition: { type: 'string', enum: ['age_gate', 'approve', 'escalate', 'reject'] },
      confidence: confidenceLevel,
      title: optional(nullableStr({ default: null })),
      reason: str({ minLength: 1 }),
      hits: arr(ref('ModerationHit')),
      advertiserAssessment: ref('ModerationAssessment'),
      landingAssessment: ref('ModerationAssessment'),
      decisionSource: optional({ type: 'string', enum: ['model', 'fail_closed'], default: 'model' }),
      failureCode: optional(nullableStr({ default: null })),
      failureMessage: optional(nullableStr({ default: null })),
    },
    { description: 'Evaluation decision (section 2.7); present only once the analysis is completed.' },
  ),
  ModerationIdempotency: obj(
    { key: str(), replayed: bool() },
    { description: 'Idempotency of a submission: replayed is true for an exact resubmission.' },
  ),
  ModerationAck: obj(
    {
      caseId: id('Case identifier.'),
      externalId: id('The externalId exactly as submitted.'),
      status: { type: 'string', enum: ['accepted', 'duplicate'] },
      analysisStatus: { type: 'string', enum: ['pending'] },
      evaluationId: id('Evaluation identifier.'),
      idempotency: ref('ModerationIdempotency'),
    },
    { description: 'Acknowledgement of a single submission (section 4.14).' },
  ),
  ModerationBatchRequest: obj(
    { cases: arr(ref('ModerationSubmission'), { minItems: 1, maxItems: 100 }) },
    {
      description:
        'A batch of 1..100 submissions (section 4.15). An invalid item is rejected in its result; it does not fail the batch.',
    },
  ),
  ModerationBatchResult: obj(
    {
      externalId: nullableStr({ description: 'The externalId as submitted.' }),
      caseId: nullableStr({ description: 'Case identifier.' }),
      status: { type: 'string', enum: ['accepted', 'duplicate', 'rejected'] },
      analysisStatus: optional({ type: 'string', enum: ['pending'] }),
      evaluationId: optional(str()),
      idempotency: optional(ref('ModerationIdempotency')),
      errors: optional(arr(str())),
      message: optional(str()),
      code: optional({ type: 'string', enum: ['MODERATION_INPUT_INCOMPLETE', 'MODERATION_INPUT_INVALID'] }),
      missingFields: optional(arr(str())),
      invalidFields: optional(arr(str())),
    },
    {
      description: 'One batch result, in input order (section 4.15).',
      'x-spec-gap':
        'externalId and caseId are listed as always present but their value for a rejected item that names no externalId or created no case is not shown; the contract accepts null there.',
    },
  ),
  ModerationBatchResponse: obj(
    { results: arr(ref('ModerationBatchResult')) },
    { description: 'Batch acknowledgement: one result per input, in input order (section 4.15).' },
  ),
  ModerationCaseStatus: {
    ...obj(
      {
        caseId: id('Case identifier.'),
        externalId: id('The externalId exactly as submitted.'),
        analysisStatus: {
          type: 'string',
          enum: ['policy_not_configured', 'pending', 'running', 'completed', 'failed'],
        },
        evaluationId: optional(str()),
        decision: optional(ref('ModerationDecision')),
        failureCode: optional(nullableStr()),
      },
      {
        description:
          'Moderation case status (section 4.16). The decision is present only when analysisStatus is completed (section 3, fact 2).',
      },
    ),
    if: { type: 'object', properties: { analysisStatus: { not: { const: 'completed' } } } },
    // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
    then: { not: { type: 'object', required: ['decision'], properties: { decision: true } } },
  },
  Platform: {
    type: 'string',
    enum: INGESTION_PLATFORMS,
    description: 'Source platform of an ingestion batch (section 4.17).',
  },
  IngestionSource: obj(
    { system: str({ minLength: 1 }), sourceId: optional(str()) },
    { description: 'Source of an ingestion batch (section 4.17).' },
  ),
  IngestionRecord: obj(
    {
      externalId: str({
        minLength: 1,
        description: 'Preserved across retries; identity with org, platform, serverId.',
      }),
      threadExternalId: optional(str()),
      parentExternalId: optional(str()),
      authorId: str({ minLength: 1 }),
      authorName: str({ minLength: 1 }),
      title: optional(str()),
      body: str(),
      score: optional(num({ minimum: 0, maximum: 5 })),
      createdAt: str({ minLength: 1 }),
      url: optional({
        type: 'string',
        format: 'uri',
        pattern: HTTP_URL_PATTERN,
        description: 'Absolute HTTP(S).',
      }),
      recordType: str({ minLength: 1 }),
      customFields: optional(ref('CustomFields')),
    },
    { description: 'A normalized record (section 4.17).' },
  ),
  IngestionBatch: obj(
    {
      platform: ref('Platform'),
      serverId: str({ minLength: 1, description: 'Source account or community id.' }),
      serverName: str({ minLength: 1 }),
      channelId: optional(str()),
      channelName: optional(str()),
      processingLevel: optional({ type: 'string', enum: ['INSIGHTS', 'STATS_ONLY'] }),
      source: optional(ref('IngestionSource')),
      records: arr(ref('IngestionRecord'), { minItems: 1, maxItems: 500 }),
    },
    { description: 'An ingestion batch (section 4.17).' },
  ),
  IngestionAccepted: obj(
    {
      status: { type: 'string', enum: ['accepted'] },
      accepted: num({ description: 'Count of accepted records.' }),
    },
    { description: 'Ingestion acknowledgement; processing continues asynchronously (section 4.17).' },
  ),
};
