/**
 * Which rule of the catalog (`contract/rules.json`) a client mistake breaks, without shipping the
 * catalog in the engine (it is 160 KB; the engine runs in browsers under MSW). `buildRuleIndex` reads
 * the catalog once, at generation time, into a small table checked in as `rule-index.generated.ts`
 * (`npx tsx mocks/engine/violations/rule-index.ts` rewrites it; a test fails when it is stale):
 * for each operation, each field named in backticks by one of its input rules, the most specific
 * such rule (a validation rule before a paging or window one, then the one naming the fewest fields).
 */

/** The part of a catalog rule the index reads. */
export interface IndexedRule {
  readonly id: string;
  readonly statement: string;
  readonly operations: readonly string[];
  readonly kind: string;
  readonly retired?: boolean;
}

/** operationId → field (`pageSize`, `targeting.geos`, `score`) → rule id. */
export type RuleIndex = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The kinds of rules that say what a request may carry. */
const INPUT_KINDS: ReadonlySet<string> = new Set(['validation', 'paging', 'window']);
const FIELD = /`([A-Za-z][\w.]*)`/g;

export function buildRuleIndex(rules: readonly IndexedRule[]): RuleIndex {
  const best = new Map<string, { id: string; width: number; validation: boolean }>();
  for (const rule of rules) {
    if (rule.retired === true || !INPUT_KINDS.has(rule.kind)) continue;
    const fields = [...new Set([...rule.statement.matchAll(FIELD)].map((m) => m[1] ?? ''))];
    for (const operationId of rule.operations) {
      for (const field of fields) {
        const key = `${operationId} ${field}`;
        const held = best.get(key);
        const validation = rule.kind === 'validation';
        // A validation rule wins, then the one naming fewest fields, then the earlier of the catalog.
        const better =
          held === undefined ||
          (validation && !held.validation) ||
          (validation === held.validation && fields.length < held.width);
        if (better) best.set(key, { id: rule.id, width: fields.length, validation });
      }
    }
  }
  const index: Record<string, Record<string, string>> = {};
  for (const [key, { id }] of [...best.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [operationId = '', field = ''] = key.split(' ');
    index[operationId] ??= {};
    index[operationId][field] = id;
  }
  return index;
}

/** The generated module for an index. */
export function renderRuleIndex(index: RuleIndex): string {
  return `/**
 * GENERATED from contract/rules.json by mocks/engine/violations/rule-index.ts. Do not edit: run
 * \`npx tsx mocks/engine/violations/rule-index.ts\`.
 */
import type { RuleIndex } from './rule-index.ts';

export const RULE_INDEX: RuleIndex = ${JSON.stringify(index, null, 2)};
`;
}

const isMain = typeof process !== 'undefined' && process.argv[1]?.endsWith('rule-index.ts') === true;
if (isMain) {
  const { readFile, writeFile } = await import('node:fs/promises');
  const catalog = JSON.parse(
    await readFile(new URL('../../../contract/rules.json', import.meta.url), 'utf8'),
  ) as { rules: IndexedRule[] };
  const out = new URL('./rule-index.generated.ts', import.meta.url);
  await writeFile(out, renderRuleIndex(buildRuleIndex(catalog.rules)));
  console.log(`wrote ${out.pathname}`);
}
