/**
 * Aggregations behind agents, queues and the analytics operations. Every figure is computed from
 * the rows of the same createdAt window the action list reads, so the numbers add up: a tag's count
 * is the number of window actions carrying it, `totalActions` the number of window actions.
 */
import {
  actionabilityOf,
  relevanceOf,
  resolutionQualityOf,
  rubricScoreOf,
  sentimentChangeOf,
} from '../../../fixtures/generate/derive.ts';
import { FLAG_INGESTED, NULL_SCORE } from '../../../fixtures/generate/table.ts';
import type { components } from '../../../src/contract/types.ts';
import type { ActionScores } from './ingest-types.ts';
import type { OrgData } from './state.ts';

export const round2 = (x: number): number => Math.round(x * 100) / 100;

/** An action's scores (see `ActionScores`): derived from a generated action's seed, or as loaded. */
export function scoresOf(org: OrgData, row: number): ActionScores | undefined {
  const t = org.table;
  if (t.hasFlag(row, FLAG_INGESTED)) return org.ingested.get(row)?.extras?.scores;
  const seed = t.seed[row] ?? 0;
  return {
    resolutionQuality: resolutionQualityOf(seed),
    sentimentChange: sentimentChangeOf(seed),
    rubricScore: rubricScoreOf(seed),
    actionability: actionabilityOf(seed),
    relevance: relevanceOf(seed),
  };
}

class Mean {
  sum = 0;
  n = 0;
  add(x: number): void {
    this.sum += x;
    this.n++;
  }
  /** A figure a data file may leave out: an action without it counts in no average of it. */
  addDefined(x: number | undefined): void {
    if (x !== undefined) this.add(x);
  }
  /** The mean, rounded to two decimals; 0 when there is no value (the spec's metrics are all numbers). */
  value(): number {
    return this.n === 0 ? 0 : round2(this.sum / this.n);
  }
  /** The mean or null when there is no value (where the contract allows null). */
  valueOrNull(): number | null {
    return this.n === 0 ? null : round2(this.sum / this.n);
  }
}

/** The contract's Metrics schema: what every figure of an agent or queue row is made of. */
export type Metrics = components['schemas']['Metrics'];

export interface Workload {
  active: number;
  closed: number;
  cancelled: number;
}

/**
 * Accumulates the metrics and workload of a set of rows. The sums and counts of the means are plain
 * fields rather than one object each, and the workload counts one per status: the report routes call
 * `add` for every row of the window, and the objects and the bucket looked up by name per row were
 * most of their cost. Each sum adds the same values in the same order as before, so the means are the
 * same doubles.
 */
export class MetricsAccumulator {
  totalActions = 0;
  withResponse = 0;
  private messages = 0;
  private agentMessages = 0;
  private userMessages = 0;
  private csatSum = 0;
  private csatN = 0;
  private responseSum = 0;
  private responseN = 0;
  private handleSum = 0;
  private handleN = 0;
  private estimatedSum = 0;
  private estimatedN = 0;
  private qualitySum = 0;
  private qualityN = 0;
  private sentimentChangeSum = 0;
  private sentimentChangeN = 0;
  private rubricSum = 0;
  private rubricN = 0;
  private sentimentSum = 0;
  private sentimentN = 0;
  /** By status index: OPEN, PENDING, ESCALATED are active; CLOSED closed; CANCELLED cancelled. */
  private readonly statuses = [0, 0, 0, 0, 0];
  /** Status indexes outside the five (counted as active, as an unknown bucket always was). */
  private otherStatus = 0;

  add(org: OrgData, row: number): void {
    const t = org.table;
    this.totalActions++;
    if (t.responded(row)) this.withResponse++;
    this.messages += t.msgTotal[row] ?? 0;
    this.agentMessages += t.msgAgent[row] ?? 0;
    this.userMessages += t.msgUser[row] ?? 0;
    const csat = t.csat[row] ?? -1;
    if (csat > 0) {
      this.csatSum += csat;
      this.csatN++;
    }
    const response = t.responseSec[row] ?? -1;
    if (response >= 0) {
      this.responseSum += response;
      this.responseN++;
    }
    const close = t.closeSec[row] ?? -1;
    if (close >= 0) {
      this.handleSum += close - Math.max(0, t.claimSec[row] ?? 0);
      this.handleN++;
    }
    const estimated = t.estimatedCsat[row] ?? -1;
    if (estimated >= 0) {
      this.estimatedSum += estimated / 100;
      this.estimatedN++;
    }
    const score = t.sentimentScore[row] ?? NULL_SCORE;
    if (score !== NULL_SCORE) {
      this.sentimentSum += score / 1000;
      this.sentimentN++;
    }
    if (!t.hasFlag(row, FLAG_INGESTED)) {
      const seed = t.seed[row] ?? 0;
      this.qualitySum += resolutionQualityOf(seed);
      this.qualityN++;
      this.sentimentChangeSum += sentimentChangeOf(seed);
      this.sentimentChangeN++;
      this.rubricSum += rubricScoreOf(seed);
      this.rubricN++;
    } else {
      // A figure a data file may leave out: an action without it counts in no average of it.
      const scores = org.ingested.get(row)?.extras?.scores;
      if (scores !== undefined) {
        if (scores.resolutionQuality !== undefined) {
          this.qualitySum += scores.resolutionQuality;
          this.qualityN++;
        }
        if (scores.sentimentChange !== undefined) {
          this.sentimentChangeSum += scores.sentimentChange;
          this.sentimentChangeN++;
        }
        if (scores.rubricScore !== undefined) {
          this.rubricSum += scores.rubricScore;
          this.rubricN++;
        }
      }
    }
    const status = t.status[row] ?? 0;
    if (status < 5) this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    else this.otherStatus++;
  }

