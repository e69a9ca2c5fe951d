import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveSandboxLimits, SandboxOptionError } from './limits.ts';
import { LogBudget } from './log-budget.ts';
import { cutUtf8 } from './utf8.ts';

describe('cutUtf8', () => {
  it('gives the longest prefix that fits, never half a character', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat(160), (text, max) => {
        const cut = cutUtf8(text, max);
        expect(text.startsWith(cut)).toBe(true);
        expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(Math.max(max, 0));
        // Never half a character: the prefix survives a UTF-8 round trip unchanged (a lone surrogate
        // would come back as U+FFFD, which the input itself may well contain).
        expect(Buffer.from(cut, 'utf8').toString('utf8')).toBe(cut);
        // Maximal: one more code point would not fit (or there is none).
        const next = text.slice(cut.length).codePointAt(0);
        if (next !== undefined)
          expect(Buffer.byteLength(cut + String.fromCodePoint(next))).toBeGreaterThan(max);
      }),
    );
  });
});

describe('LogBudget', () => {
  it('keeps at most maxLines lines and maxBytes bytes, counting what it drops', () => {
    fc.assert(
      fc.property(
        fc.nat(20),
        fc.nat(200),
        fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { maxLength: 40 }),
        (maxLines, maxBytes, lines) => {
          const budget = new LogBudget(maxLines, maxBytes);
          const answers = lines.map((line) => budget.admit(line, line.length));
          const kept = answers.filter((l) => l !== null);
          expect(kept.length).toBeLessThanOrEqual(maxLines);
          expect(kept.reduce((n, l) => n + Buffer.byteLength(l), 0)).toBeLessThanOrEqual(maxBytes);
          const whole = answers.filter((l, i) => l === lines[i]).length;
          const truncation = budget.truncation();
          if (truncation === null) expect(whole).toBe(lines.length);
          else expect(truncation.dropped).toBe(lines.length - whole);
        },
      ),
    );
  });
});

describe('resolveSandboxLimits', () => {
  it('completes with the defaults and refuses unknown names and out-of-range values, naming them', () => {
    expect(resolveSandboxLimits({ timeMs: 100 }).timeMs).toBe(100);
    expect(() => resolveSandboxLimits({ timeMs: 0 })).toThrow(/"timeMs" must be an integer from 10/);
    expect(() => resolveSandboxLimits({ poolSize: 2.5 })).toThrow(SandboxOptionError);
    expect(() => resolveSandboxLimits(JSON.parse('{"timeout": 5}'))).toThrow(
      /Unknown sandbox option "timeout"/,
    );
  });
});
