/**
 * Types of the moderation slice. The public shapes (decision, ack, batch result, status) mirror the
 * contract components of the same names; the internal ones (case, evaluation) make illegal states
 * unrepresentable: only a `completed` evaluation carries a decision, only a `failed` one a failure code.
 */

export type Disposition = 'age_gate' | 'approve' | 'escalate' | 'reject';
export type Confidence = 'low' | 'medium' | 'high';
export type Polarity = 'AMBIGUOUS' | 'NEGATIVE' | 'POSITIVE';
export type Modality = 'image' | 'video' | 'text' | 'metadata';

export interface TextSpan {
  readonly field: string;
  readonly start: number;
  readonly end: number;
}

export interface Locator {
  readonly asset?: 'public_profile_logo';
  readonly mediaIndex?: number;
  readonly textSpan?: TextSpan;
}

export interface Evidence {
  readonly modality: Modality;
  readonly claim: string;
  readonly locator?: Locator;
}

export interface Hit {
  readonly ruleId: string;
  readonly ruleSlug: string;
  readonly polarity: Polarity;
  readonly confidence: Confidence;
  readonly reasoning: string | null;
  readonly evidence: readonly Evidence[];
}

export interface Assessment {
  readonly polarity: Polarity;
  readonly reasoning: string;
}

/** `ModerationDecision` (spec 2.7): present only once an evaluation is completed. */
export interface ModerationDecision {
  readonly disposition: Disposition;
  readonly confidence: Confidence;
  readonly title: string | null;
  readonly reason: string;
  readonly hits: readonly Hit[];
  readonly advertiserAssessment: Assessment;
  readonly landingAssessment: Assessment;
  readonly decisionSource: 'model' | 'fail_closed';
  readonly failureCode: string | null;
  readonly failureMessage: string | null;
}

/** What the decision engine concludes for one submission under one policy. */
export type Outcome =
  | { readonly analysisStatus: 'completed'; readonly decision: ModerationDecision }
  | { readonly analysisStatus: 'failed'; readonly failureCode: string };

/** The observable state of an evaluation: the union the status read renders. */
export type EvaluationView =
  | { readonly analysisStatus: 'pending' }
  | { readonly analysisStatus: 'running'; readonly startedAt: number }
  | { readonly analysisStatus: 'completed'; readonly decision: ModerationDecision }
  | { readonly analysisStatus: 'failed'; readonly failureCode: string };

export type AnalysisStatus = 'policy_not_configured' | EvaluationView['analysisStatus'];

/** Where an evaluation is in its life; `nextAt` is when the clock moves it on (null: it stays). */
export type EvaluationPhase =
  | { readonly name: 'pending'; readonly nextAt: number | null }
  | { readonly name: 'running'; readonly startedAt: number; readonly nextAt: number | null }
  | { readonly name: 'settled' };

/** One evaluation of one case under one policy workflow (null: none was active at intake). */
export interface Evaluation {
  readonly evaluationId: string;
  readonly workflowId: string | null;
  readonly createdAt: number;
  /** Computed at creation (the engine is deterministic), revealed only when the phase is settled. */
  readonly outcome: Outcome;
  phase: EvaluationPhase;
}

export interface ModerationCase {
  readonly caseId: string;
  readonly organizationId: string;
  /** Byte-identical to what the producer sent. */
  readonly externalId: string;
  /**
   * The submission as sent (after JSON parsing, `providerMetadata` included), as `JSON.stringify` writes
   * it: only the export reads it, and one string instead of its object tree (about twenty objects and
   * strings a case) is what a snapshot at a hundred thousand cases decodes and collects at start-up.
   */
  readonly submissionJson: string;
  readonly canonical: string;
  readonly fingerprint: string;
  readonly acceptedAt: number;
  /** Oldest first; the one whose workflowId is the organization's active workflow is reported. */
  readonly evaluations: Evaluation[];
}

export interface PolicyWorkflow {
  /** A fresh id for each activation, so re-activating a policy id still starts new evaluations. */
  readonly workflowId: string;
  readonly policyId: string;
  readonly activatedAt: number;
}

/** `ModerationAck` (4.14). */
export interface ModerationAck {
  readonly caseId: string;
  readonly externalId: string;
  readonly status: 'accepted' | 'duplicate';
  readonly analysisStatus: 'pending';
  readonly evaluationId: string;
  readonly idempotency: { readonly key: string; readonly replayed: boolean };
}

export type InputErrorCode = 'MODERATION_INPUT_INCOMPLETE' | 'MODERATION_INPUT_INVALID';

/**
 * Why one submission was refused: bad input, or an externalId already used for other content.
 * `error` is the short sentence of the error body, `message` the detail, `errors` one line per problem.
 */
export type SubmissionRefusal =
  | {
      readonly kind: 'input';
      readonly code: InputErrorCode;
      readonly missingFields: readonly string[];
      readonly invalidFields: readonly string[];
      readonly error: string;
      readonly message: string;
      readonly errors: readonly string[];
    }
  | {
      readonly kind: 'conflict';
      readonly caseId: string;
      readonly error: string;
      readonly message: string;
      readonly errors: readonly string[];
    };

export type SubmissionOutcome =
  | { readonly kind: 'ack'; readonly ack: ModerationAck }
  | { readonly kind: 'refused'; readonly externalId: string | null; readonly refusal: SubmissionRefusal };

/** `ModerationCaseStatus` (4.16). */
export interface ModerationCaseStatus {
  readonly caseId: string;
  readonly externalId: string;
  readonly analysisStatus: AnalysisStatus;
  readonly evaluationId?: string;
  readonly decision?: ModerationDecision;
  readonly failureCode?: string;
}
