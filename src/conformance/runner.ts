import { ConformanceClient } from '../client/client.ts';
import { type Auth, KEY_ENV, REQUIRED_KEY_ROLES } from '../client/types.ts';
import type { Contract } from '../contract/contract.ts';
import { contract } from '../contract/index.ts';
import { rules as catalogRules, levelOf, type RuleLevel, ruleLevels } from '../contract/rules.ts';
import { isKnown } from './kit/baseline.ts';
import { outcomeOfError, withRulesAlreadyFailed } from './kit/check.ts';
import type { ExistingWrite, Law, LawContext } from './kit/law.ts';
import type { McpRevision } from './kit/mcp/endpoint.ts';
import { probeRevisions, revisionsToRun } from './kit/mcp/revisions.ts';
import type { ConformanceOptions, NormalizedOptions } from './kit/options.ts';
import { normalizeOptions } from './kit/options.ts';
import type {
  Blocked,
  CheckOutcome,
  Failed,
  LawFailure,
  LawResult,
  RuleResult,
  RuleStatus,
} from './kit/outcome.ts';
import type { ConformanceReport, GroupNotChecked, NotRunGroup, Tally, Verdict } from './kit/report.ts';
import { AGENT_GROUP, probeMcp, stillAnswers } from './preflight.ts';
import { mergeRevisionRuns, type RevisionRun } from './revision-runs.ts';
import { poolTransport } from './transport.ts';

/** The fields of a catalog rule the runner uses. */
export interface CatalogRule {
  readonly id: string;
  readonly title: string;
  readonly section: string;
  readonly check: string;
}

/**
 * What the runner runs: the laws, always given by the caller (the runner knows no law of its own, as
 * a test runner knows no test), and the contract and rules catalog they are judged against (the
 * shared contract and the catalog, retired rules left out, unless given).
 */
export interface RunnerDeps {
  readonly laws: readonly Law[];
  readonly contract?: Contract;
  readonly rules?: readonly CatalogRule[];
}

