/** Moderation intake and status (sections 4.14 to 4.16). */
import * as ex from '../examples.ts';
import type { ResponseSpec } from '../operation.ts';
import { str } from '../schema.ts';
import {
  bodyTransportErrors,
  changedSubmission,
  err,
  type Located,
  MODERATION_STATUS_GAP,
  malformedJson,
  NO_AD_POLICY_GAP,
  submissionWithout,
  unreadable,
} from './shared.ts';

/** The 403 of both intake routes: a key without write scope, or an organization not in ad_policy mode. */
const intakeForbidden: ResponseSpec = {
  description:
    'The key lacks the write scope, or the organization is not in ad_policy moderation mode (then supported lists the modes that allow moderation).',
  schema: 'ModerationErrorBody',
  gap: NO_AD_POLICY_GAP,
  examples: {
    wrongScope: err('Forbidden: this API key lacks the write scope'),
    moderationNotEnabled: {
      success: false,
      error: 'Moderation is not available for this organization',
      message: 'Moderation intake requires the ad_policy moderation mode',
      supported: ['ad_policy'],
    },
  },
};

export const moderationOperations: readonly Located[] = [
  {
    method: 'post',
    path: '/v0/moderation/cases',
    operationId: 'submitModerationCase',
    summary: 'Submit one moderation case',
    description:
      'Accepts one ad for advertising-policy evaluation (asynchronous: 202 acknowledges acceptance, not completion). Requires an organization in ad_policy moderation mode. The whole request is validated before any work is enqueued. An exact resubmission (same externalId, same content) is a duplicate; the same externalId with different content is a 409.',
    tag: 'Moderation',
    scope: 'write',
    adPolicy: true,
    body: {
      schema: 'ModerationSubmission',
      description: 'The moderation submission.',
      examples: {
        accepted: ex.moderationSubmission,
        duplicate: ex.moderationSubmission,
        changedContent: changedSubmission,
      },
      invalidExamples: {
        missingTitle: submissionWithout('title'),
        invalidMediaUrl: {
          ...ex.moderationSubmission,
          media: [{ url: 'ftp://cdn.northwind.example/ads/winter-1.jpg', type: 'image', position: 1 }],
        },
      },
    },
    success: {
      status: 202,
      description: 'Accepted (or an exact duplicate); analysis is pending.',
      schema: 'ModerationAck',
      examples: { accepted: ex.moderationAck, duplicate: ex.moderationDuplicateAck },
    },
    errors: {
      400: {
        description:
          'A required field is missing (code MODERATION_INPUT_INCOMPLETE with missingFields), or the body is not JSON.',
        schema: 'ModerationErrorBody',
        gap: MODERATION_STATUS_GAP,
        examples: {
          missingTitle: {
            success: false,
            error: 'Moderation input is incomplete',
            message: 'Required fields are missing: title',
            code: 'MODERATION_INPUT_INCOMPLETE',
            missingFields: ['title'],
          },
          malformedJson,
        },
      },
      403: intakeForbidden,
      409: {
        description: 'The externalId exists with different content (immutable identifier conflict).',
        schema: 'ModerationErrorBody',
        examples: {
          changedContent: {
            success: false,
            error: 'Conflict: externalId ad-2026-000981 already exists with different content',
          },
        },
      },
      422: {
        description:
          'A present field has an invalid value (code MODERATION_INPUT_INVALID with invalidFields).',
        schema: 'ModerationErrorBody',
        gap: MODERATION_STATUS_GAP,
        examples: {
          invalidMediaUrl: {
            success: false,
            error: 'Moderation input is invalid',
            message: 'media[0].url must be an absolute http or https URL',
            code: 'MODERATION_INPUT_INVALID',
            invalidFields: ['media[0].url'],
          },
        },
      },
      ...bodyTransportErrors('ModerationErrorBody'),
    },
  },
  {
    method: 'post',
    path: '/v0/moderation/cases/batch',
    operationId: 'submitModerationBatch',
    summary: 'Submit a batch of moderation cases',
    description:
      'Accepts 1..100 submissions. One result per input, in input order; a conflicting or invalid item is rejected without blocking the valid items.',
    tag: 'Moderation',
    scope: 'write',
    adPolicy: true,
    body: {
      schema: 'ModerationBatchRequest',
      description: 'The submissions.',
      examples: {
        mixedBatch: { cases: [ex.moderationSubmission, changedSubmission] },
      },
      invalidExamples: { emptyBatch: { cases: [] } },
    },
    success: {
      status: 202,
      description: 'One result per input, in input order.',
      schema: 'ModerationBatchResponse',
      examples: {
        mixedBatch: {
          results: [
            ex.moderationAck,
            {
              externalId: 'ad-2026-000981',
              caseId: 'mc_93fb5afae8571390',
              status: 'rejected',
              errors: ['externalId ad-2026-000981 already exists with different content'],
              message: 'Conflict: the externalId is immutable and its content differs',
            },
          ],
        },
      },
    },
    errors: {
      400: {
        description: 'cases is missing, not an array, or outside 1..100 items; or the body is not JSON.',
        schema: 'ModerationErrorBody',
        examples: {
          emptyBatch: err('cases must contain 1..100 submissions (got 0)'),
          malformedJson,
        },
      },
      403: intakeForbidden,
      ...bodyTransportErrors('ModerationErrorBody'),
    },
  },
  {
    method: 'get',
    path: '/v0/moderation/cases/{caseId}',
    operationId: 'getModerationCase',
    summary: 'Read a moderation case',
    description:
      'Reports only the evaluation of the currently active policy workflow; the decision appears only once analysisStatus is completed.',
    tag: 'Moderation',
    scope: 'read',
    parameters: [
      {
        name: 'caseId',
        in: 'path',
        description: 'Case identifier.',
        schema: str({ minLength: 1 }),
        examples: {
          completed: 'mc_93fb5afae8571390',
          pending: 'mc_5d1fe972420ac40d',
          notFound: 'case_unknown',
        },
      },
    ],
    success: {
      status: 200,
      description: 'The case status.',
      schema: 'ModerationCaseStatus',
      examples: {
        completed: {
          caseId: 'mc_93fb5afae8571390',
          externalId: 'ad-2026-000981',
          analysisStatus: 'completed',
          evaluationId: 'ev_8b0370bdc5070d7b',
          decision: ex.moderationDecision,
        },
        pending: {
          caseId: 'mc_5d1fe972420ac40d',
          externalId: 'ad-2026-000982',
          analysisStatus: 'pending',
          evaluationId: 'ev_6ee13170dc3deb5c',
        },
      },
    },
    errors: {
      400: unreadable('ModerationErrorBody', false),
      404: {
        description: 'No case with this id in the key’s organization.',
        schema: 'ModerationErrorBody',
        examples: { notFound: err('Moderation case case_unknown not found') },
      },
    },
  },
];
