/**
 * The array keywords besides the sizes: `prefixItems` (with ajv's strictTuples check), `items` (a size
 * limit after `prefixItems` when false, else a schema for each further item), `contains` with
 * `minContains`/`maxContains`, and `uniqueItems` (by key when the items' types are all scalar, as ajv).
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { isObj, schemaTypes, typeIs } from './keywords.ts';
import { equal, failure, PASS, passes, report } from './runtime.ts';
import type { KeywordCompiler } from './types.ts';

const containsLimit: KeywordCompiler = (c, _v, _sp, kw, s) => {
  if (s['contains'] === undefined) c.strict(`"${kw}" without "contains" is ignored`);
  return PASS;
};

export const arrays: Readonly<Record<string, KeywordCompiler>> = {
  prefixItems: (c, v, sp, _kw, s, cx) => {
    const schemas = v as unknown[];
    const l = schemas.length;
    if (c.settings.strictTuples && !(l === s['minItems'] && (l === s['maxItems'] || s['items'] === false)))
      c.strict(
        `"prefixItems" is ${l}-tuple, but minItems or maxItems/items are not specified or different at path "${cx.sp}"`,
        true,
      );
    const subs = schemas.map((sub, i) => (c.alwaysValid(sub) ? PASS : c.descend(sub, cx, `${sp}/${i}`)));
    return (d, p, e) => {
      const items = d as unknown[];
      subs.forEach((sub, i) => {
        if (items.length > i) sub(items[i], `${p}/${i}`, e, undefined);
      });
    };
  },
  items: (c, items, sp, kw, s, cx) => {
    if (c.alwaysValid(items)) return PASS;
    // After `prefixItems`, `items: false` is a size limit; else it is a schema for each further item.
    const prefix = Array.isArray(s['prefixItems']) ? s['prefixItems'].length : undefined;
    if (items === false && prefix !== undefined)
      return (d, p, e, pn) => {
        if ((d as unknown[]).length > prefix)
          report(e, p, sp, kw, { limit: prefix }, `must NOT have more than ${prefix} items`, pn);
      };
    const sub = c.descend(items, cx, sp);
    return (d, p, e) => {
      const list = d as unknown[];
      for (let i = prefix ?? 0; i < list.length; i++) sub(list[i], `${p}/${i}`, e, undefined);
    };
  },
  contains: (c, v, sp, kw, s, cx) => {
    const min = typeof s['minContains'] === 'number' ? s['minContains'] : 1;
    const max = typeof s['maxContains'] === 'number' ? s['maxContains'] : undefined;
    const params = max === undefined ? { minContains: min } : { minContains: min, maxContains: max };
    const message =
      max === undefined
        ? `must contain at least ${min} valid item(s)`
        : `must contain at least ${min} and no more than ${max} valid item(s)`;
    if (max === undefined && min === 0) {
      c.strict('"minContains" == 0 without "maxContains": "contains" keyword ignored');
      return PASS;
    }
    const error = failure(sp, kw, params, message);
    if (max !== undefined && min > max) {
      c.strict('"minContains" > "maxContains" is always invalid');
      return error;
    }
    const sub = c.alwaysValid(v) ? PASS : c.descend(v, cx, sp);
    return (d, p, e, pn) => {
      const items = d as unknown[];
      const n = e.length;
      let count = 0;
      let valid = min === 0;
      for (let i = 0; i < items.length; i++) {
        if (sub !== PASS && !passes(sub, items[i], `${p}/${i}`, e, undefined)) continue;
        count++;
        if (max !== undefined && count > max) {
          valid = false;
          break;
        }
        if (count >= min) valid = true;
        if (max === undefined && valid) break;
      }
      if (valid) e.length = n;
      else error(d, p, e, pn);
    };
  },
  maxContains: containsLimit,
  minContains: containsLimit,
  uniqueItems: (c, v, sp, kw, s) => {
    if (v !== true) return PASS;
    const itemTypes = isObj(s['items']) ? schemaTypes(s['items']) : [];
    const byKey = itemTypes.length > 0 && !itemTypes.some((t) => t === 'object' || t === 'array');
    const { strictNumbers } = c.settings;
    const error = (e: ErrorObject[], p: string, pn: string | undefined, i: number, j: number) =>
      report(
        e,
        p,
        sp,
        kw,
        { i, j },
        `must NOT have duplicate items (items ## ${j} and ${i} are identical)`,
        pn,
      );
    return (d, p, e, pn) => {
      const items = d as unknown[];
      let i = items.length;
      if (i <= 1) return;
      if (byKey) {
        const indices: Record<string, unknown> = {};
        while (i--) {
          let item = items[i];
          if (!itemTypes.some((t) => typeIs(t, item, strictNumbers))) continue;
          if (itemTypes.length > 1 && typeof item === 'string') item += '_';
          const key = String(item);
          const j = indices[key];
          if (typeof j === 'number') return error(e, p, pn, i, j);
          indices[key] = i;
        }
        return;
      }
      while (i--) for (let j = i; j--; ) if (equal(items[i], items[j])) return error(e, p, pn, i, j);
    };
  },
};
