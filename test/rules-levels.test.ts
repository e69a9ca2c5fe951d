/**
 * Every rule of the catalog carries exactly one level in contract/audit.json (`levels`), with the
 * spec's words or the reason it is a reading: the verdict of `cca-kit conform` weighs failures by it.
 */
import { describe, expect, it } from 'vitest';
import auditJson from '../contract/audit.json' with { type: 'json' };
import { levelOf, ruleLevels, rules } from '../src/contract/rules.ts';

const LEVELS = ['must', 'should', 'mock-only'];
const entries = Object.entries(
  (auditJson as { levels: Record<string, { level: string; because: string }> }).levels,
);

describe('rule levels (contract/audit.json levels)', () => {
  it('every rule of the catalog has a level entry, and every entry names a rule of the catalog', () => {
    const ids = new Set(rules.map((r) => r.id));
    expect(rules.filter((r) => !ruleLevels.has(r.id)).map((r) => r.id)).toEqual([]);
    expect(entries.filter(([id]) => !ids.has(id)).map(([id]) => id)).toEqual([]);
  });

  it('each entry is one of must, should, mock-only with a stated reason', () => {
    const bad = entries.filter(([, e]) => !LEVELS.includes(e.level) || e.because.trim().length < 20);
    expect(bad).toEqual([]);
  });

  it('a must cites the spec (a section and its words); a should says why it is a reading, a convention or an open point', () => {
    for (const [id, e] of entries) {
      if (e.level === 'must') expect(e.because, id).toMatch(/§\d/);
      if (e.level === 'should') expect(e.because, id).toMatch(/^(reading|convention|open point)\b/);
    }
  });

  it('the false alarms met on an independent deployment are classified: readings are should, the ad_policy refusal is must', () => {
    expect(levelOf('ENG-PLATFORMS-FILTER')).toBe('should');
    expect(levelOf('ERR-MODERATION-CODE-KIND')).toBe('should');
    expect(levelOf('MOD-AD-POLICY-MODE-REQUIRED')).toBe('must');
    expect(levelOf('MOCK-NO-AD-POLICY-403')).toBe('mock-only');
  });

  it('a rule whose check is mock-only is never must unless a law can observe it on a live target', () => {
    const mockOnlyAsMust = rules
      .filter((r) => r.check === 'mock-only' && levelOf(r.id) === 'must')
      .map((r) => r.id);
    for (const id of mockOnlyAsMust) expect(id, id).not.toMatch(/^MOCK-/);
  });

  it('a should rule is a reading of what deployments answer, so it is checked live; a mock-only level has a mock-only check', () => {
    expect(
      rules.filter((r) => levelOf(r.id) === 'should' && r.check === 'mock-only').map((r) => r.id),
    ).toEqual([]);
    expect(
      rules.filter((r) => levelOf(r.id) === 'mock-only' && r.check !== 'mock-only').map((r) => r.id),
    ).toEqual([]);
  });

  it('LIST-SORTBY-VALUES, MOD-VALIDATED-BEFORE-ENQUEUE are must (stated outright); TAGS-SEARCH-TEXT is live; LIST-FROM-ISO-8601 stays should', () => {
    expect(levelOf('LIST-SORTBY-VALUES')).toBe('must');
    expect(levelOf('MOD-VALIDATED-BEFORE-ENQUEUE')).toBe('must');
    expect(rules.find((r) => r.id === 'TAGS-SEARCH-TEXT')?.check).toBe('live');
    // The answer to a value that is not ISO 8601 is not stated, and a blind deployment reads the RFC 3339 form.
    expect(levelOf('LIST-FROM-ISO-8601')).toBe('should');
  });

  it('an id the audit does not know is judged must (never silently downgraded)', () => {
    expect(levelOf('NOT-A-RULE-ANYWHERE')).toBe('must');
  });
});
