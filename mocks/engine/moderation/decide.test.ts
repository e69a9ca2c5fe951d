import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateSchema } from '../../../src/contract/index.ts';
import {
  AGE_RESTRICTED_TERMS,
  decide,
  FAILURE_CODE_FAIL_CLOSED,
  FAILURE_CODE_TIMEOUT,
  PROHIBITED_CLAIMS,
} from './decide.ts';
import { sampleSubmission } from './sample.ts';
import type { ModerationDecision, Outcome } from './types.ts';

function decisionOf(outcome: Outcome): ModerationDecision {
  if (outcome.analysisStatus !== 'completed')
    throw new Error(`expected completed, got ${outcome.analysisStatus}`);
  return outcome.decision;
}

/** Every text span points inside the named field; every media index inside the media array. */
function expectEvidenceInside(submission: Record<string, unknown>, decision: ModerationDecision): void {
  const media = submission['media'] as unknown[];
  for (const hit of decision.hits) {
    for (const evidence of hit.evidence) {
      const span = evidence.locator?.textSpan;
      if (span !== undefined) {
        const [head, tail] = span.field.split('.');
        const container =
          tail === undefined ? submission : (submission[head ?? ''] as Record<string, unknown>);
        const text = container[tail ?? head ?? ''];
        expect(typeof text).toBe('string');
        expect(span.start).toBeGreaterThanOrEqual(0);
        expect(span.end).toBeLessThanOrEqual((text as string).length);
        expect(span.start).toBeLessThan(span.end);
      }
      const index = evidence.locator?.mediaIndex;
      if (index !== undefined) expect(index).toBeLessThan(media.length);
    }
  }
}

