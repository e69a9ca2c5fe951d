import { allLaws } from '../../suites/laws/index.ts';
import { ConformanceClient } from '../client/client.ts';
import { KEY_ENV, REQUIRED_KEY_ROLES } from '../client/types.ts';
import type { Contract } from '../contract/contract.ts';
import { contract } from '../contract/index.ts';
import { rules as catalogRules } from '../contract/rules.ts';
import { isKnown } from './baseline.ts';
import { outcomeOfError } from './check.ts';
import type { Law, LawContext } from './law.ts';
import type { ConformanceOptions, NormalizedOptions } from './options.ts';
import { normalizeOptions } from './options.ts';
import type { CheckOutcome, Failed, LawResult, RuleResult, RuleStatus } from './outcome.ts';
import type { ConformanceReport, Tally, Verdict } from './report.ts';
import { poolTransport } from './transport.ts';

/** The fields of a catalog rule the runner uses. */
export interface CatalogRule {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  readonly check: string;
}

/** What the runner runs against: the laws, the contract and the rules catalog. */
export interface RunnerDeps {
  readonly laws: readonly Law[];
  readonly contract: Contract;
  readonly rules: readonly CatalogRule[];
}

/** The laws of `suites/laws`, the shared contract and the rules catalog (retired rules left out). */
export function defaultDeps(): RunnerDeps {
  return { laws: allLaws, contract, rules: catalogRules.filter((r) => r.retired !== true) };
}

/** Does a selector (law id, group, rule id, or a prefix ending in `*`) pick this law? */
export function selects(selector: string, law: Law): boolean {
  const match = (value: string): boolean =>
    selector.endsWith('*') ? value.startsWith(selector.slice(0, -1)) : value === selector;
  return match(law.id) || match(law.group) || law.ruleIds.some(match);
}

function excluded(law: Law, opts: NormalizedOptions): string | undefined {
  if (opts.only.length > 0 && !opts.only.some((s) => selects(s, law)))
    return `not selected by --only ${opts.only.join(',')}`;
  const skip = opts.skip.find((s) => selects(s, law));
  return skip === undefined ? undefined : `skipped by --skip ${skip}`;
}

function missingNeeds(law: Law, opts: NormalizedOptions, client: ConformanceClient): string | undefined {
  const missing = law.needs.keys.filter((role) => !client.hasKey(role));
  if (missing.length > 0) return `needs ${missing.map((r) => KEY_ENV[r]).join(', ')} (not set)`;
  if (law.needs.writes === true && !opts.allowWrites) return 'creates objects: needs --allow-writes';
  return undefined;
}

/** The environment variables of the required keys a law needs and the run lacks. */
function missingRequired(law: Law, client: ConformanceClient): string[] {
  return law.needs.keys
    .filter((role) => REQUIRED_KEY_ROLES.includes(role) && !client.hasKey(role))
    .map((role) => KEY_ENV[role]);
}

async function runLaw(law: Law, ctx: LawContext): Promise<CheckOutcome> {
  try {
    return await law.run(ctx);
  } catch (error) {
    return outcomeOfError(ctx, error);
  }
}

function tally(statuses: readonly (CheckOutcome['kind'] | 'known')[]): Tally {
  return {
    passed: statuses.filter((s) => s === 'passed').length,
    failed: statuses.filter((s) => s === 'failed').length,
    knownFailures: statuses.filter((s) => s === 'known').length,
    notRun: statuses.filter((s) => s === 'not-run').length,
  };
}

