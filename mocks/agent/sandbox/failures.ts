/**
 * The failures the sandbox answers, worded once: each names the limit and its value, or the error the
 * script threw and its line.
 */
import type { AgentFailure } from '../types.ts';
import type { Thrown } from './thrown.ts';

type LimitName = Extract<AgentFailure, { kind: 'limit_exceeded' }>['limit'];

const LIMIT_WORDS: Readonly<Record<LimitName, (value: number) => string>> = {
  time: (v) =>
    `The script ran past the wall-time limit of ${v} ms (resume long work with saved cursors in a later execute)`,
  memory: (v) => `The script ran out of memory: the limit is ${v} bytes`,
  stack: (v) => `The script overflowed its stack (too deep recursion): the limit is ${v} bytes`,
  calls: (v) => `The script made more than ${v} call() invocations, the limit per execution`,
  script_size: (v) => `The script is larger than ${v} bytes (UTF-8), the limit`,
  output: (v) => `The script's output is larger than ${v} bytes, the limit`,
};

export function limitFailure(
  limit: LimitName,
  value: number,
): Extract<AgentFailure, { kind: 'limit_exceeded' }> {
  return { kind: 'limit_exceeded', code: 'LIMIT_EXCEEDED', limit, value, message: LIMIT_WORDS[limit](value) };
}

export function scriptFailure(thrown: Thrown): AgentFailure {
  const where = thrown.line === null ? '' : ` (line ${thrown.line})`;
  return { kind: 'script_error', code: 'SCRIPT_ERROR', message: `${thrown.name}: ${thrown.message}${where}` };
}

export function busyFailure(retryAfterMs: number, running: number, queued: number): AgentFailure {
  return {
    kind: 'busy',
    code: 'BUSY',
    retryAfterMs,
    message: `The sandbox is busy (${running} executions running, ${queued} waiting, the most allowed): retry after ${retryAfterMs} ms`,
  };
}

/**
 * The failure of an execution that ended on an uncaught `call` failure (`json`: what the prelude's
 * `callFailureOf` read off the Error): the operation's own failure (kind, field, missing scope...), with
 * the operation and the script line of the call, so the caller fixes the named field or reports the
 * missing access (section 7) instead of reading a script error. Null when `json` is not one.
 */
export function uncaughtCallFailure(json: string): AgentFailure | null {
  let read: unknown;
  try {
    read = JSON.parse(json);
  } catch {
    return null;
  }
  if (typeof read !== 'object' || read === null) return null;
  const { failure, operationId, line } = read as Record<string, unknown>;
  if (typeof failure !== 'object' || failure === null || typeof operationId !== 'string') return null;
  const original = failure as AgentFailure;
  if (typeof original.kind !== 'string' || typeof original.message !== 'string') return null;
  const at = typeof line === 'number' && Number.isInteger(line) ? line : null;
  const where = at === null ? '' : ` at line ${at}`;
  return {
    ...original,
    operationId,
    line: at,
    message: `Uncaught${where}: ${describeCallFailure(operationId, original)}`,
  } as AgentFailure;
}

/** The message of the Error a failed `call` throws inside the script: the operation, then what failed. */
export function describeCallFailure(operationId: string, failure: AgentFailure): string {
  const detail = (() => {
    switch (failure.kind) {
      case 'invalid_input':
      case 'not_found':
      case 'conflict':
        return ` at ${failure.field === '' ? '(input)' : failure.field}`;
      case 'forbidden':
        return ` (missing scope ${failure.missingScope})`;
      case 'limit_exceeded':
        return ` (limit ${failure.limit} = ${failure.value})`;
      default:
        return '';
    }
  })();
  return `call('${operationId}') failed: ${failure.code}${detail}: ${failure.message}`;
}
