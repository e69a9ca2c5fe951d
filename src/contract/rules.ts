import auditJson from '../../contract/audit.json' with { type: 'json' };
import rulesJson from '../../contract/rules.json' with { type: 'json' };
import type { OperationsOf } from './rule-operations.ts';

/**
 * Typed access to the rules catalog (`contract/rules.json`): every normative statement of the REST
 * interface specification that a test can check, under a stable id. See `docs/rules.md`.
 */

/** What a rule is about. `validation` covers input-constraint rejections, `analytics` consistency of figures. */
export type RuleKind =
  | 'schema'
  | 'status'
  | 'auth'
  | 'paging'
  | 'window'
  | 'identity'
  | 'lifecycle'
  | 'idempotency'
  | 'isolation'
  | 'validation'
  | 'analytics'
  | 'docs';

/**
 * How a black-box client can check a rule: `live` (any deployment, read-only), `live-write` (needs
 * writes), `stateful` (needs a sequence of requests over time), `mock-only` (needs control over the server).
 */
export type RuleCheck = 'live' | 'live-write' | 'stateful' | 'mock-only';

/** One normative statement of the specification. */
export interface Rule {
  /** Stable UPPER-KEBAB id; never renamed. */
  readonly id: string;
  readonly title: string;
  /** The precise normative text, printed to users when a deployment fails the rule. */
  readonly statement: string;
  /** Spec section number as in the spec headings, e.g. `"4.1"`. */
  readonly section: string;
  /** operationIds the rule concerns (empty only for rules that concern no operation). */
  readonly operations: readonly string[];
  /** The class of the contract's operations `operations` is written from, when it is one (rule-operations.ts). */
  readonly operationsOf?: OperationsOf;
  readonly kind: RuleKind;
  readonly check: RuleCheck;
  /** What the spec leaves unstated; present when the rule touches a gap. */
  readonly specGap?: string;
  /** A retired rule keeps its id and stays in the catalog; checks skip it. */
  readonly retired?: boolean;
}

/**
 * How much a rule weighs in a verdict (recorded in `contract/audit.json`, `levels`): `must` (the spec
 * states it: a failure fails the run), `should` (a natural reading, a convention, or a point the spec
 * leaves open where the mock made a choice: a failure is a warning unless `--strict`), `mock-only`
 * (never judged on a live target: checked by the mock's own tests).
 */
export type RuleLevel = 'must' | 'should' | 'mock-only';

/** A rule's level and the spec's words that justify it (or why it is a reading, a convention, an open point). */
export interface RuleLevelEntry {
  readonly level: RuleLevel;
  readonly because: string;
}

interface RulesCatalog {
  readonly version: 1;
  readonly rules: readonly Rule[];
}

// The JSON import widens string literals to `string`; contract/rules.schema.json (enforced by
// rules.test.ts) is what guarantees the narrower types asserted here.
const catalog = rulesJson as RulesCatalog;

/**
 * Every rule of the catalog, retired ones included, in catalog order.
 *
 * @example
 * ```ts
 * import { rules } from './rules.ts';
 * const liveRules = rules.filter((rule) => rule.check === 'live' && rule.retired !== true);
 * ```
 */
export const rules: readonly Rule[] = Object.freeze(catalog.rules.map((rule) => Object.freeze(rule)));

// The JSON import widens `level` to string; test/rules-levels.test.ts holds every entry to the union.
const levelEntries = (auditJson as { readonly levels: Readonly<Record<string, RuleLevelEntry>> }).levels;

/**
 * The level of every rule, keyed by rule id (from `contract/audit.json`).
 *
 * @example
 * ```ts
 * import { ruleLevels } from './rules.ts';
 * ruleLevels.get('ENG-PLATFORMS-FILTER')?.level; // 'should'
 * ```
 */
export const ruleLevels: ReadonlyMap<string, RuleLevelEntry> = new Map(Object.entries(levelEntries));

/**
 * The level of a rule; `must` for an id the audit does not know (a rule a law names that is not in
 * the catalog is judged strictly rather than silently downgraded).
 *
 * @example
 * ```ts
 * import { levelOf } from './rules.ts';
 * if (levelOf('ERR-STATUS-IN-DECLARED-SET') === 'should') console.log('a warning unless --strict');
 * ```
 */
export function levelOf(id: string): RuleLevel {
  return ruleLevels.get(id)?.level ?? 'must';
}

const byId: ReadonlyMap<string, Rule> = new Map(rules.map((rule) => [rule.id, rule]));

const byOperation: ReadonlyMap<string, readonly Rule[]> = (() => {
  const map = new Map<string, Rule[]>();
  for (const rule of rules) {
    for (const operationId of rule.operations) {
      const list = map.get(operationId) ?? [];
      list.push(rule);
      map.set(operationId, list);
    }
  }
  return map;
})();

/**
 * The rule with this id. Throws on an unknown id: naming a rule that does not exist is a programming error.
 *
 * @example
 * ```ts
 * import { getRule } from './rules.ts';
 * getRule('LIST-PAGESIZE-RANGE').statement;
 * // 'Action list `pageSize` is an integer from 1 to 500; ...'
 * ```
 */
export function getRule(id: string): Rule {
  const rule = byId.get(id);
  if (rule === undefined) {
    throw new Error(
      `Unknown rule id "${id}": it is not in contract/rules.json (ids are UPPER-KEBAB, e.g. "LIST-PAGESIZE-RANGE").`,
    );
  }
  return rule;
}

/**
 * The rules that concern an operation, in catalog order; empty for an operationId no rule names.
 *
 * @example
 * ```ts
 * import { rulesFor } from './rules.ts';
 * for (const rule of rulesFor('searchConversations')) console.log(rule.id, rule.title);
 * ```
 */
export function rulesFor(operationId: string): readonly Rule[] {
  return byOperation.get(operationId) ?? [];
}

/** The group of a rule id: the prefix before the first dash (`LIST` for `LIST-PAGESIZE-RANGE`). */
export function ruleGroup(id: string): string {
  const dash = id.indexOf('-');
  return dash === -1 ? id : id.slice(0, dash);
}

/**
 * The rules keyed by group (id prefix before the first dash), groups in order of first appearance.
 *
 * @example
 * ```ts
 * import { rulesByGroup } from './rules.ts';
 * const moderation = rulesByGroup().get('MOD') ?? [];
 * ```
 */
export function rulesByGroup(): ReadonlyMap<string, readonly Rule[]> {
  const groups = new Map<string, Rule[]>();
  for (const rule of rules) {
    const group = ruleGroup(rule.id);
    const list = groups.get(group) ?? [];
    list.push(rule);
    groups.set(group, list);
  }
  return groups;
}
