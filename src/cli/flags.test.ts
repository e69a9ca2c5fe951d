import { describe, expect, it } from 'vitest';
import { integerFlag, nearestFlag, parseFlags } from './flags.ts';
import { UsageError } from './io.ts';

const TABLE = {
  port: { type: 'string' },
  seed: { type: 'string' },
  data: { type: 'string', multiple: true },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The usage error `run` throws: its message, or a failure when it throws none or another error. */
function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('no usage error');
}

describe('parseFlags: one table per command', () => {
  it('reads strings, repeated flags, booleans and -h by the table', () => {
    expect(
      parseFlags(['--port', '4010', '--data', 'a.json', '--data=b.json', '--quiet', '-h'], TABLE),
    ).toEqual({
      port: '4010',
      data: ['a.json', 'b.json'],
      quiet: true,
      help: true,
    });
  });

  it('refuses an unknown flag by name, with the nearest flag of the table', () => {
    expect(usageError(() => parseFlags(['--prot', '1'], TABLE))).toBe(
      "Unknown option '--prot' (did you mean --port?)",
    );
    expect(usageError(() => parseFlags(['--colour'], TABLE))).toBe("Unknown option '--colour'");
  });

  it('refuses a positional argument and a flag without its value', () => {
    expect(usageError(() => parseFlags(['4010'], TABLE))).toContain("'4010'");
    expect(usageError(() => parseFlags(['--port'], TABLE))).toContain('--port');
  });

  it('turns a boolean off with --no-<flag> only where the command allows it', () => {
    expect(parseFlags(['--no-quiet'], TABLE, { allowNegative: true })).toEqual({ quiet: false });
    expect(usageError(() => parseFlags(['--no-quiet'], TABLE))).toContain("'--no-quiet'");
  });

  it('suggests only a flag within two edits', () => {
    expect(nearestFlag(TABLE, '--sede=3')).toBe('--seed');
    expect(nearestFlag(TABLE, '--verbose')).toBeUndefined();
  });
});

describe('integerFlag: plain decimal within a range', () => {
  it('reads a value within the range, and nothing when the flag was not given', () => {
    expect(integerFlag('port', '0', { max: 65_535 })).toBe(0);
    expect(integerFlag('port', '65535', { max: 65_535 })).toBe(65_535);
    expect(integerFlag('seed', '-3', { min: -10 })).toBe(-3);
    expect(integerFlag('port', undefined)).toBeUndefined();
  });

  it('refuses a value out of range, naming the flag, the range and the value', () => {
    expect(usageError(() => integerFlag('port', '65536', { max: 65_535 }))).toBe(
      '--port must be an integer between 0 and 65535 (got "65536")',
    );
    expect(usageError(() => integerFlag('timeout-ms', '0', { min: 1, max: 10 }))).toBe(
      '--timeout-ms must be an integer between 1 and 10 (got "0")',
    );
    expect(usageError(() => integerFlag('seed', '-1'))).toContain('between 0 and');
  });

  it('refuses what is not plain decimal: leading zeros, -0, a sign, an exponent, a fraction, digits beyond a safe integer', () => {
    for (const value of ['007', '-0', '+1', '1e3', '1.5', '', ' 1', '0x10', '99999999999999999999'])
      expect(() => integerFlag('seed', value, { min: -100 }), value).toThrow(UsageError);
  });
});
