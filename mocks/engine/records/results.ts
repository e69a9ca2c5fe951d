/**
 * Results the read handlers answer themselves: 400 for a parameter the contract cannot judge alone
 * (a malformed filter, from after to), 404 for an id the organization does not have (the same body
 * whether the id is unknown or another organization's), 422 for custom-field values.
 */
import { ERROR_CODE_HEADER } from '../errors.ts';
import type { HandlerResult } from '../types.ts';

export function ok(body: unknown): HandlerResult {
  return { status: 200, body };
}

export function badRequest(operationId: string, message: string): HandlerResult {
  return {
    status: 400,
    body: { success: false, error: `Invalid request to ${operationId}: ${message}` },
    headers: { [ERROR_CODE_HEADER]: 'INVALID_PARAMETERS' },
  };
}

export function notFound(what: string, id: string): HandlerResult {
  return { status: 404, body: { success: false, error: `${what} ${id} not found` } };
}

export function customFieldErrors(fieldErrors: Record<string, string>): HandlerResult {
  return {
    status: 422,
    body: { success: false, error: 'Custom field validation failed', fieldErrors },
    headers: { [ERROR_CODE_HEADER]: 'INVALID_BODY' },
  };
}

/** Reads an optional integer query value (already coerced by the pipeline) within bounds. */
export function intParam(
  query: Readonly<Record<string, unknown>>,
  name: string,
  fallback: number,
  min: number,
  max: number,
): { ok: true; value: number } | { ok: false; error: string } {
  const raw = query[name];
  if (raw === undefined) return { ok: true, value: fallback };
  const value =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && /^-?\d+$/.test(raw)
        ? Number.parseInt(raw, 10)
        : Number.NaN;
  if (!Number.isInteger(value) || value < min || value > max) {
    return {
      ok: false,
      error: `query parameter ${name} must be an integer from ${min} to ${max} (got ${String(raw)})`,
    };
  }
  return { ok: true, value };
}

/** Reads an optional boolean query value (already coerced by the pipeline). */
export function boolParam(query: Readonly<Record<string, unknown>>, name: string): boolean | undefined {
  const raw = query[name];
  if (raw === true || raw === 'true') return true;
  if (raw === false || raw === 'false') return false;
  return undefined;
}

export function stringParam(query: Readonly<Record<string, unknown>>, name: string): string | undefined {
  const raw = query[name];
  return typeof raw === 'string' ? raw : undefined;
}