/** Folds law results into one result per catalog rule (plus any rule a law names that is not in it). */
export function aggregateRules(laws: readonly LawResult[], catalog: readonly CatalogRule[]): RuleResult[] {
  const ids = [...catalog.map((r) => r.id)];
  for (const law of laws) {
    for (const id of law.ruleIds) if (!ids.includes(id)) ids.push(id);
    if (law.outcome.kind === 'failed' && !ids.includes(law.outcome.ruleId)) ids.push(law.outcome.ruleId);
  }
  return ids.map((id) => {
    const rule = catalog.find((r) => r.id === id);
    const touching = laws.filter(
      (l) => l.ruleIds.includes(id) || (l.outcome.kind === 'failed' && l.outcome.ruleId === id),
    );
    const failures: Failed[] = [];
    const reasons: string[] = [];
    let passed = false;
    let checks = 0;
    let newFailure = false;
    for (const law of touching) {
      const o = law.outcome;
      if (o.kind === 'passed') {
        passed = true;
        checks += o.checks;
      } else if (o.kind === 'failed' && o.ruleId === id) {
        failures.push(o);
        if (!law.known) newFailure = true;
      } else if (o.kind === 'failed') {
        reasons.push(`law ${law.lawId} stopped at a failure of ${o.ruleId}`);
      } else if (o.kind === 'not-run') {
        reasons.push(`${law.lawId}: ${o.reason}`);
      }
    }
    let status: RuleStatus;
    if (newFailure) status = 'failed';
    else if (failures.length > 0) status = 'known-failure';
    else if (passed) status = 'passed';
    else if (touching.length > 0) status = 'not-run';
    else {
      status = 'not-covered';
      reasons.push(
        rule?.check === 'mock-only'
          ? 'mock-only rule: checked by the mock tests, not observable on a deployment'
          : 'no law checks this rule yet',
      );
    }
    return {
      ruleId: id,
      title: rule?.title ?? '(not in the rules catalog)',
      section: rule?.section ?? '?',
      kind: rule?.check ?? 'unknown',
      status,
      lawIds: touching.map((l) => l.lawId),
      checks,
      reasons: [...new Set(reasons)],
      failures,
    };
  });
}

/**
 * Runs the conformance laws against a target and returns the report. Laws run one after another
 * (they share one client, one rate limiter and one request budget).
 *
 * @example
 * ```ts
 * const report = await runConformance(
 *   { target: { baseUrl: 'http://127.0.0.1:4010', keys: { read: process.env.CCA_READ_KEY } }, seed: 42 },
 * );
 * process.exitCode = report.ok ? 0 : 1;
 * ```
 */
