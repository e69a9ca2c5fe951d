/**
 * The object keywords besides the sizes: `required` (with ajv's strictRequired check), `propertyNames`,
 * `additionalProperties`, `properties`, `patternProperties` (with ajv's allowMatchingProperties check)
 * and `dependentRequired`. `properties` records the names it defines in the context, which ajv's
 * strictRequired reads.
 */
import { isObj } from './keywords.ts';
import { escapeFragment, escapePointer, PASS, passes, report } from './runtime.ts';
import type { KeywordCompiler, Obj } from './types.ts';

/** The names of an object's own keys but `__proto__` (as ajv: never a property it validates). */
const keysOf = (v: unknown) => Object.keys(isObj(v) ? v : {}).filter((k) => k !== '__proto__');

export const objects: Readonly<Record<string, KeywordCompiler>> = {
  required: (c, v, sp, kw, s, cx) => {
    const names = v as string[];
    if (names.length === 0) return PASS;
    if (c.settings.strictRequired) {
      const props = s['properties'] as Obj | undefined;
      for (const name of names)
        if (props?.[name] === undefined && !cx.defined.has(name))
          c.strict(
            `required property "${name}" is not defined at "${cx.doc.baseId}${cx.sp}" (strictRequired)`,
            true,
          );
    }
    return (d, p, e, pn) => {
      for (const missingProperty of names)
        if ((d as Obj)[missingProperty] === undefined)
          report(e, p, sp, kw, { missingProperty }, `must have required property '${missingProperty}'`, pn);
    };
  },
  propertyNames: (c, v, sp, kw, _s, cx) => {
    if (c.alwaysValid(v)) return PASS;
    const sub = c.descend(v, cx, sp, ['string']);
    return (d, p, e, pn) => {
      for (const key in d as Obj)
        if (!passes(sub, key, p, e, key))
          report(e, p, sp, kw, { propertyName: key }, 'property name must be valid', pn);
    };
  },
  additionalProperties: (c, v, sp, kw, s, cx) => {
    if (c.alwaysValid(v)) return PASS;
    const sub = v === false ? PASS : c.descend(v, cx, sp);
    const properties = isObj(s['properties']) ? s['properties'] : {};
    const props = keysOf(properties);
    const patterns = keysOf(s['patternProperties']).map((k) => new RegExp(k, 'u'));
    const defined = (key: string) =>
      (props.length > 8 ? Object.hasOwn(properties, key) : props.includes(key)) ||
      patterns.some((rx) => rx.test(key));
    const isFalse = v === false;
    return (d, p, e, pn) => {
      for (const key in d as Obj) {
        if (defined(key)) continue;
        if (isFalse)
          report(e, p, sp, kw, { additionalProperty: key }, 'must NOT have additional properties', pn);
        else sub((d as Obj)[key], `${p}/${escapePointer(key)}`, e, undefined);
      }
    };
  },
  properties: (c, v, sp, _kw, _s, cx) => {
    const props = keysOf(v);
    for (const prop of props) cx.defined.add(prop);
    const checks = props.flatMap((prop) => {
      if (c.alwaysValid((v as Obj)[prop])) return [];
      const sub = c.descend((v as Obj)[prop], cx, `${sp}/${escapeFragment(prop)}`);
      cx.defined.add(prop);
      return [[prop, `/${escapePointer(prop)}`, sub] as const];
    });
    return (d, p, e) => {
      for (const [prop, at, sub] of checks) {
        const value = (d as Obj)[prop];
        if (value !== undefined) sub(value, p + at, e, undefined);
      }
    };
  },
  patternProperties: (c, v, sp, _kw, s, cx) => {
    const patterns = keysOf(v);
    const properties = s['properties'];
    if (c.settings.strictSchema && !c.settings.allowMatchingProperties && isObj(properties))
      for (const pat of patterns)
        for (const prop in properties)
          if (new RegExp(pat).test(prop))
            c.strict(`property ${prop} matches pattern ${pat} (use allowMatchingProperties)`);
    const checks = patterns.flatMap((pat) =>
      c.alwaysValid((v as Obj)[pat])
        ? []
        : [[new RegExp(pat, 'u'), c.descend((v as Obj)[pat], cx, `${sp}/${escapeFragment(pat)}`)] as const],
    );
    return (d, p, e) => {
      for (const [rx, sub] of checks)
        for (const key in d as Obj)
          if (rx.test(key)) sub((d as Obj)[key], `${p}/${escapePointer(key)}`, e, undefined);
    };
  },
  dependentRequired: (_c, v, sp, kw) => {
    const deps = Object.entries(v as Obj).filter(([, list]) => (list as string[]).length > 0);
    return (d, p, e, pn) => {
      for (const [property, list] of deps) {
        const names = list as string[];
        if ((d as Obj)[property] === undefined) continue;
        for (const missingProperty of names)
          if ((d as Obj)[missingProperty] === undefined)
            report(
              e,
              p,
              sp,
              kw,
              { property, missingProperty, depsCount: names.length, deps: names.join(', ') },
              `must have ${names.length === 1 ? 'property' : 'properties'} ${names.join(', ')} when property ${property} is present`,
              pn,
            );
      }
    };
  },
};