describe('decide', () => {
  it('approvals are shared, frozen, and each still states its own submission: assessments, confidence and minimum age', () => {
    const config = fc.record({
      verified: fc.boolean(),
      https: fc.boolean(),
      ageRestricted: fc.boolean(),
      ageMin: fc.integer({ min: 18, max: 120 }),
    });
    // In any order, so an approval made for one submission is never the answer to another.
    fc.assert(
      fc.property(fc.array(config, { minLength: 1, maxLength: 12 }), (configs) => {
        for (const { verified, https, ageRestricted, ageMin } of configs) {
          const outcome = decide(
            sampleSubmission({
              title: ageRestricted ? 'Craft beer for the weekend' : 'Lightweight tents',
              landingPageUrl: `${https ? 'https' : 'http'}://acme.example/x`,
              publicProfile: { verified },
              targeting: { ageMin, geos: ['US'] },
            }),
          );
          expect(Object.isFrozen(outcome)).toBe(true);
          const decision = decisionOf(outcome);
          expect(decision.disposition).toBe('approve');
          expect(decision.confidence).toBe(verified ? 'high' : 'medium');
          expect(decision.advertiserAssessment.polarity).toBe(verified ? 'POSITIVE' : 'AMBIGUOUS');
          expect(decision.landingAssessment.polarity).toBe(https ? 'POSITIVE' : 'AMBIGUOUS');
          const claims = decision.hits.flatMap((h) => h.evidence.map((e) => e.claim));
          if (ageRestricted) expect(claims).toContain(`targeting.ageMin is ${ageMin}`);
          else expect(decision.hits).toHaveLength(1);
        }
      }),
    );
  });

  it('approves a clean submission with positive hits', () => {
    const decision = decisionOf(decide(sampleSubmission()));
    expect(decision.disposition).toBe('approve');
    expect(decision.decisionSource).toBe('model');
    expect(decision.hits.every((hit) => hit.polarity === 'POSITIVE')).toBe(true);
    expect(decision.failureCode).toBeNull();
  });

  it('rejects a prohibited claim, the text span pointing exactly at it', () => {
    const body = 'Try it: a Guaranteed Cure for back pain.';
    const submission = sampleSubmission({ copy: { body } });
    const decision = decisionOf(decide(submission));
    expect(decision.disposition).toBe('reject');
    const span = decision.hits[0]?.evidence[0]?.locator?.textSpan;
    expect(span?.field).toBe('copy.body');
    expect(body.slice(span?.start, span?.end)).toBe('Guaranteed Cure');
  });

  it('counts spans in UTF-16 code units of the field, after astral characters too', () => {
    const title = '😀😀 İİ miracle';
    const decision = decisionOf(decide(sampleSubmission({ title })));
    const span = decision.hits[0]?.evidence[0]?.locator?.textSpan;
    expect(span).toEqual({ field: 'title', start: title.indexOf('miracle'), end: title.length });
  });

  it('escalates flagged media with the media index as evidence', () => {
    const media = [
      { url: 'https://cdn.example/ok.jpg', type: 'image', position: 1 },
      { url: 'https://cdn.example/flagged/clip.mp4', type: 'video', position: 2 },
    ];
    const decision = decisionOf(decide(sampleSubmission({ media })));
    expect(decision.disposition).toBe('escalate');
    expect(decision.hits[0]?.evidence[0]).toMatchObject({ modality: 'video', locator: { mediaIndex: 1 } });
  });

  it('age-gates alcohol reachable by minors, approves it for adults only', () => {
    const copy = { body: 'Our craft beer, brewed locally.' };
    const minors = decisionOf(decide(sampleSubmission({ copy, targeting: { ageMin: 13, geos: ['US'] } })));
    expect(minors.disposition).toBe('age_gate');
    const unset = decisionOf(decide(sampleSubmission({ copy, targeting: { ageMin: null, geos: ['US'] } })));
    expect(unset.disposition).toBe('age_gate');
    const adults = decisionOf(decide(sampleSubmission({ copy, targeting: { ageMin: 21, geos: ['US'] } })));
    expect(adults.disposition).toBe('approve');
  });

  it('fails closed when there is no landing page and no destination', () => {
    const submission = sampleSubmission({
      landingPageUrl: null,
      attachment: { type: 'lens', destinationUrl: null },
    });
    const decision = decisionOf(decide(submission));
    expect(validateSchema('ModerationDecision', decision)).toEqual({ ok: true });
    expect(decision).toMatchObject({ decisionSource: 'fail_closed', failureCode: FAILURE_CODE_FAIL_CLOSED });
    expect(decision.failureMessage).toEqual(expect.any(String));
  });

  it('fails the evaluation on the [[fail]] trigger', () => {
    expect(decide(sampleSubmission({ title: 'x [[fail]]' }))).toEqual({
      analysisStatus: 'failed',
      failureCode: FAILURE_CODE_TIMEOUT,
    });
  });

  it('SCHEMA-MODERATION-DECISION, SCHEMA-MODERATION-HIT, SCHEMA-MODERATION-EVIDENCE: deterministic, valid, every hit points inside the submission', () => {
    const words = fc.constantFrom('miracle', 'beer', 'casino', 'tent', 'guaranteed cure', '😀', 'é', ' ');
    const text = fc.array(words, { maxLength: 12 }).map((parts) => parts.join(' '));
    fc.assert(
      fc.property(
        text,
        text,
        fc.boolean(),
        fc.option(fc.integer({ min: 0, max: 30 })),
        (title, body, flag, ageMin) => {
          const submission = sampleSubmission({
            title: title === '' ? 't' : title,
            copy: { body },
            targeting: { ageMin, geos: ['US'] },
            media: [
              { url: `https://cdn.example/${flag ? 'flagged' : 'ok'}.png`, type: 'image', position: 1 },
            ],
          });
          const outcome = decide(submission);
          expect(decide(structuredClone(submission))).toEqual(outcome);
          expectEvidenceInside(submission, decisionOf(outcome));
          expect(validateSchema('ModerationDecision', decisionOf(outcome))).toEqual({ ok: true });
        },
      ),
    );
  });

  it('every occurrence of a claim or an age-restricted term, in any case and beside any character, is a hit at its span', () => {
    // Terms, pieces of terms and characters that make or break a word boundary, in any case.
    const piece = fc.oneof(
      fc.constantFrom(...PROHIBITED_CLAIMS, ...AGE_RESTRICTED_TERMS, 'mirac', 'whisk', 'bee', 'guaranteed'),
      fc.constantFrom(' ', '-', '_', 'x', '1', 'é', '😀', '.', 'S'),
    );
    const text = fc
      .array(fc.tuple(piece, fc.boolean()), { minLength: 1, maxLength: 10 })
      .map((parts) => parts.map(([p, upper]) => (upper ? p.toUpperCase() : p)).join(''));
    const spans = (terms: readonly string[], whole: boolean, value: string): string[] =>
      terms.flatMap((term) =>
        [...value.matchAll(new RegExp(`\\b${term}${whole ? '\\b' : ''}`, 'gi'))].map(
          (m) => `${m.index}-${m.index + m[0].length}`,
        ),
      );
    fc.assert(
      fc.property(text, (title) => {
        const submission = sampleSubmission({ title, targeting: { ageMin: null, geos: ['US'] } });
        const found = decisionOf(decide(submission))
          .hits.flatMap((hit) => hit.evidence)
          .map((e) => e.locator?.textSpan)
          .filter((span) => span?.field === 'title')
          .map((span) => `${span?.start}-${span?.end}`);
        // With ageMin null minors are reachable, so an age-restricted term is a hit on every path.
        const expected = [
          ...spans(PROHIBITED_CLAIMS, false, title),
          ...spans(AGE_RESTRICTED_TERMS, true, title),
        ];
        expect([...found].sort()).toEqual([...expected].sort());
      }),
      { numRuns: 500 },
    );
  });
});
