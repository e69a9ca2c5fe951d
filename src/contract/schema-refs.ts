/**
 * Moving a JSON Schema inside another: its document-local references (`#`, `#/...`) are rebased onto
 * where it now lives, so a schema embedded under `$defs` keeps pointing at its own definitions.
 */

/**
 * A copy of `value` whose local `$ref`s are rebased onto `base` (a pointer such as `#/$defs/result`).
 *
 * @example
 * rebaseRefs({ $ref: '#/$defs/Log' }, '#/$defs/execution'); // { $ref: '#/$defs/execution/$defs/Log' }
 */
export function rebaseRefs(value: unknown, base: string): unknown {
  if (Array.isArray(value)) return value.map((item) => rebaseRefs(item, base));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && (child === '#' || child.startsWith('#/')))
      out[key] = `${base}${child.slice(1)}`;
    else out[key] = rebaseRefs(child, base);
  }
  return out;
}
