/** What commands act on: the engine's current state (replaced by reset), its clock, and reset. */
import type { MockClock } from '../clock.ts';
import type { EngineState } from '../state.ts';

export interface CommandTarget {
  readonly state: EngineState;
  readonly clock: MockClock;
  /** Puts the clock back to its start and rebuilds the state from the engine's options. */
  reset(): void;
}
