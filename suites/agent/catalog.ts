/**
 * The operation catalog as the deployment reports it inside `execute` (spec 9.4: schemas are read at
 * run time): `spec()` and `spec(id)` for every listed id, read once per run with the read key.
 */
import { exampleFromSchema } from '../../src/arbitraries/from-schema.ts';
import type { JsonSchema, RefResolver } from '../../src/arbitraries/json-schema.ts';
import { violate } from '../../src/conformance/kit/check.ts';
import type { LawContext } from '../../src/conformance/kit/law.ts';
import { runScript } from '../../src/conformance/kit/mcp/script.ts';
import { brief, isObj, requireTool, withSession } from './support.ts';

export interface CatalogEntry {
  readonly id: string;
  readonly summary: unknown;
  readonly effect: unknown;
  /** What `spec(id)` returned. */
  readonly spec: unknown;
  readonly inputSchema: JsonSchema | undefined;
  readonly outputSchema: JsonSchema | undefined;
}

const CATALOG_SCRIPT = `
const listed = await spec();
const entries = Array.isArray(listed) ? listed : (listed && (listed.operations || listed.catalog)) || [];
const out = [];
for (const e of entries) {
  let detail = null;
  try { detail = await spec(e.id); } catch (err) { detail = { __threw: String(err && err.message) }; }
  out.push({ id: e.id, summary: e.summary, effect: e.effect, spec: detail });
}
return { raw: Array.isArray(listed) ? null : listed, entries: out };`;

function schemaOf(spec: unknown, names: readonly string[]): JsonSchema | undefined {
  if (!isObj(spec)) return undefined;
  for (const name of names) {
    const s = spec[name];
    if (isObj(s) || typeof s === 'boolean') return s as JsonSchema;
  }
  return undefined;
}

/** The catalog (throws `Absent` when the read key has no `execute`). */
export function catalog(ctx: LawContext): Promise<readonly CatalogEntry[]> {
  return ctx.memo('agent:catalog', async () => {
    await requireTool(ctx, 'read', 'execute');
    const out = await withSession(ctx, 'read', (s) => runScript(s, CATALOG_SCRIPT));
    if (out.kind !== 'value' || !isObj(out.value) || !Array.isArray(out.value['entries']))
      violate(
        'AGENT-MCP-SPEC-LISTS-CATALOG',
        'spec-failed',
        // Thrown outside a law's own check (the catalog is read once for many laws): it names its revision itself.
        `[MCP ${ctx.mcp.revision ?? '2025-11-25'}] spec() inside execute did not answer a list: ${brief(out.kind === 'value' ? out.value : out)}`,
      );
    return (out.value['entries'] as unknown[]).filter(isObj).map((e) => ({
      id: String(e['id']),
      summary: e['summary'],
      effect: e['effect'],
      spec: e['spec'],
      inputSchema: schemaOf(e['spec'], ['inputSchema', 'input']),
      outputSchema: schemaOf(e['spec'], ['outputSchema', 'output']),
    }));
  });
}

/** One operation of the catalog, or a violation naming the missing id. */
export async function operation(ctx: LawContext, id: string): Promise<CatalogEntry> {
  const entry = (await catalog(ctx)).find((e) => e.id === id);
  if (entry === undefined)
    violate('AGENT-MCP-SPEC-NAMED-OPERATIONS', `missing-${id}`, `spec() does not list ${id}`);
  return entry;
}

/** Resolves the local `#/$defs/...` references of a schema a deployment gave. */
export function localResolver(root: JsonSchema | undefined): RefResolver {
  return (ref) => {
    const match = /^#\/\$defs\/(.+)$/.exec(ref);
    const defs = isObj(root) ? root['$defs'] : undefined;
    const target = match === null || !isObj(defs) ? undefined : defs[decodeURIComponent(match[1] ?? '')];
    if (isObj(target) || typeof target === 'boolean') return target as JsonSchema;
    throw new Error(`unresolvable $ref ${ref}`);
  };
}

/** A small valid input of an operation (required members only, lower bounds). */
export function exampleInput(entry: CatalogEntry): unknown {
  return entry.inputSchema === undefined
    ? {}
    : exampleFromSchema(entry.inputSchema, localResolver(entry.inputSchema));
}

/** Is a thrown failure an invalid-input refusal (by its kind, code or message)? */
export function isInvalidInput(out: {
  readonly errorKind: string | null;
  readonly code: string | null;
  readonly message: string;
}): boolean {
  return (
    out.errorKind === 'invalid_input' || out.code === 'INVALID_INPUT' || /invalid input/i.test(out.message)
  );
}
