/**
 * What a handler receives and returns: the handlers' own contract with the pipeline, beside them, so
 * the engine's base types (types.ts) need not know the commands a handler may execute.
 */
import type { Command, OutcomeOf } from '../commands/types.ts';
import type { Clock, HandlerResult, KeyRecord, Organization } from '../types.ts';

/** What a handler receives once auth, scope and contract validation have passed. */
export interface HandlerContext<State = unknown> {
  readonly operationId: string;
  readonly organization: Organization;
  readonly key: KeyRecord;
  /** Path parameters, always strings, byte-identical to the decoded path segment. */
  readonly pathParams: Readonly<Record<string, string>>;
  /** Query parameters after contract coercion (integers and booleans converted; strings untouched). */
  readonly query: Readonly<Record<string, unknown>>;
  /** The parsed JSON body, already valid against the contract's request schema where one exists. */
  readonly body: unknown;
  /** The raw request body text, for handlers that must keep bytes (canonical JSON, echoes). */
  readonly rawBody: string;
  readonly state: State;
  readonly clock: Clock;
  /**
   * Makes a write: applies the command through the engine's store (`mocks/engine/commands/`) and
   * resolves with its outcome; a write never changes `state` any other way.
   */
  readonly execute: <C extends Command>(command: C) => Promise<OutcomeOf<C>>;
}

export type Handler<State = unknown> = (ctx: HandlerContext<State>) => HandlerResult | Promise<HandlerResult>;
