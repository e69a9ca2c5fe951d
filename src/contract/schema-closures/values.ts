/**
 * The keywords that hold the data against one given thing: `const` and `enum` (deep equality, as ajv),
 * `pattern` (a regular expression with the `u` flag, as ajv's `unicodeRegExp`) and `format` (the
 * registered format of the keyword's group, so a string format skips numbers and the reverse).
 */
import { equal, failsWhen, PASS } from './runtime.ts';
import type { KeywordCompiler } from './types.ts';

export const values: Readonly<Record<string, KeywordCompiler>> = {
  const: (_c, v, sp, kw) => {
    return failsWhen((d) => !equal(d, v), sp, kw, { allowedValue: v }, 'must be equal to constant');
  },
  enum: (_c, v, sp, kw) => {
    const values = v as unknown[];
    if (values.length === 0) throw new Error('enum must have non-empty array');
    const fails = (d: unknown) => !values.some((x) => equal(d, x));
    return failsWhen(fails, sp, kw, { allowedValues: values }, 'must be equal to one of the allowed values');
  },
  pattern: (_c, v, sp, kw) => {
    const rx = new RegExp(v as string, 'u');
    return failsWhen((d: string) => !rx.test(d), sp, kw, { pattern: v }, `must match pattern "${String(v)}"`);
  },
  format: (c, v, sp, kw, _s, cx, group) => {
    if (!c.settings.validateFormats) return PASS;
    const format = c.formats.get(v as string);
    if (format === undefined) {
      // ajv's strict-mode error, plus what is registered: the browser build carries fewer formats than node.
      if (c.settings.strictSchema) {
        const known = [...c.formats.keys()].join(', ') || 'none';
        throw new Error(
          `unknown format "${String(v)}" ignored in schema at path "${cx.sp}" (registered formats: ${known})`,
        );
      }
      return PASS;
    }
    if (format === true || format[0] !== group) return PASS;
    const test = format[1] as (d: unknown) => boolean;
    return failsWhen((d) => !test(d), sp, kw, { format: v }, `must match format "${String(v)}"`);
  },
};
