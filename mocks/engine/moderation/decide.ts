/**
 * The mock's deterministic decision engine. The same submission always yields the same outcome, and
 * every rule is listed in docs/write-side.md so a client can craft an input for each path:
 *
 * | precedence | trigger | result |
 * |---|---|---|
 * | 1 | `title` contains `[[fail]]` | evaluation `failed`, failureCode `EVALUATION_TIMEOUT` |
 * | 2 | `landingPageUrl` null and `attachment.destinationUrl` null | `reject`, decisionSource `fail_closed` |
 * | 3 | a prohibited claim in a text field | `reject` (hit evidence: the text span) |
 * | 4 | a `media[i].url` containing `flagged` | `escalate` (hit evidence: `mediaIndex` i) |
 * | 5 | an alcohol or gambling term and `targeting.ageMin` null or under 18 | `age_gate` |
 * | 6 | otherwise | `approve` with positive hits |
 */
import type { Assessment, Confidence, Evidence, Hit, ModerationDecision, Outcome } from './types.ts';

/** The text fields the rules read, in the order they are scanned, named as in `textSpan.field`. */
export const TEXT_FIELDS = [
  'title',
  'headline',
  'copy.body',
  'copy.caption',
  'copy.linkDescription',
  'copy.sourceTitle',
] as const;

export const FAIL_TRIGGER = '[[fail]]';
export const FAILURE_CODE_TIMEOUT = 'EVALUATION_TIMEOUT';
export const FAILURE_CODE_FAIL_CLOSED = 'LANDING_PAGE_UNAVAILABLE';
export const PROHIBITED_CLAIMS = ['guaranteed cure', 'miracle', 'get rich quick'] as const;
export const AGE_RESTRICTED_TERMS = [
  'alcohol',
  'beer',
  'wine',
  'vodka',
  'whisky',
  'whiskey',
  'casino',
  'betting',
  'poker',
  'sportsbook',
] as const;
export const FLAGGED_MEDIA_MARKER = 'flagged';

interface TextMatch {
  readonly field: string;
  readonly term: string;
  readonly start: number;
  readonly end: number;
}

/**
 * Decides one submission. The input is the parsed submission; fields the rules read are accessed
 * defensively, so a value the contract already rejected can never throw here.
 *
 * @example
 * const outcome = decide({ title: 'A miracle in a bottle', ... });
 * outcome.analysisStatus === 'completed' && outcome.decision.disposition === 'reject';
 */
export function decide(submission: { readonly [key: string]: unknown }): Outcome {
  const title = stringAt(submission, ['title']);
  if (title?.includes(FAIL_TRIGGER)) return { analysisStatus: 'failed', failureCode: FAILURE_CODE_TIMEOUT };

  const advertiserAssessment = assessAdvertiser(submission);
  const landingUrl =
    stringAt(submission, ['landingPageUrl']) ?? stringAt(submission, ['attachment', 'destinationUrl']);
  const landingAssessment = assessLanding(landingUrl);
  const base = {
    advertiserAssessment,
    landingAssessment,
    decisionSource: 'model',
    failureCode: null,
    failureMessage: null,
  } as const;

  if (landingUrl === null) {
    return completed({
      ...base,
      disposition: 'reject',
      confidence: 'low',
      title: 'Landing page unavailable',
      reason:
        'The case has no landing page and no attachment destination, so it cannot be evaluated and fails closed.',
      hits: [],
      decisionSource: 'fail_closed',
      failureCode: FAILURE_CODE_FAIL_CLOSED,
      failureMessage: 'landingPageUrl and attachment.destinationUrl are both null; nothing to evaluate.',
    });
  }

  const texts = textsOf(submission);
  const claims = findTerms(texts, PROHIBITED_CLAIMS, false);
  const claimHits = claims.map(claimHit);
  const mediaHits = flaggedMedia(submission);
  const ageMin = numberAt(submission, ['targeting', 'ageMin']);
  const ageMatches = findTerms(texts, AGE_RESTRICTED_TERMS, true);
  const minorsReachable = ageMin === null || ageMin < 18;
  const ageHits = minorsReachable ? ageMatches.map(ageGateHit) : [];
  const negative = [...claimHits, ...mediaHits, ...ageHits];

  const firstClaim = claims[0];
  if (firstClaim !== undefined) {
    return completed({
      ...base,
      disposition: 'reject',
      confidence: 'high',
      title: 'Prohibited claim',
      reason: `The creative makes a prohibited claim ("${firstClaim.term}" in ${firstClaim.field}).`,
      hits: negative,
    });
  }
  if (mediaHits.length > 0) {
    return completed({
      ...base,
      disposition: 'escalate',
      confidence: 'medium',
      title: 'Media needs human review',
      reason: 'At least one media asset is flagged and needs a human reviewer.',
      hits: negative,
    });
  }
  if (ageHits.length > 0) {
    return completed({
      ...base,
      disposition: 'age_gate',
      confidence: 'high',
      title: 'Age-restricted content',
      reason: 'The creative promotes an age-restricted product and its targeting can reach people under 18.',
      hits: negative,
    });
  }
  // An approval depends on nothing but the two assessments and, with an age-restricted term, the
  // minimum age: most cases get one of a few, made once and shared (frozen, so never changed in place).
  const key = `${advertiserAssessment.polarity} ${landingAssessment.polarity} ${ageMatches.length > 0 ? String(ageMin) : ''}`;
  let approval = approvals.get(key);
  if (approval === undefined) {
    if (approvals.size >= APPROVALS_KEPT) approvals.clear();
    approval = deepFreeze(approve(advertiserAssessment, landingAssessment, ageMatches.length > 0, ageMin));
    approvals.set(key, approval);
  }
  return approval;
}

