/**
 * What the compiled closures run on: error reporting in ajv's shape, the combinators that chain checks,
 * the validate function ajv's `compile` returns, and ajv's runtime helpers (deep equality, code point
 * length, JSON pointer escaping). Nothing here compiles: it is the part that runs on every validation.
 */
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type { Check, Obj } from './types.ts';

export const PASS: Check = () => {};

export function report(
  errors: ErrorObject[],
  instancePath: string,
  schemaPath: string,
  keyword: string,
  params: Obj,
  message: string,
  pn: string | undefined,
): void {
  const error: ErrorObject = { instancePath, schemaPath, keyword, params, message };
  if (pn !== undefined) error.propertyName = pn;
  errors.push(error);
}

/** A check that reports one fixed error of `keyword` at schema path `sp`. */
export const failure =
  (sp: string, keyword: string, params: Obj, message: string): Check =>
  (_d, p, e, pn) =>
    report(e, p, sp, keyword, params, message, pn);

/** A check that reports one fixed error of `keyword` at schema path `sp` when `fails(data)`. */
export const failsWhen =
  (fails: (d: never) => boolean, sp: string, keyword: string, params: Obj, message: string): Check =>
  (d, p, e, pn) => {
    if (fails(d as never)) report(e, p, sp, keyword, params, message, pn);
  };

export function all(checks: readonly Check[]): Check {
  if (checks.length === 0) return PASS;
  if (checks.length === 1) return checks[0] ?? PASS;
  return (d, p, e, pn) => {
    for (const check of checks) check(d, p, e, pn);
  };
}

/** Runs `check` and tells whether it added no error. */
export function passes(
  check: Check,
  d: unknown,
  p: string,
  e: ErrorObject[],
  pn: string | undefined,
): boolean {
  const n = e.length;
  check(d, p, e, pn);
  return e.length === n;
}

/** The validate function ajv's `compile` returns: `(data) => boolean`, `.errors` null when valid. */
export function wrap(fn: Check, schema: unknown): ValidateFunction {
  const validate = Object.assign(
    (data: unknown): boolean => {
      const errors: ErrorObject[] = [];
      fn(data, '', errors, undefined);
      validate.errors = errors.length > 0 ? errors : null;
      return errors.length === 0;
    },
    { errors: null as ErrorObject[] | null, schema },
  );
  return validate as unknown as ValidateFunction;
}

/** fast-deep-equal over JSON values, as ajv's `const`, `enum` and `uniqueItems` compare. */
export function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null)
    return Number.isNaN(a) && Number.isNaN(b);
  if (a.constructor !== b.constructor) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((x, i) => equal(x, other[i]));
  }
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k) && equal((a as Obj)[k], (b as Obj)[k]));
}

/** Length in code points, as ajv's `ucs2length`. */
export function ucs2length(s: string): number {
  let length = 0;
  for (let pos = 0; pos < s.length; length++) {
    const c = s.charCodeAt(pos++);
    if (c >= 0xd800 && c <= 0xdbff && pos < s.length && (s.charCodeAt(pos) & 0xfc00) === 0xdc00) pos++;
  }
  return length;
}

export const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
export const escapeFragment = (s: string) => encodeURIComponent(escapePointer(s));
