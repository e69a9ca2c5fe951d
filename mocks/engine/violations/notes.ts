/**
 * What the log notes about requests the service answers normally: query parameters the operation
 * does not declare (a warning: the service ignores them, so the client does not get what it asked
 * for), and hints on valid values that often mean something else than intended. Cheap enough for
 * every request: a set lookup per query parameter, a regular expression per date.
 */
import type { Operation } from '../../../src/contract/index.ts';
import { FIXED_RULES, ruleOfField } from './rule-of.ts';
import type { ViolationIssue } from './types.ts';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP_WITHOUT_ZONE = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?$/;

const declaredQuery = new WeakMap<Operation, ReadonlyMap<string, string>>();

/** The operation's query parameter names, by lower-case spelling (for `pagesize` → `pageSize`). */
function queryNames(operation: Operation): ReadonlyMap<string, string> {
  let names = declaredQuery.get(operation);
  if (names === undefined) {
    names = new Map(
      operation.parameters.filter((p) => p.in === 'query').map((p) => [p.name.toLowerCase(), p.name]),
    );
    declaredQuery.set(operation, names);
  }
  return names;
}

function undeclared(operation: Operation, name: string): ViolationIssue {
  const op = operation.operationId;
  const declared = [...queryNames(operation).values()];
  const near = queryNames(operation).get(name.toLowerCase());
  const list = declared.length === 0 ? 'none' : declared.join(', ');
  const base = `query parameter ${name} is not declared by ${op} (declared: ${list}); the service ignores it`;
  if (op === 'listActions' && /^(page|pageNumber|offset|cursor|skip)$/i.test(name)) {
    return {
      location: 'query',
      pointer: name,
      field: name,
      keyword: 'undeclared',
      message: base,
      rule: FIXED_RULES.noPageInput,
      hint: 'The action list has no numbered page input: continue by moving the from/to window past the last createdAt (or updatedAt with sortBy) and deduplicate on actionId.',
    };
  }
  if (near !== undefined) {
    return {
      location: 'query',
      pointer: name,
      field: name,
      keyword: 'undeclared',
      message: `${base}: parameter names are case-sensitive, did you mean ${near}?`,
      rule: ruleOfField(op, near),
      hint: `Send ${near}=...; as sent, ${near} takes its default.`,
    };
  }
  return { location: 'query', pointer: name, field: name, keyword: 'undeclared', message: base, rule: null };
}

function dateHints(name: string, value: string): ViolationIssue[] {
  if (name === 'to' && DATE_ONLY.test(value)) {
    return [
      {
        location: 'query',
        pointer: name,
        field: name,
        keyword: 'date-only-to',
        message: `to=${value} is midnight UTC at the start of ${value} (spec 4.1), not the end of that day: records later on ${value} are outside the window`,
        rule: FIXED_RULES.dateOnlyTo,
        hint: `To include the whole day, send to=${value}T23:59:59.999Z (or the next day's date, which is inclusive).`,
      },
    ];
  }
  if ((name === 'from' || name === 'to') && TIMESTAMP_WITHOUT_ZONE.test(value)) {
    return [
      {
        location: 'query',
        pointer: name,
        field: name,
        keyword: 'timestamp-without-zone',
        message: `${name}=${value} has no zone designator: the spec does not say which zone the service reads it in (the mock reads UTC)`,
        rule: FIXED_RULES.dateFormat,
        hint: `Send ${value}Z, or an offset (encode + as %2B: ${value}%2B02:00).`,
      },
    ];
  }
  return [];
}

export interface RequestNotes {
  readonly undeclared: readonly ViolationIssue[];
  readonly hints: readonly ViolationIssue[];
}

const NONE: RequestNotes = { undeclared: [], hints: [] };

/** Undeclared query parameters and hints of one request to `operation`. */
export function notesOf(operation: Operation, query: URLSearchParams): RequestNotes {
  if (query.size === 0) return NONE;
  const names = queryNames(operation);
  const undeclaredIssues: ViolationIssue[] = [];
  const hints: ViolationIssue[] = [];
  const seen = new Set<string>();
  for (const [name, value] of query) {
    if (!names.has(name.toLowerCase()) || names.get(name.toLowerCase()) !== name) {
      if (!seen.has(name)) undeclaredIssues.push(undeclared(operation, name));
      seen.add(name);
      continue;
    }
    if (names.has('to') || names.has('from')) hints.push(...dateHints(name, value));
  }
  return undeclaredIssues.length === 0 && hints.length === 0 ? NONE : { undeclared: undeclaredIssues, hints };
}
