import type { Clock } from './types.ts';

export interface MockClockOptions {
  /** Epoch ms the clock starts at. */
  readonly start: number;
  /** When true the clock follows real time from `start` (plus any advance); when false it stands still. */
  readonly running?: boolean;
  /** Real-time source of a running clock; injected in tests. Defaults to `Date.now`. */
  readonly realNow?: () => number;
  /**
   * Real time (epoch ms) a running clock counts from. Default: the moment of construction. A shared
   * store gives every replica the same one, so their clocks agree (`now = start + real - realStart + offset`).
   */
  readonly realStart?: number;
}

/**
 * The engine's clock. A frozen clock moves only when a test calls `advance`/`set`; a running clock
 * follows real time and can still be moved (an offset). Every time the engine reads comes from here.
 *
 * @example
 * const clock = new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') });
 * clock.advance(60_000); // one minute later, without sleeping
 */
export class MockClock implements Clock {
  readonly start: number;
  readonly running: boolean;
  readonly #realNow: () => number;
  #realStart: number;
  #offset = 0;
  /** Real time pinned while a command is applied, so every replica computes the same times. */
  #pinnedReal: number | null = null;

  constructor(options: MockClockOptions) {
    if (!Number.isFinite(options.start)) throw new RangeError('MockClock start must be a finite epoch ms');
    this.start = options.start;
    this.running = options.running ?? false;
    this.#realNow = options.realNow ?? (() => Date.now());
    this.#realStart = this.running ? (options.realStart ?? this.#realNow()) : 0;
  }

  now(): number {
    const elapsed = this.running ? this.realTime() - this.#realStart : 0;
    return this.start + elapsed + this.#offset;
  }

  /** The real time the clock reads: the pinned one while a command is applied. */
  realTime(): number {
    return this.#pinnedReal ?? this.#realNow();
  }

  /** The real time a running clock counts from (0 for a frozen clock). */
  get realStart(): number {
    return this.#realStart;
  }

  /**
   * Runs `apply` with real time pinned at `real`: every `now()` inside reads the same value on every
   * replica that applies the same command (`mocks/engine/commands/`). Not reentrant on purpose.
   */
  pinned<T>(real: number, apply: () => T): T {
    const previous = this.#pinnedReal;
    this.#pinnedReal = real;
    try {
      return apply();
    } finally {
      this.#pinnedReal = previous;
    }
  }

  /** Moves the clock forward by `ms` (non-negative); returns the new time. */
  advance(ms: number): number {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance needs a finite ms >= 0 (got ${ms})`);
    this.#offset += ms;
    return this.now();
  }

  /** Sets the clock to `epochMs` (may move backwards); returns it. */
  set(epochMs: number): number {
    if (!Number.isFinite(epochMs)) throw new RangeError(`set needs a finite epoch ms (got ${epochMs})`);
    this.#offset += epochMs - this.now();
    return this.now();
  }

  /**
   * Back to `start` (a running clock restarts from now). Done through the offset alone, so a reset
   * applied at a pinned real time gives the same clock on every replica.
   */
  reset(): void {
    this.#offset += this.start - this.now();
  }
}

/** A clock that follows real time from now on and can still be advanced or set. */
export function realTimeClock(): MockClock {
  return new MockClock({ start: Date.now(), running: true });
}