  metrics(): Metrics {
    return {
      totalActions: this.totalActions,
      totalMessages: this.messages,
      totalAgentMessages: this.agentMessages,
      totalUserMessages: this.userMessages,
      averageCsat: mean(this.csatSum, this.csatN),
      averageResponseTime: mean(this.responseSum, this.responseN),
      averageHandleTime: mean(this.handleSum, this.handleN),
      averageEstimatedCsat: mean(this.estimatedSum, this.estimatedN),
      averageResolutionQuality: mean(this.qualitySum, this.qualityN),
      averageSentimentChange: mean(this.sentimentChangeSum, this.sentimentChangeN),
      averageRubricScore: mean(this.rubricSum, this.rubricN),
    };
  }

  /**
   * The metrics set as properties of `first`, after its own: `{ day, ...metrics() }` as a spread
   * copied every metric into a second object, per day of an agent's detail.
   */
  metricsAfter<T extends object>(first: T): T & Metrics {
    const out = first as T & Partial<Metrics>;
    out.totalActions = this.totalActions;
    out.totalMessages = this.messages;
    out.totalAgentMessages = this.agentMessages;
    out.totalUserMessages = this.userMessages;
    out.averageCsat = mean(this.csatSum, this.csatN);
    out.averageResponseTime = mean(this.responseSum, this.responseN);
    out.averageHandleTime = mean(this.handleSum, this.handleN);
    out.averageEstimatedCsat = mean(this.estimatedSum, this.estimatedN);
    out.averageResolutionQuality = mean(this.qualitySum, this.qualityN);
    out.averageSentimentChange = mean(this.sentimentChangeSum, this.sentimentChangeN);
    out.averageRubricScore = mean(this.rubricSum, this.rubricN);
    return out as T & Metrics;
  }

  averageSentimentScore(): number {
    return mean(this.sentimentSum, this.sentimentN);
  }

  workload(): Workload {
    const s = this.statuses;
    return {
      active: (s[0] ?? 0) + (s[1] ?? 0) + (s[2] ?? 0) + this.otherStatus,
      closed: s[3] ?? 0,
      cancelled: s[4] ?? 0,
    };
  }
}

/** The mean, rounded to two decimals; 0 when there is no value (the spec's metrics are all numbers). */
const mean = (sum: number, n: number): number => (n === 0 ? 0 : round2(sum / n));

/** Per-tag figures of tag analytics and tag volume. */
export class TagAccumulator {
  total = 0;
  responded = 0;
  private readonly sentiment = new Mean();
  private readonly actionability = new Mean();
  private readonly relevance = new Mean();
  readonly labels = [0, 0, 0, 0];

  add(org: OrgData, row: number): void {
    const t = org.table;
    this.total++;
    if (t.responded(row)) this.responded++;
    const score = t.sentimentScore[row] ?? NULL_SCORE;
    if (score !== NULL_SCORE) this.sentiment.add(score / 1000);
    const label = t.sentiment[row] ?? -1;
    if (label >= 0) this.labels[label] = (this.labels[label] ?? 0) + 1;
    if (!t.hasFlag(row, FLAG_INGESTED)) {
      const seed = t.seed[row] ?? 0;
      this.actionability.add(actionabilityOf(seed));
      this.relevance.add(relevanceOf(seed));
    } else {
      const scores = org.ingested.get(row)?.extras?.scores;
      if (scores !== undefined) {
        this.actionability.addDefined(scores.actionability);
        this.relevance.addDefined(scores.relevance);
      }
    }
  }

  averages(): { avgSentiment: number | null; avgActionability: number | null; avgRelevance: number | null } {
    return {
      avgSentiment: this.sentiment.valueOrNull(),
      avgActionability: this.actionability.valueOrNull(),
      avgRelevance: this.relevance.valueOrNull(),
    };
  }
}

/** Linear-interpolation percentile of sorted values (0 for none), rounded to two decimals. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return 0;
  const pos = (sorted.length - 1) * p;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  const a = sorted[lo] ?? 0;
  const b = sorted[hi] ?? a;
  return round2(a + (b - a) * (pos - lo));
}

const DAY = 86_400_000;
const dayTexts = new Map<number, string>();

/**
 * The UTC day of `ms` as `YYYY-MM-DD`. Formatting a Date per row was the largest cost of the per-day
 * reports, so each day's text is formatted once (by the same `toISOString`) and then looked up by
 * day number; the map holds one short string per distinct day ever asked for.
 */
export function dayOf(ms: number): string {
  const day = Math.floor(ms / DAY);
  let text = dayTexts.get(day);
  if (text === undefined) {
    text = new Date(day * DAY).toISOString().slice(0, 10);
    dayTexts.set(day, text);
  }
  return text;
}

/** Monday 00:00 UTC of the week containing `ms` (before 1970 too: `%` keeps the sign of a negative day). */
export function weekStart(ms: number): number {
  const day = Math.floor(ms / 86_400_000);
  const weekday = (((day + 3) % 7) + 7) % 7; // 1970-01-01 was a Thursday; Monday = 0
  return (day - weekday) * 86_400_000;
}
