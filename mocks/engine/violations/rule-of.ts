/**
 * The rule a recorded mistake broke: from the field of a validation issue (through the generated
 * index of the catalog), from an engine error code, or from the check a handler made.
 */
import { RULE_INDEX } from './rule-index.generated.ts';

/** Engine error codes of malformed requests, and the rule each one is about. */
export const RULE_OF_CODE: Readonly<Record<string, string>> = {
  KEY_MISSING: 'AUTH-MISSING-KEY-401',
  ROUTE_NOT_FOUND: 'MOCK-UNKNOWN-PATH-404',
  METHOD_NOT_ALLOWED: 'MOCK-WRONG-METHOD-405',
  MALFORMED_JSON: 'MOCK-MALFORMED-JSON-400',
  UNSUPPORTED_MEDIA_TYPE: 'MOCK-UNSUPPORTED-MEDIA-TYPE-415',
  BODY_TOO_LARGE: 'MOCK-BODY-LIMIT-413',
  BODY_REQUIRED: 'SCHEMA-JSON-BODIES',
};

/** Rules the log names outside the generated index (a test holds each to the catalog). */
export const FIXED_RULES = {
  precisionLoss: 'ID-STRING-PRESERVED',
  fullFilterWithFilter: 'LIST-FULLFILTER-WITH-FILTER-400',
  fullFilterLength: 'LIST-FULLFILTER-MAX-LENGTH',
  dateFormat: 'LIST-FROM-ISO-8601',
  invalidQuery: 'MOCK-QUERY-INVALID-400',
  customFieldType: 'CF-PATCH-TYPE-MATCH-422',
  noPageInput: 'LIST-NO-PAGE-INPUT',
  dateOnlyTo: 'LIST-TO-DATE-ONLY-MIDNIGHT',
} as const;

/** `cases[2].media[0].type` → segments without indices, and whether each was followed by an index. */
function segmentsOf(field: string): { name: string; indexed: boolean }[] {
  return field
    .split('.')
    .filter((part) => part !== '')
    .map((part) => ({ name: part.replace(/\[\d+\]/g, ''), indexed: /\[\d+\]$/.test(part) }));
}

/**
 * The rule of a field of an operation's input: the full path (`targeting.geos`), else, under an
 * array item (`records[3].score`), the item's field; under an object (`attachment.type`), the object.
 */
export function ruleOfField(operationId: string | null, field: string): string | null {
  if (operationId === null) return null;
  let segments = segmentsOf(field);
  const tables = [RULE_INDEX[operationId]];
  // A batch item is a single submission: `cases[1].title` is the `title` of submitModerationCase.
  if (operationId === 'submitModerationBatch' && segments[0]?.name === 'cases' && segments.length > 1) {
    segments = segments.slice(1);
    tables.push(RULE_INDEX['submitModerationCase']);
  }
  const full = segments.map((s) => s.name).join('.');
  const first = segments[0];
  const last = segments[segments.length - 1];
  const candidates =
    first === undefined || last === undefined
      ? [full]
      : first.indexed
        ? [full, last.name, first.name]
        : [full, first.name, last.name];
  for (const candidate of candidates) {
    for (const table of tables) {
      const id = table?.[candidate];
      if (id !== undefined) return id;
    }
  }
  return null;
}

/** The rule behind a 400 or 422 a handler answered itself, from its message. */
export function ruleOfRejection(operationId: string | null, status: number, message: string): string | null {
  if (message.includes('must not be combined')) return FIXED_RULES.fullFilterWithFilter;
  if (message.includes('fullFilter is longer')) return FIXED_RULES.fullFilterLength;
  if (message.includes('ISO 8601')) return FIXED_RULES.dateFormat;
  if (status === 422 && operationId === 'updateCustomFields') return FIXED_RULES.customFieldType;
  const named = /(?:query parameter|Query parameter) '?([A-Za-z]+)'?/.exec(message)?.[1];
  const byField = named === undefined ? null : ruleOfField(operationId, named);
  if (byField !== null && !message.includes("is after 'to'")) return byField;
  return status === 400 ? FIXED_RULES.invalidQuery : null;
}
