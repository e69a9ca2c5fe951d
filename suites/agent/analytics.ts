/**
 * Reading `query.analytics.actions` (4.18) black-box: the lines, aggregations and group fields its
 * input schema lists, and the rows and values of an answer, whatever the row shape.
 */
import { deref } from '../../src/arbitraries/json-schema.ts';
import { violate } from '../../src/conformance/kit/check.ts';
import { literal, runScript } from '../../src/conformance/kit/mcp/script.ts';
import type { McpSession } from '../../src/conformance/kit/mcp/session.ts';
import { type CatalogEntry, localResolver } from './catalog.ts';
import { brief, isObj, type Json } from './support.ts';

export const ANALYTICS = 'query.analytics.actions';

/** The catalog's values at a path of `query.analytics.actions`' input schema. */
export function analyticsEnum(entry: CatalogEntry, path: readonly string[]): string[] {
  const resolve = localResolver(entry.inputSchema);
  let s: unknown = entry.inputSchema;
  for (const step of path) {
    const d = isObj(s) ? deref(s as never, resolve) : undefined;
    s = step === '*' ? d?.items : d?.properties?.[step];
  }
  const d = isObj(s) ? deref(s as never, resolve) : undefined;
  return Array.isArray(d?.enum) ? d.enum.map(String) : [];
}

/** The measure, aggregation and group field to use, read from spec(id)'s input schema. */
export function analyticsChoice(entry: CatalogEntry): {
  measure: string;
  aggregation: string;
  groupField: string | undefined;
  fields: readonly string[];
} {
  const enumOf = (path: readonly string[]) => analyticsEnum(entry, path);
  const measures = enumOf(['lines', '*', 'measure']);
  const aggregations = enumOf(['lines', '*', 'aggregation']);
  const fields = enumOf(['groupBy', '*', 'field']);
  return {
    measure:
      measures.find((m) => /^actions?$/i.test(m)) ??
      measures.find((m) => /count|action/i.test(m)) ??
      'actions',
    aggregation: aggregations.find((a) => /^count$/i.test(a)) ?? 'count',
    groupField: fields.find((f) => f === 'status') ?? fields.find((f) => f === 'source'),
    fields,
  };
}

/** The rows of an analytics answer and the first numeric value of each. */
export function rowValues(output: unknown): { rows: Json[]; values: (number | null)[] } {
  const rows = (isObj(output) && Array.isArray(output['rows']) ? output['rows'] : []).filter(isObj);
  const values = rows.map((row) => {
    const holder = isObj(row['values']) ? row['values'] : row;
    const n = Object.values(holder).find((v) => typeof v === 'number');
    return typeof n === 'number' ? n : null;
  });
  return { rows, values };
}

export async function analytics(session: McpSession, input: unknown): Promise<unknown> {
  const out = await runScript(session, `return await call(${literal(ANALYTICS)}, ${literal(input)});`);
  if (out.kind === 'threw')
    violate(
      'AGENT-MCP-ANALYTICS-INPUT-SHAPE',
      'refused',
      `${ANALYTICS} refused ${brief(input)}: ${out.message}`,
      input,
    );
  if (out.kind === 'failed')
    violate('AGENT-MCP-ANALYTICS-INPUT-SHAPE', 'failed', `${ANALYTICS} failed: ${out.text}`, input);
  return out.value;
}
