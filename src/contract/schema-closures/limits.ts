/**
 * The keywords that bound a number: `maximum`, `minimum` and their exclusive forms, `multipleOf`, and
 * the sizes (`maxLength`/`minLength` in code points, `maxItems`/`minItems`, `maxProperties`/
 * `minProperties`), with ajv's params and messages. Each runs inside its type's group, so the data is
 * already known to be a number, string, array or object.
 */
import { failsWhen, ucs2length } from './runtime.ts';
import type { KeywordCompiler, Obj } from './types.ts';

/** A number limit: `ok` is the comparison ajv's message names, `fails` the test that breaks it. */
const bound =
  (ok: string, fails: (d: number, l: number) => boolean): KeywordCompiler =>
  (_c, v, sp, kw) => {
    const num = v as number;
    const broken = (d: number) => fails(d, num) || Number.isNaN(d);
    return failsWhen(broken, sp, kw, { comparison: ok, limit: num }, `must be ${ok} ${num}`);
  };

/** A size limit: `more` for a maximum, `noun` as ajv's message names the counted things. */
const size =
  (more: boolean, noun: string, measure: (d: never) => number): KeywordCompiler =>
  (_c, v, sp, kw) => {
    const num = v as number;
    const broken = (d: never) => {
      const len = measure(d);
      return more ? len > num : len < num;
    };
    const message = `must NOT have ${more ? 'more' : 'fewer'} than ${num} ${noun}`;
    return failsWhen(broken, sp, kw, { limit: num }, message);
  };

const length = (d: unknown[]) => d.length;
const keyCount = (d: Obj) => Object.keys(d).length;

export const limits: Readonly<Record<string, KeywordCompiler>> = {
  maximum: bound('<=', (d, l) => d > l),
  minimum: bound('>=', (d, l) => d < l),
  exclusiveMaximum: bound('<', (d, l) => d >= l),
  exclusiveMinimum: bound('>', (d, l) => d <= l),
  multipleOf: (_c, v, sp, kw) => {
    const num = v as number;
    const broken = (d: number) => {
      const res = d / num;
      return num === 0 || res !== Number.parseInt(String(res), 10);
    };
    return failsWhen(broken, sp, kw, { multipleOf: num }, `must be multiple of ${num}`);
  },
  maxLength: size(true, 'characters', ucs2length),
  minLength: size(false, 'characters', ucs2length),
  maxItems: size(true, 'items', length),
  minItems: size(false, 'items', length),
  maxProperties: size(true, 'properties', keyCount),
  minProperties: size(false, 'properties', keyCount),
};
