/**
 * Manners towards a live service that has no rate limit of its own: a request rate limiter and a
 * bounded total request count, both shared by every client of one run.
 */

/** Thrown when a run has used its whole request budget; the runner reports the rest as not run. */
export class BudgetExhaustedError extends Error {
  readonly code = 'BUDGET_EXHAUSTED';
  constructor(readonly maxRequests: number) {
    super(`request budget of ${maxRequests} requests exhausted (raise --max-requests)`);
    this.name = 'BudgetExhaustedError';
  }
}

export function isBudgetExhausted(error: unknown): error is BudgetExhaustedError {
  return error instanceof BudgetExhaustedError;
}

/**
 * Spaces request starts at least `1000 / maxRps` ms apart (a single-slot scheduler: simple and
 * fair under concurrency). `maxRps` of `Infinity` or 0 disables it.
 */
export class RateLimiter {
  readonly #intervalMs: number;
  #next = 0;

  constructor(maxRps: number) {
    if (!(maxRps >= 0)) throw new RangeError(`maxRps must be >= 0, got ${maxRps}`);
    this.#intervalMs = maxRps === 0 || maxRps === Number.POSITIVE_INFINITY ? 0 : 1000 / maxRps;
  }

  /** Resolves when the caller may start its request. */
  async acquire(): Promise<void> {
    if (this.#intervalMs === 0) return;
    const now = performance.now();
    const start = Math.max(now, this.#next);
    this.#next = start + this.#intervalMs;
    const wait = start - now;
    if (wait > 0.5) await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Counts requests against a bounded total. */
export class RequestBudget {
  #used = 0;
  constructor(readonly maxRequests: number) {
    if (!(maxRequests > 0)) throw new RangeError(`maxRequests must be > 0, got ${maxRequests}`);
  }

  get used(): number {
    return this.#used;
  }

  get remaining(): number {
    return Math.max(0, this.maxRequests - this.#used);
  }

  /** Takes one request from the budget or throws `BudgetExhaustedError`. */
  take(): void {
    if (this.#used >= this.maxRequests) throw new BudgetExhaustedError(this.maxRequests);
    this.#used += 1;
  }
}
