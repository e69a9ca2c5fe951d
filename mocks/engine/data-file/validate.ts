/**
 * Validation of a data file as a whole: the JSON Schema and the references and ids, in one round. A
 * file with any problem is refused entirely, every problem listed by JSON pointer; nothing of it is
 * loaded. The references of entries that break the schema are not checked (their shape is unknown),
 * nor those of entries of an organization that breaks it (its catalog is unknown); the rest are.
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
  if (structural.length === 0) {
    const file = value as DataFile;
    const problems = referenceProblems(file, existing, anchor);
    return problems.length > 0 ? { ok: false, problems: capped(problems) } : { ok: true, file };
  }
  const sound = soundPart(value, structural);
  const references = sound === undefined ? [] : referencesOfSoundPart(sound, existing, anchor);
  return { ok: false, problems: capped([...structural, ...references]) };
}

/** The lists of a data file whose entries the reference checks walk. */
const LISTS = [
  'organizations',
  'keys',
  'actions',
  'moderationCases',
  'ingestionBatches',
  'replyRequests',
] as const;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The file without the entries that break the schema (and the entries of an organization that
 * does), as sparse lists so that pointers keep their indices; undefined when the file's frame itself
 * is broken (not an object, a list that is not a list).
 */
function soundPart(value: unknown, problems: readonly DataProblem[]): DataFile | undefined {
  if (!isRecord(value)) return undefined;
  const broken = new Map<string, Set<number>>(LISTS.map((name) => [name, new Set<number>()]));
  for (const { pointer } of problems) {
    const [, list = '', index] = pointer.split('/');
    const marks = broken.get(list);
    if (pointer === '' || (marks !== undefined && index === undefined)) return undefined;
    if (marks !== undefined && index !== undefined && /^\d+$/.test(index)) marks.add(Number(index));
  }
  for (const name of LISTS) if (value[name] !== undefined && !Array.isArray(value[name])) return undefined;
  const organizations = (value['organizations'] ?? []) as unknown[];
  const brokenOrgs = new Set(
    [...(broken.get('organizations') ?? [])].map(
      (i) => (organizations[i] as { id?: unknown } | undefined)?.id,
    ),
  );
  const copy: Record<string, unknown> = { ...value };
  for (const name of LISTS) {
    const list = value[name];
    if (!Array.isArray(list)) continue;
    const marks = broken.get(name) ?? new Set<number>();
    const sparse: unknown[] = list.slice();
    list.forEach((entry, i) => {
      const org = isRecord(entry) ? entry['organizationId'] : undefined;
      if (marks.has(i) || (name !== 'organizations' && brokenOrgs.has(org))) delete sparse[i];
    });
    copy[name] = sparse;
  }
  return copy as unknown as DataFile;
}

/** Reference problems of the sound part; a shape the schema let through but the checks cannot read adds none. */
function referencesOfSoundPart(file: DataFile, existing: ExistingState, anchor: number): DataProblem[] {
  try {
    return referenceProblems(file, existing, anchor);
  } catch {
    return [];
  }
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
