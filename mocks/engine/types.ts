/**
 * The seams of the engine. Each slice of state has one owner module; handlers are plain functions
 * from a validated request context to a result, found by operationId. Nothing here knows about
 * node:http or MSW: adapters call `Engine.dispatch` (plain data) or `Engine.handle` (Fetch API).
 */

import type { ApiKeyRecord, Organization } from '../../src/contract/domain.ts';
import type { Command, OutcomeOf } from './commands/types.ts';
import { concatBytes } from './exchange.ts';

export type {
  ApiKeyRecord,
  KeyProfile,
  KeyStatus,
  ModerationMode,
  Organization,
  Scope,
} from '../../src/contract/domain.ts';

/** The engine's clock: injected so tests drive time instead of sleeping. */
export interface Clock {
  now(): number;
}

/** What a handler receives once auth, scope and contract validation have passed. */
export interface HandlerContext<State = unknown> {
  readonly operationId: string;
  readonly organization: Organization;
  readonly key: ApiKeyRecord;
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

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder();
const COMMA = utf8.encode(',');

/**
 * A body already serialised: JSON as UTF-8 chunks, written as they are. Pages built from cached
 * record bytes use it, so a page costs a copy, not a derivation, a stringify and an encode. The
 * engine parses it only when the self-check or an interceptor needs the value.
 */
export class SerialisedJson {
  constructor(readonly chunks: readonly Uint8Array[]) {}

  /** A page of items: `head` + items joined by commas + `tail`, e.g. `{"data":[` ... `],"total":3}`. */
  static page(head: string, items: readonly Uint8Array[], tail: string): SerialisedJson {
    const chunks: Uint8Array[] = [utf8.encode(head)];
    items.forEach((item, index) => {
      if (index > 0) chunks.push(COMMA);
      chunks.push(item);
    });
    chunks.push(utf8.encode(tail));
    return new SerialisedJson(chunks);
  }

  bytes(): Uint8Array<ArrayBuffer> {
    return concatBytes(this.chunks);
  }

  value(): unknown {
    return JSON.parse(utf8Decoder.decode(this.bytes()));
  }
}

export interface HandlerResult {
  readonly status: number;
  /** Any JSON value, or a `SerialisedJson` holding its serialised form. */
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export type Handler<State = unknown> = (ctx: HandlerContext<State>) => HandlerResult | Promise<HandlerResult>;