export async function runConformance(
  options: ConformanceOptions,
  deps: RunnerDeps = defaultDeps(),
): Promise<ConformanceReport> {
  const opts = normalizeOptions(options);
  const started = Date.now();
  const t0 = performance.now();
  const client = new ConformanceClient({
    baseUrl: opts.target.baseUrl,
    transport: poolTransport(opts.target.baseUrl),
    keys: opts.target.keys,
    maxRps: opts.maxRps,
    maxRequests: opts.maxRequests,
    timeoutMs: opts.requestTimeoutMs,
  });
  // The agent interface may live on another origin (--mcp-url): a client of its own, same manners.
  const mcpClient = new ConformanceClient({
    baseUrl: new URL(opts.target.mcpUrl).origin,
    transport: poolTransport(opts.target.mcpUrl),
    keys: opts.target.keys,
    maxRps: opts.maxRps,
    maxRequests: opts.maxRequests,
    timeoutMs: opts.requestTimeoutMs,
  });
  const prefix = `cca-conform-${opts.runId}-`;
  let counter = 0;
  const memos = new Map<string, Promise<unknown>>();
  const memo = <T>(key: string, compute: () => Promise<T>): Promise<T> => {
    let hit = memos.get(key) as Promise<T> | undefined;
    if (hit === undefined) {
      hit = compute();
      memos.set(key, hit);
      // A failed computation is not cached: the next law tries again.
      hit.catch(() => memos.delete(key));
    }
    return hit;
  };
  const sectionOf = (ruleId: string): string => deps.rules.find((r) => r.id === ruleId)?.section ?? '?';
  const results: LawResult[] = [];
  const missingKeys = new Set<string>();
  const laws = deps.laws;
  opts.onProgress({
    type: 'start',
    total: laws.length,
    runId: opts.runId,
    seed: opts.seed,
    baseUrl: opts.target.baseUrl,
  });
  try {
    for (const [index, law] of laws.entries()) {
      opts.onProgress({ type: 'law-start', index, total: laws.length, lawId: law.id, group: law.group });
      const lawStart = performance.now();
      const view = client.scoped();
      const mcpView = mcpClient.scoped();
      const reason =
        excluded(law, opts) ??
        missingNeeds(law, opts, client) ??
        (client.requestsRemaining === 0 ? `request budget of ${opts.maxRequests} exhausted` : undefined) ??
        (opts.signal?.aborted === true ? 'run interrupted' : undefined);
      const ctx: LawContext = {
        lawId: law.id,
        ruleIds: law.ruleIds,
        client: view,
        mcp: { url: opts.target.mcpUrl, client: mcpView },
        contract: deps.contract,
        seed: opts.seed,
        runs: opts.runs,
        runId: opts.runId,
        prefix,
        allowWrites: opts.allowWrites,
        moderationTimeoutMs: opts.moderationTimeoutMs,
        now: opts.target.now,
        poll: opts.target.onPoll ?? (() => new Promise((resolve) => setTimeout(resolve, 250))),
        section: sectionOf,
        memo,
        unique: (label = 'x') => `${prefix}${label}-${++counter}`,
      };
      if (reason !== undefined && excluded(law, opts) === undefined)
        for (const name of missingRequired(law, client)) missingKeys.add(name);
      const outcome: CheckOutcome =
        reason === undefined ? await runLaw(law, ctx) : { kind: 'not-run', ruleIds: law.ruleIds, reason };
      const known = outcome.kind === 'failed' && isKnown(opts.baseline, outcome.ruleId, outcome.fingerprint);
      const result: LawResult = {
        lawId: law.id,
        group: law.group,
        title: law.title,
        ruleIds: law.ruleIds,
        outcome,
        durationMs: performance.now() - lawStart,
        requests: view.log.length + mcpView.log.length,
        known,
      };
      results.push(result);
      opts.onProgress({ type: 'law-end', index, total: laws.length, result });
    }
  } finally {
    await client.close();
    await mcpClient.close();
  }
  const rules = aggregateRules(results, deps.rules);
  const count = (status: RuleStatus): number => rules.filter((r) => r.status === status).length;
  const ruleTally = {
    passed: count('passed'),
    failed: count('failed'),
    knownFailures: count('known-failure'),
    notRun: count('not-run'),
    notCovered: count('not-covered'),
  };
  const ok = results.every((r) => r.outcome.kind !== 'failed' || r.known);
  const notChecked = opts.allowNotRun ? [] : [...missingKeys];
  const verdict: Verdict = !ok ? 'not-conformant' : notChecked.length > 0 ? 'not-checked' : 'conformant';
  const checkedStatuses: readonly RuleStatus[] = ['passed', 'failed', 'known-failure'];
  const checkable = new Set(deps.rules.filter((r) => r.check !== 'mock-only').map((r) => r.id));
  const report: ConformanceReport = {
    tool: 'cca-kit conform',
    runId: opts.runId,
    seed: opts.seed,
    runs: opts.runs,
    baseUrl: opts.target.baseUrl,
    allowWrites: opts.allowWrites,
    startedAt: new Date(started).toISOString(),
    durationMs: performance.now() - t0,
    requests: client.requestsUsed + mcpClient.requestsUsed,
    checks: results.reduce((n, r) => n + (r.outcome.kind === 'passed' ? r.outcome.checks : 0), 0),
    laws: results,
    rules,
    summary: {
      laws: tally(results.map((r) => (r.known ? 'known' : r.outcome.kind))),
      rules: ruleTally,
    },
    coverage: {
      checked: rules.filter((r) => checkable.has(r.ruleId) && checkedStatuses.includes(r.status)).length,
      checkable: checkable.size,
    },
    missingKeys: notChecked,
    verdict,
    ok,
  };
  opts.onProgress({ type: 'end', report });
  return report;
}
