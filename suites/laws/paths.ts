import type { AimedCase } from '../../src/arbitraries/index.ts';
import type { JsonSchema } from '../../src/arbitraries/json-schema.ts';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import { resolveLocalRef } from '../../src/contract/operations.ts';

/** `['media', 0, 'url']` → `media[0].url`, the validation layer's human path. */
export function humanPath(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out === '' ? '(root)' : out;
}

/** A `$ref` resolver over the contract document. */
export function resolverOf(ctx: LawContext): (ref: string) => JsonSchema {
  return (ref) => resolveLocalRef(ctx.contract.document, { $ref: ref }) as JsonSchema;
}

/** A component schema by name, as a `$ref` the arbitraries resolve. */
export function component(name: string): JsonSchema {
  return { $ref: `#/components/schemas/${name}` };
}

/** Does a list of field paths reported by the server name the path of a case (lenient on nesting)? */
export function namesField(reported: readonly unknown[], c: AimedCase): boolean {
  const want = humanPath(c.path);
  return reported.some(
    (r) =>
      typeof r === 'string' &&
      (r === want || r.startsWith(want) || want.startsWith(r) || r.endsWith(String(c.path.at(-1)))),
  );
}

/** A string of exactly `n` characters that starts with a fresh run-prefixed id when it fits. */
export function prefixedOfLength(ctx: LawContext, label: string, n: number): string {
  const id = ctx.unique(label);
  if (n < id.length) return 'a'.repeat(n);
  return id + '0'.repeat(n - id.length);
}
