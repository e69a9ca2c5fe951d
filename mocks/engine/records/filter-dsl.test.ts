import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FILTER_KEYS, parseFilter } from './filter-dsl.ts';

const terms = (text: string) => {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.value.map((t) => `${t.key}=${t.value}`);
};

describe('filter DSL parsing', () => {
  it('SEARCH-FILTER-ALL-TERMS: key=value terms joined by +', () => {
    expect(terms('platform=DISCORD+status=OPEN')).toEqual(['platform=DISCORD', 'status=OPEN']);
    expect(terms('')).toEqual([]);
    expect(terms('   ')).toEqual([]);
  });

  it('a + decoded to a space still separates terms when a known key follows; other spaces belong to the value', () => {
    expect(terms('platform=DISCORD status=OPEN')).toEqual(['platform=DISCORD', 'status=OPEN']);
    expect(terms('sentiment=Very Negative platform=TWITTER')).toEqual([
      'sentiment=Very Negative',
      'platform=TWITTER',
    ]);
    expect(terms('queue=Technical Support+tag=Bug report')).toEqual([
      'queue=Technical Support',
      'tag=Bug report',
    ]);
    expect(terms('assignee=Dana Whitfield')).toEqual(['assignee=Dana Whitfield']);
    expect(terms('userId=usr_ñandú_01')).toEqual(['userId=usr_ñandú_01']);
    expect(terms('userId=9007199254740993123')).toEqual(['userId=9007199254740993123']);
  });

  it('MOCK-QUERY-INVALID-400: a malformed filter is an error naming the term', () => {
    const cases: [string, string][] = [
      ['platform', "without '='"],
      ['platform=DISCORD+', 'empty term'],
      ['colour=red', "unknown key 'colour'"],
      ['platform=', "empty value for 'platform'"],
      ['responded=yes', 'true or false'],
      ['Platform=DISCORD', "unknown key 'Platform'"],
    ];
    for (const [text, why] of cases) {
      const parsed = parseFilter(text, 'fullFilter');
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) {
        expect(parsed.error).toContain(why);
        expect(parsed.error).toContain('fullFilter');
      }
    }
  });

  it('any list of valid terms joined by + or by spaces parses back to the same terms', () => {
    const value = fc
      .stringMatching(/^[A-Za-z0-9_ñ][A-Za-z0-9_ ñ.-]{0,12}$/)
      .filter((v) => !v.endsWith(' ') && !/ \w+=/.test(v));
    const term = fc.record({
      key: fc.constantFrom(...FILTER_KEYS.filter((k) => k !== 'responded' && k !== 'isPublicPost')),
      value,
    });
    fc.assert(
      fc.property(fc.array(term, { minLength: 1, maxLength: 5 }), fc.constantFrom('+', ' '), (list, sep) => {
        const text = list.map((t) => `${t.key}=${t.value}`).join(sep);
        expect(terms(text)).toEqual(list.map((t) => `${t.key}=${t.value}`));
      }),
    );
  });
});