/** The catalog rules a run reports on: every rule not retired. */
export function catalogOf(): CatalogRule[] {
  return catalogRules.filter((r) => r.retired !== true);
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

/** A law's conclusion after each of its rules had its chance: every failure, and what was blocked. */
interface LawRun {
  readonly outcome: CheckOutcome;
  readonly failures: readonly Failed[];
  readonly blocked?: Blocked;
}

async function attempt(law: Law, ctx: LawContext): Promise<CheckOutcome> {
  try {
    return await law.run(ctx);
  } catch (error) {
    return outcomeOfError(ctx, error);
  }
}

/**
 * Runs a law so that each of its rules stands alone: after a failure of rule R, the law runs again
 * with R recorded as failed (`violate(R, ...)` then returns instead of throwing), until it passes, or
 * fails on a rule not seen yet (recorded, and again), or cannot go on past a recorded failure (a
 * crash, or the same rule thrown again): its remaining rules are then charged as not run, blocked.
 */
export async function runLawAlone(
  law: Law,
  ctx: LawContext,
  stop: () => string | undefined = () => undefined,
): Promise<LawRun> {
  const failures: Failed[] = [];
  const t0 = performance.now();
  let outcome = await attempt(law, ctx);
  for (;;) {
    if (outcome.kind !== 'failed') break;
    const failedNow = outcome;
    const repeated = failures.some((f) => f.ruleId === failedNow.ruleId);
    const rerun = failures.length > 0;
    if (!(rerun && (outcome.crashed === true || repeated))) failures.push(outcome);
    const first = failures[0];
    const stopped = outcome.crashed === true || repeated ? outcome : undefined;
    const halted = stop();
    if (stopped !== undefined || halted !== undefined || failures.length > law.ruleIds.length + 4) {
      const failedIds = new Set(failures.map((f) => f.ruleId));
      const rest = law.ruleIds.filter((id) => !failedIds.has(id));
      const by = rerun ? (failures.at(-1)?.ruleId ?? first?.ruleId ?? '?') : (first?.ruleId ?? '?');
      const reason =
        halted !== undefined
          ? halted
          : stopped?.crashed === true && !rerun
            ? `blocked: the law crashed (${stopped.message})`
            : `blocked by the failure of ${by}: the law cannot go on past it`;
      return {
        outcome: first ?? outcome,
        failures,
        ...(rest.length > 0 ? { blocked: { ruleIds: rest, reason } } : {}),
      };
    }
    // Each re-run may take a few times what the first run took before a tolerated failure blocks it.
    const budgetMs = Math.max(10_000, 3 * (performance.now() - t0));
    const failed = new Set(failures.map((f) => f.ruleId));
    outcome = await withRulesAlreadyFailed(failed, budgetMs, () => attempt(law, ctx));
  }
  const first = failures[0];
  if (first === undefined) return { outcome, failures };
  if (outcome.kind === 'not-run') {
    // The re-run could not run (budget, precondition): the rules not yet failed were not checked.
    const failedIds = new Set(failures.map((f) => f.ruleId));
    const rest = law.ruleIds.filter((id) => !failedIds.has(id));
    return {
      outcome: first,
      failures,
      ...(rest.length > 0 ? { blocked: { ruleIds: rest, reason: outcome.reason } } : {}),
    };
  }
  return { outcome: first, failures };
}

/** The key the revision probe connects with: the first the run has of those the agent laws use. */
function probeRole(opts: NormalizedOptions): Auth {
  const role = (['read', 'readWrite', 'write', 'ingest'] as const).find((r) => {
    const key = opts.target.keys[r];
    return key !== undefined && key !== '';
  });
  return role ?? 'none';
}

/**
 * An agent law run over each revision in turn, each with its own memo of agent answers (a tools list
 * seen over one revision says nothing of the other), folded into one law run.
 */
async function overRevisions(
  law: Law,
  ctx: LawContext,
  revisions: readonly McpRevision[],
  stop: () => string | undefined,
): Promise<LawRun> {
  const runs: RevisionRun[] = [];
  for (const revision of revisions.length === 0 ? (['2025-11-25'] as const) : revisions) {
    const own: LawContext = {
      ...ctx,
      mcp: { ...ctx.mcp, revision },
      memo: (key, compute) => ctx.memo(key.startsWith('agent:') ? `${revision}|${key}` : key, compute),
    };
    runs.push({ revision, ...(await runLawAlone(law, own, stop)) });
  }
  return mergeRevisionRuns(law.ruleIds, runs);
}

function tally(statuses: readonly (CheckOutcome['kind'] | 'known')[]): Tally {
  return {
    passed: statuses.filter((s) => s === 'passed').length,
    failed: statuses.filter((s) => s === 'failed').length,
    knownFailures: statuses.filter((s) => s === 'known').length,
    notRun: statuses.filter((s) => s === 'not-run').length,
  };
}

/** The reason a mock-only rule is not judged on a live target. */
export const MOCK_ONLY_REASON = 'mock-only rule: checked by the mock tests, not judged on a live target';

/**
 * A rule's level: `mock-only` whenever its catalog check is (a rule the catalog keeps off live targets
 * never shows as a passed or failed `must`, whatever law names it), else from the audit
 * (contract/audit.json), else `must` (a rule the audit does not know is judged strictly).
 */
export function levelIn(catalog: readonly CatalogRule[]): (id: string) => RuleLevel {
  return (id) => {
    if (catalog.find((r) => r.id === id)?.check === 'mock-only') return 'mock-only';
    return ruleLevels.has(id) ? levelOf(id) : 'must';
  };
}

/** Folds law results into one result per catalog rule (plus any rule a law names that is not in it). */
export function aggregateRules(
  laws: readonly LawResult[],
  catalog: readonly CatalogRule[],
  levelOfRule: (id: string) => RuleLevel = levelIn(catalog),
): RuleResult[] {
  const ids = [...catalog.map((r) => r.id)];
  const seen = new Set(ids);
  for (const law of laws) {
    for (const id of [...law.ruleIds, ...law.failures.map((f) => f.ruleId)])
      if (!seen.has(id)) {
        seen.add(id);
        ids.push(id);
      }
  }
  return ids.map((id) => {
    const rule = catalog.find((r) => r.id === id);
    const level = levelOfRule(id);
    const touching = laws.filter((l) => l.ruleIds.includes(id) || l.failures.some((f) => f.ruleId === id));
    const failures: LawFailure[] = [];
    const reasons: string[] = [];
    let passed = false;
    let checks = 0;
    let newFailure = false;
    let durationMs = 0;
    for (const law of touching) {
      durationMs += law.durationMs / Math.max(1, law.ruleIds.length);
      const own = law.failures.filter((f) => f.ruleId === id);
      if (own.length > 0) {
        failures.push(...own);
        if (own.some((f) => !f.known)) newFailure = true;
      } else if (law.blocked?.ruleIds.includes(id) === true) {
        reasons.push(`${law.lawId}: ${law.blocked.reason}`);
      } else if (law.outcome.kind === 'not-run') {
        reasons.push(`${law.lawId}: ${law.outcome.reason}`);
      } else {
        passed = true;
        checks += law.outcome.kind === 'passed' ? law.outcome.checks : 0;
      }
    }
    let status: RuleStatus;
    if (newFailure) status = 'failed';
    else if (failures.length > 0) status = 'known-failure';
    else if (level === 'mock-only') {
      status = 'not-covered';
      reasons.length = 0;
      reasons.push(MOCK_ONLY_REASON);
    } else if (passed) status = 'passed';
    else if (touching.length > 0) status = 'not-run';
    else {
      status = 'not-covered';
      reasons.push(rule?.check === 'mock-only' ? MOCK_ONLY_REASON : 'no law checks this rule yet');
    }
    return {
      ruleId: id,
      title: rule?.title ?? '(not in the rules catalog)',
      section: rule?.section ?? '?',
      kind: rule?.check ?? 'unknown',
      level,
      group: touching[0]?.group ?? 'catalog',
      durationMs,
      status,
      lawIds: touching.map((l) => l.lawId),
      checks,
      reasons: [...new Set(reasons)],
      failures,
    };
  });
}

/** The rules not run, grouped by why (reasons shortened to their cause, without the law id). */
export function notRunSummary(rules: readonly RuleResult[]): NotRunGroup[] {
  const groups = new Map<string, string[]>();
  for (const rule of rules) {
    if (rule.status !== 'not-run') continue;
    const causes = new Set(rule.reasons.map((r) => r.replace(/^[a-z0-9-]+\.[\w.-]+: /, '')));
    const cause = [...causes][0] ?? 'not run';
    groups.set(cause, [...(groups.get(cause) ?? []), rule.ruleId]);
  }
  return [...groups]
    .map(([reason, ruleIds]) => ({ reason, ruleIds }))
    .sort((a, b) => b.ruleIds.length - a.ruleIds.length);
}

/** A law's rules, or the rules it names that a write needs: was it left out for want of writes? */
const WRITES_OFF = 'creates objects: needs --allow-writes';

/**
 * Runs the conformance laws against a target and returns the report. Laws run one after another
 * (they share one client, one rate limiter and one request budget), except that a law marked `waits`
 * (most of its time is spent waiting for the target) runs beside the laws after it; the report lists
 * the laws in their order either way.
 *
 * @example
 * ```ts
 * import { allLaws } from '../../suites/laws/index.ts';
 * const report = await runConformance(
 *   { target: { baseUrl: 'http://127.0.0.1:4010', keys: { read: process.env.CCA_READ_KEY } }, seed: 42 },
 *   { laws: allLaws },
 * );
 * process.exitCode = report.ok ? 0 : 1;
 * ```
 */
export async function runConformance(
  options: ConformanceOptions,
  given: RunnerDeps,
): Promise<ConformanceReport> {
  const deps = { laws: given.laws, contract: given.contract ?? contract, rules: given.rules ?? catalogOf() };
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
  const existingWrites: ExistingWrite[] = [];
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
  // One slot per law, in the laws' order, whatever order they finish in.
  const results: LawResult[] = [];
  const missingKeys = new Set<string>();
  const laws = deps.laws;
  const groupsNotChecked: GroupNotChecked[] = [];
  /** The MCP revisions the agent laws are judged over (empty when the agent group does not run). */
  let mcpRevisions: McpRevision[] = [];
  let stoppedAnswering: string | undefined;
  /** Laws that wait, running beside the others; what any of them threw (a defect, never a finding). */
  const waiting: Promise<void>[] = [];
  const waitingErrors: unknown[] = [];
  opts.onProgress({
    type: 'start',
    total: laws.length,
    runId: opts.runId,
    seed: opts.seed,
    baseUrl: opts.target.baseUrl,
  });
  try {
    // The agent interface is probed once: without it, its laws are one line, not one crash each.
    const wantsAgent = laws.some((law) => law.group === AGENT_GROUP && excluded(law, opts) === undefined);
    let mcpAbsent = wantsAgent
      ? await probeMcp({ url: opts.target.mcpUrl, client: mcpClient.scoped() }, opts.target.keys)
      : undefined;
    // Which revisions the agent laws speak: the one asked for, both, or whatever the deployment offers.
    const choice = opts.target.mcpRevision;
    const probes =
      wantsAgent && choice === undefined
        ? await probeRevisions({ url: opts.target.mcpUrl, client: mcpClient.scoped() }, probeRole(opts))
        : [];
    // A deployment of the stateless revision only may refuse a 2025-era `initialize` outright.
    if (mcpAbsent !== undefined && probes.some((p) => p.offered)) mcpAbsent = undefined;
    if (mcpAbsent !== undefined) groupsNotChecked.push({ group: AGENT_GROUP, reason: mcpAbsent });
    else if (wantsAgent) mcpRevisions = revisionsToRun(choice, probes);
    // A law that `waits` runs beside the laws after it, unless the laws drive the target's clock
    // through their polls (a mock target's onPoll): then its polls would move the clock under them.
    // A law waiting out a wall-clock time limit never polls, so nothing moves under anyone.
    const drivenClock = opts.target.onPoll !== undefined;
    const besideOthers = (law: Law): boolean =>
      law.waits === 'time-limit' || (law.waits === true && !drivenClock);
    for (const [index, law] of laws.entries()) {
      opts.onProgress({ type: 'law-start', index, total: laws.length, lawId: law.id, group: law.group });
      const lawStart = performance.now();
      const view = client.scoped();
      const mcpView = mcpClient.scoped();
      const reason =
        excluded(law, opts) ??
        (stoppedAnswering === undefined ? undefined : 'not run: the target stopped answering') ??
        (law.group === AGENT_GROUP && mcpAbsent !== undefined ? mcpAbsent : undefined) ??
        missingNeeds(law, opts, client) ??
        (client.requestsRemaining === 0 ? `request budget of ${opts.maxRequests} exhausted` : undefined) ??
        (opts.signal?.aborted === true ? 'run interrupted' : undefined);
      const ctx: LawContext = {
        lawId: law.id,
        ruleIds: law.ruleIds,
        client: view,
        mcp: { url: opts.target.mcpUrl, client: mcpView, revision: mcpRevisions[0] ?? '2025-11-25' },
        contract: deps.contract,
        seed: opts.seed,
        runs: opts.runs,
        shrink: opts.shrink,
        runId: opts.runId,
        prefix,
        allowWrites: opts.allowWrites,
        customFieldWrites: opts.customFieldWrites,
        noteExistingWrite: (write) => existingWrites.push(write),
        moderationTimeoutMs: opts.moderationTimeoutMs,
        now: opts.target.now,
        poll: opts.target.onPoll ?? (() => new Promise((resolve) => setTimeout(resolve, 250))),
        section: sectionOf,
        memo,
        unique: (label = 'x') => `${prefix}${label}-${++counter}`,
      };
      if (reason !== undefined && excluded(law, opts) === undefined && stoppedAnswering === undefined)
        for (const name of missingRequired(law, client)) missingKeys.add(name);
      const finish = async (): Promise<void> => {
        const stop = (): string | undefined =>
          opts.signal?.aborted === true
            ? 'not run: the run was interrupted'
            : client.requestsRemaining === 0
              ? `not run: request budget of ${opts.maxRequests} exhausted`
              : undefined;
        const run: LawRun =
          reason !== undefined
            ? { outcome: { kind: 'not-run', ruleIds: law.ruleIds, reason }, failures: [] }
            : law.group === AGENT_GROUP
              ? await overRevisions(law, ctx, mcpRevisions, stop)
              : await runLawAlone(law, ctx, stop);
        // A request that got no answer: is the target still there? If not, the run ends here.
        const silent = [...view.log, ...mcpView.log].some((x) => x.status === undefined);
        if (
          reason === undefined &&
          silent &&
          !(await stillAnswers(opts.target.baseUrl, opts.requestTimeoutMs))
        ) {
          stoppedAnswering = `${opts.target.baseUrl} stopped answering during law ${law.id} (law ${index + 1} of ${laws.length})`;
        }
        const failures: LawFailure[] = run.failures.map((f) => ({
          ...f,
          known: isKnown(opts.baseline, f.ruleId, f.fingerprint),
          level: levelIn(deps.rules)(f.ruleId),
        }));
        const result: LawResult = {
          lawId: law.id,
          group: law.group,
          title: law.title,
          ruleIds: law.ruleIds,
          outcome: run.outcome,
          failures,
          ...(run.blocked === undefined ? {} : { blocked: run.blocked }),
          durationMs: performance.now() - lawStart,
          requests: view.log.length + mcpView.log.length,
          known: failures.length > 0 && failures.every((f) => f.known),
        };
        results[index] = result;
        opts.onProgress({ type: 'law-end', index, total: laws.length, result });
      };
      if (reason === undefined && besideOthers(law)) {
        // What it throws is collected at once (no unhandled rejection meanwhile) and thrown at the end.
        waiting.push(finish().catch((error: unknown) => void waitingErrors.push(error)));
      } else await finish();
    }
  } catch (error) {
    // The loop's own error first; the waiting laws' errors are not dropped behind it.
    waitingErrors.unshift(error);
  } finally {
    await Promise.all(waiting);
    await client.close();
    await mcpClient.close();
  }
  if (waitingErrors.length === 1) throw waitingErrors[0];
  if (waitingErrors.length > 1)
    throw new AggregateError(waitingErrors, `${waitingErrors.length} errors while running the laws`);
  const levelOfRule = levelIn(deps.rules);
  const rules = aggregateRules(results, deps.rules, levelOfRule);
  const count = (status: RuleStatus): number => rules.filter((r) => r.status === status).length;
  // A failure counts against the run when it is new and its rule is must (or should, under --strict).
  const counts = (r: RuleResult): boolean => r.level === 'must' || (opts.strict && r.level === 'should');
  const failing = rules.filter((r) => r.status === 'failed' && counts(r));
  const warnings = rules.filter((r) => r.status === 'failed' && !counts(r));
  const ruleTally = {
    passed: count('passed'),
    failed: failing.length,
    warnings: warnings.length,
    knownFailures: count('known-failure'),
    notRun: count('not-run'),
    notCovered: count('not-covered'),
  };
  const checkedStatuses: readonly RuleStatus[] = ['passed', 'failed', 'known-failure'];
  const checkable = new Set(deps.rules.filter((r) => levelOfRule(r.id) !== 'mock-only').map((r) => r.id));
  const checked = rules.filter((r) => checkable.has(r.ruleId) && checkedStatuses.includes(r.status)).length;
  const percent = checkable.size === 0 ? 100 : (checked / checkable.size) * 100;
  const notRun = notRunSummary(rules);
  const writeRulesNotRun = rules.filter(
    (r) => r.status === 'not-run' && r.reasons.some((reason) => reason.endsWith(WRITES_OFF)),
  ).length;
  const ok = failing.length === 0;
  const notChecked = opts.allowNotRun ? [] : [...missingKeys];
  const shortOfCoverage =
    opts.minCoverage !== undefined && percent < opts.minCoverage
      ? `coverage ${Math.floor(percent)} % is below --min-coverage ${opts.minCoverage} %`
      : undefined;
  const verdict: Verdict =
    stoppedAnswering !== undefined
      ? 'unreachable'
      : !ok
        ? 'not-conformant'
        : notChecked.length > 0 || groupsNotChecked.length > 0 || shortOfCoverage !== undefined
          ? 'not-checked'
          : 'conformant';
  const report: ConformanceReport = {
    tool: 'cca-kit conform',
    runId: opts.runId,
    seed: opts.seed,
    runs: opts.runs,
    baseUrl: opts.target.baseUrl,
    allowWrites: opts.allowWrites,
    strict: opts.strict,
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
      checked,
      checkable: checkable.size,
      ...(opts.minCoverage === undefined ? {} : { minimum: opts.minCoverage }),
    },
    notRun,
    writeRulesNotRun,
    existingWrites,
    missingKeys: notChecked,
    groupsNotChecked,
    ...(mcpRevisions.length === 0 ? {} : { mcpRevisions }),
    ...(shortOfCoverage === undefined ? {} : { shortOfCoverage }),
    ...(stoppedAnswering === undefined ? {} : { stoppedAnswering }),
    verdict,
    ok,
  };
  opts.onProgress({ type: 'end', report });
  return report;
}
