/**
 * Validation of a data file as a whole: the JSON Schema first, then references and ids. A file with
 * any problem is refused entirely, every problem listed by JSON pointer; nothing of it is loaded.
 */
import { type ExistingState, NOTHING_EXISTS, referenceProblems } from './references.ts';
import { schemaProblems } from './schema.ts';
import type { DataFile, DataProblem } from './types.ts';

/** Largest data file accepted, in bytes of JSON text (files, admin bodies). */
export const MAX_DATA_FILE_BYTES = 64 * 1024 * 1024;

/** At most this many problems are listed; one more line says how many were left out. */
export const MAX_LISTED_PROBLEMS = 200;

export type DataFileCheck =
  | { readonly ok: true; readonly file: DataFile }
  | { readonly ok: false; readonly problems: readonly DataProblem[] };

/** Thrown where a refused file cannot be answered as data (engine construction, the CLI). */
export class DataFileError extends Error {
  override readonly name = 'DataFileError';
  readonly code = 'DATA_FILE_INVALID';
  constructor(
    readonly problems: readonly DataProblem[],
    readonly source = 'data file',
  ) {
    super(
      `${source} refused (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${formatProblems(problems)}`,
    );
  }
}

export const isDataFileError = (value: unknown): value is DataFileError => value instanceof DataFileError;

/** One line per problem: `/actions/3/queue: no queue "q9" in organization "org_demo"`. */
export function formatProblems(problems: readonly DataProblem[]): string {
  return problems.map((p) => `  ${p.pointer === '' ? '(the file)' : p.pointer}: ${p.message}`).join('\n');
}

function capped(problems: DataProblem[]): DataProblem[] {
  if (problems.length <= MAX_LISTED_PROBLEMS) return problems;
  return [
    ...problems.slice(0, MAX_LISTED_PROBLEMS),
    { pointer: '', message: `${problems.length - MAX_LISTED_PROBLEMS} more problems not listed` },
  ];
}

/**
 * Checks a parsed data file. `existing` is what it may refer to besides itself (the live state for a
 * merge); relative timestamps are resolved against `anchor`.
 *
 * @example
 * const check = checkDataFile(JSON.parse(text), NOTHING_EXISTS, clock.now());
 * if (!check.ok) console.error(formatProblems(check.problems));
 */
export function checkDataFile(value: unknown, existing: ExistingState, anchor: number): DataFileCheck {
  const structural = schemaProblems(value);
  if (structural.length > 0) return { ok: false, problems: capped(structural) };
  const file = value as DataFile;
  const problems = referenceProblems(file, existing, anchor);
  return problems.length > 0 ? { ok: false, problems: capped(problems) } : { ok: true, file };
}

/**
 * Whether `text` takes more than `limit` bytes as UTF-8, counted without encoding it (no copy); only
 * text that could be over (more than a third of the limit in UTF-16 units) is scanned.
 */
function utf8LengthOver(text: string, limit: number): boolean {
  if (text.length * 3 <= limit) return false;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is 4 bytes: 2 per unit.
    bytes += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 2 : 3;
    if (bytes > limit) return true;
  }
  return false;
}

/** Parses JSON text of a data file (bounded), then checks it like `checkDataFile`. */
export function parseDataFile(
  text: string,
  existing: ExistingState = NOTHING_EXISTS,
  anchor = 0,
): DataFileCheck {
  if (text.length > MAX_DATA_FILE_BYTES || utf8LengthOver(text, MAX_DATA_FILE_BYTES))
    return {
      ok: false,
      problems: [{ pointer: '', message: `the file is larger than ${MAX_DATA_FILE_BYTES} bytes` }],
    };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (cause) {
    return {
      ok: false,
      problems: [
        { pointer: '', message: `not JSON: ${cause instanceof Error ? cause.message : String(cause)}` },
      ],
    };
  }
  return checkDataFile(value, existing, anchor);
}
