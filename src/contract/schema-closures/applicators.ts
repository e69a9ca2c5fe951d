/**
 * The untyped applicators: `$ref` (inlined when its target holds no reference, else a call to the
 * target's compiled function, so recursion works), `not`, `allOf`, `anyOf`, `oneOf` and `if`/`then`/
 * `else`. Each runs its subschemas on the same data and, as ajv, drops their errors when it passes.
 */
import { hasRef } from './refs.ts';
import { all, failure, PASS, passes, report } from './runtime.ts';
import type { KeywordCompiler } from './types.ts';

const thenOrElse: KeywordCompiler = (c, _v, _sp, kw, s) => {
  if (s['if'] === undefined) c.strict(`"${kw}" without "if" is ignored`);
  return PASS;
};

export const applicators: Readonly<Record<string, KeywordCompiler>> = {
  $ref: (c, v, _sp, _kw, _s, cx) => {
    const target = c.resolve(v as string, cx.doc);
    if (typeof target.schema === 'boolean' || !hasRef(target.schema))
      return c.schema(target.schema, { doc: target.doc, sp: v as string, types: [], defined: cx.defined });
    const entry = c.entry(target.doc, target.frag, target.schema);
    return (d, p, e) => entry.fn(d, p, e, undefined);
  },
  not: (c, v, sp, kw, _s, cx) => {
    const sub = c.inPlace(v, cx, sp);
    const error = failure(sp, kw, {}, 'must NOT be valid');
    return (d, p, e, pn) => {
      const n = e.length;
      if (passes(sub, d, p, e, pn)) error(d, p, e, pn);
      else e.length = n;
    };
  },
  allOf: (c, v, sp, _kw, _s, cx) => all((v as unknown[]).map((sub, i) => c.inPlace(sub, cx, `${sp}/${i}`))),
  anyOf: (c, v, sp, kw, _s, cx) => {
    const subs = (v as unknown[]).map((sub, i) => c.inPlace(sub, cx, `${sp}/${i}`));
    const error = failure(sp, kw, {}, 'must match a schema in anyOf');
    return (d, p, e, pn) => {
      const n = e.length;
      if (subs.some((sub) => passes(sub, d, p, e, pn))) e.length = n;
      else error(d, p, e, pn);
    };
  },
  oneOf: (c, v, sp, kw, _s, cx) => {
    const subs = (v as unknown[]).map((sub, i) => c.inPlace(sub, cx, `${sp}/${i}`));
    return (d, p, e, pn) => {
      const n = e.length;
      let valid = false;
      let passing: unknown = null;
      // ajv nests each next schema in the else branch of "a second one passed": it stops there.
      for (const [i, sub] of subs.entries()) {
        const ok = passes(sub, d, p, e, pn);
        if (i > 0 && ok && valid) {
          valid = false;
          passing = [passing, i];
          break;
        }
        if (ok) {
          valid = true;
          passing = i;
        }
      }
      if (valid) e.length = n;
      else report(e, p, sp, kw, { passingSchemas: passing }, 'must match exactly one schema in oneOf', pn);
    };
  },
  if: (c, v, sp, kw, s, cx) => {
    if (s['then'] === undefined && s['else'] === undefined)
      c.strict('"if" without "then" and "else" is ignored');
    const has = (k: string) => s[k] !== undefined && !c.alwaysValid(s[k]);
    const [hasThen, hasElse] = [has('then'), has('else')];
    if (!hasThen && !hasElse) return PASS;
    const test = c.inPlace(v, cx, sp);
    const then = hasThen ? c.inPlace(s['then'], cx, `${cx.sp}/then`) : PASS;
    const otherwise = hasElse ? c.inPlace(s['else'], cx, `${cx.sp}/else`) : PASS;
    return (d, p, e, pn) => {
      const n = e.length;
      const ok = passes(test, d, p, e, pn);
      e.length = n;
      const [name, sub] = ok ? ['then', then] : ['else', otherwise];
      if (sub !== PASS && !passes(sub, d, p, e, pn))
        report(e, p, sp, kw, { failingKeyword: name }, `must match "${name}" schema`, pn);
    };
  },
  // `then` and `else` are not written as properties, so the table is not a thenable.
  ...Object.fromEntries(['then', 'else'].map((k) => [k, thenOrElse])),
};
