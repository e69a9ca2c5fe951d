/**
 * How every command reads its flags: one table per command, parsed by node:util's `parseArgs` with no
 * positional argument, an unknown flag refused by name (with the nearest flag of the table when one
 * is close), and integer values read by one rule with their range in the message.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './io.ts';

/** A command's table of flags, as `parseArgs` takes it. */
export type FlagTable = NonNullable<ParseArgsConfig['options']>;

type Parsed<T extends FlagTable> = ReturnType<
  typeof parseArgs<{ args: string[]; strict: true; allowPositionals: false; allowNegative: true; options: T }>
>['values'];

/** Edit distance, small strings only: enough to suggest `--port` for `--prot`. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The flag of `table` nearest to `given` (`--prot`), when one is within two edits. */
export function nearestFlag(table: FlagTable, given: string): string | undefined {
  const bare = given.replace(/^-+/, '').replace(/=.*$/, '');
  let best: { name: string; cost: number } | undefined;
  for (const name of Object.keys(table)) {
    const cost = distance(bare, name);
    if (cost <= 2 && (best === undefined || cost < best.cost)) best = { name, cost };
  }
  return best === undefined ? undefined : `--${best.name}`;
}

/**
 * The values of `argv` by `table`. Refuses, as a usage error naming it, an unknown flag, a positional
 * argument and a flag without its value. `allowNegative` lets `--no-<flag>` turn a boolean off.
 */
export function parseFlags<T extends FlagTable>(
  argv: readonly string[],
  table: T,
  options: { readonly allowNegative?: boolean } = {},
): Parsed<T> {
  try {
    return parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      allowNegative: options.allowNegative ?? false,
      options: table,
    }).values as Parsed<T>;
  } catch (error) {
    const code = error instanceof Error && 'code' in error ? String(error.code) : '';
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const given = /'([^']+)'/.exec((error as Error).message)?.[1] ?? '';
      const near = nearestFlag(table, given);
      throw new UsageError(
        `Unknown option '${given}'${near === undefined ? '' : ` (did you mean ${near}?)`}`,
      );
    }
    if (code.startsWith('ERR_PARSE_ARGS')) throw new UsageError((error as Error).message);
    throw error;
  }
}

/** The range an integer flag accepts, both ends included. */
export interface IntegerRange {
  readonly min?: number;
  readonly max?: number;
}

const INTEGER = /^-?(?:0|[1-9]\d*)$/;

/**
 * The integer value of `--<name>`, or undefined when it was not given. Written in plain decimal
 * (no sign but a minus, no leading zero, no exponent) and within `range` (0 to the largest safe
 * integer by default); anything else is a usage error naming the flag, its range and the value.
 */
export function integerFlag(
  name: string,
  value: string | undefined,
  range: IntegerRange = {},
): number | undefined {
  if (value === undefined) return undefined;
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  const parsed = INTEGER.test(value) && value !== '-0' ? Number.parseInt(value, 10) : Number.NaN;
  if (!(parsed >= min && parsed <= max))
    throw new UsageError(
      `--${name} must be an integer between ${min} and ${max} (got ${JSON.stringify(value)})`,
    );
  return parsed;
}