/** Approvals kept for sharing; a table with more starts again (the minimum age can be any number). */
const APPROVALS_KEPT = 64;
const approvals = new Map<string, Outcome>();

function approve(
  advertiserAssessment: Assessment,
  landingAssessment: Assessment,
  ageRestricted: boolean,
  ageMin: number | null,
): Outcome {
  const positive: Hit[] = [
    {
      ruleId: 'ADP-BASELINE',
      ruleSlug: 'no-prohibited-content',
      polarity: 'POSITIVE',
      confidence: 'medium',
      reasoning: 'No prohibited claim, flagged media or unrestricted age-sensitive content was found.',
      evidence: [{ modality: 'text', claim: 'Title, headline and copy contain no prohibited claim.' }],
    },
  ];
  if (ageRestricted) {
    positive.push({
      ruleId: 'ADP-AGE-RESTRICTED',
      ruleSlug: 'age-restricted-products',
      polarity: 'POSITIVE',
      confidence: 'high',
      reasoning: 'Age-restricted product, but the targeting excludes people under 18.',
      evidence: [{ modality: 'metadata', claim: `targeting.ageMin is ${ageMin}` }],
    });
  }
  const confidence: Confidence = advertiserAssessment.polarity === 'POSITIVE' ? 'high' : 'medium';
  return completed({
    advertiserAssessment,
    landingAssessment,
    decisionSource: 'model',
    failureCode: null,
    failureMessage: null,
    disposition: 'approve',
    confidence,
    title: null,
    reason: 'The creative complies with the advertising policy.',
    hits: positive,
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}

/** Writes the decision's keys in the order the spec lists them. */
function completed(decision: ModerationDecision): Outcome {
  const { disposition, confidence, title, reason, hits, advertiserAssessment, landingAssessment } = decision;
  const { decisionSource, failureCode, failureMessage } = decision;
  return {
    analysisStatus: 'completed',
    decision: {
      disposition,
      confidence,
      title,
      reason,
      hits,
      advertiserAssessment,
      landingAssessment,
      decisionSource,
      failureCode,
      failureMessage,
    },
  };
}

function claimHit(match: TextMatch): Hit {
  return {
    ruleId: 'ADP-PROHIBITED-CLAIMS',
    ruleSlug: 'prohibited-claims',
    polarity: 'NEGATIVE',
    confidence: 'high',
    reasoning: `${match.field} makes an unsubstantiated claim.`,
    evidence: [textEvidence(`Prohibited claim "${match.term}"`, match)],
  };
}

function ageGateHit(match: TextMatch): Hit {
  return {
    ruleId: 'ADP-AGE-RESTRICTED',
    ruleSlug: 'age-restricted-products',
    polarity: 'NEGATIVE',
    confidence: 'high',
    reasoning: `${match.field} mentions an age-restricted product while targeting.ageMin allows minors.`,
    evidence: [textEvidence(`Age-restricted term "${match.term}"`, match)],
  };
}

function textEvidence(claim: string, match: TextMatch): Evidence {
  return {
    modality: 'text',
    claim,
    locator: { textSpan: { field: match.field, start: match.start, end: match.end } },
  };
}

function flaggedMedia(submission: { readonly [key: string]: unknown }): Hit[] {
  const media = submission['media'];
  if (!Array.isArray(media)) return [];
  const hits: Hit[] = [];
  media.forEach((item: unknown, index) => {
    const url = isRecord(item) ? item['url'] : undefined;
    if (typeof url !== 'string' || !url.toLowerCase().includes(FLAGGED_MEDIA_MARKER)) return;
    const modality = isRecord(item) && item['type'] === 'video' ? 'video' : 'image';
    hits.push({
      ruleId: 'ADP-MEDIA-REVIEW',
      ruleSlug: 'flagged-media',
      polarity: 'AMBIGUOUS',
      confidence: 'medium',
      reasoning: `media[${index}] is flagged for human review.`,
      evidence: [{ modality, claim: `media[${index}] is flagged`, locator: { mediaIndex: index } }],
    });
  });
  return hits;
}

/** The paths of `TEXT_FIELDS`, split once. */
const TEXT_FIELD_PATHS = TEXT_FIELDS.map((field) => ({ field, path: field.split('.') }));

/** The text fields the submission has, in scan order. */
function textsOf(submission: { readonly [key: string]: unknown }): readonly FieldText[] {
  const texts: FieldText[] = [];
  for (const { field, path } of TEXT_FIELD_PATHS) {
    const text = stringAt(submission, path);
    if (text !== null) texts.push({ field, text });
  }
  return texts;
}

interface FieldText {
  readonly field: (typeof TEXT_FIELDS)[number];
  readonly text: string;
}

/** Every case-insensitive occurrence of each term in each text field, with UTF-16 offsets into that field. */
function findTerms(texts: readonly FieldText[], terms: readonly string[], wholeWord: boolean): TextMatch[] {
  const matches: TextMatch[] = [];
  const { patterns, any } = patternsOf(terms, wholeWord);
  for (const { field, text } of texts) {
    // One test of all the terms at once first: most texts hold none, and then the scan per term
    // (thirteen expressions over six fields) is skipped.
    if (!any.test(text)) continue;
    terms.forEach((term, i) => {
      const pattern = patterns[i];
      if (pattern === undefined) return;
      for (const found of text.matchAll(pattern)) {
        matches.push({ field, term, start: found.index, end: found.index + found[0].length });
      }
    });
  }
  return matches;
}

/**
 * The expression of each term, compiled once per term list: building them per submission was a fifth
 * of a moderation case's cost. Sharing one is safe: `matchAll` iterates a copy, never the original's
 * `lastIndex`.
 */
const compiled = new WeakMap<readonly string[], { wholeWord: Patterns; prefix: Patterns }>();

interface Patterns {
  /** One expression per term, global. */
  readonly patterns: readonly RegExp[];
  /** Matches a text where any of the terms does (not global: `test` keeps no `lastIndex`). */
  readonly any: RegExp;
}

function patternsOf(terms: readonly string[], wholeWord: boolean): Patterns {
  let known = compiled.get(terms);
  if (known === undefined) {
    const build = (whole: boolean): Patterns => {
      const end = whole ? '\\b' : '';
      return {
        patterns: terms.map((term) => new RegExp(`\\b${escapeRegExp(term)}${end}`, 'gi')),
        any: new RegExp(`\\b(?:${terms.map(escapeRegExp).join('|')})${end}`, 'i'),
      };
    };
    known = { wholeWord: build(true), prefix: build(false) };
    compiled.set(terms, known);
  }
  return wholeWord ? known.wholeWord : known.prefix;
}

function assessAdvertiser(submission: { readonly [key: string]: unknown }): Assessment {
  const profile = submission['publicProfile'];
  if (isRecord(profile) && profile['verified'] === true) {
    return { polarity: 'POSITIVE', reasoning: 'The advertiser has a verified public profile.' };
  }
  return {
    polarity: 'AMBIGUOUS',
    reasoning: 'The advertiser has no verified public profile; its identity rests on the submitted name.',
  };
}

function assessLanding(url: string | null): Assessment {
  if (url === null)
    return { polarity: 'NEGATIVE', reasoning: 'There is no landing page or destination to assess.' };
  if (/^https:/iu.test(url))
    return { polarity: 'POSITIVE', reasoning: 'The landing page is served over HTTPS.' };
  return { polarity: 'AMBIGUOUS', reasoning: 'The landing page is not served over HTTPS.' };
}

function stringAt(value: unknown, path: readonly string[]): string | null {
  const found = valueAt(value, path);
  return typeof found === 'string' ? found : null;
}

function numberAt(value: unknown, path: readonly string[]): number | null {
  const found = valueAt(value, path);
  return typeof found === 'number' ? found : null;
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

function isRecord(value: unknown): value is { readonly [key: string]: unknown } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}
