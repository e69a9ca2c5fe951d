/**
 * The base types of the engine. Each slice of state has one owner module; handlers are plain functions
 * from a validated request context (handlers/context.ts) to a result, found by operationId. Nothing
 * here knows about node:http or MSW: adapters call `Engine.dispatch` (plain data) or `Engine.handle`
 * (Fetch API).
 */

import { concatBytes } from './exchange.ts';

export type {
  ApiKeyRecord,
  KeyProfile,
  KeyRecord,
  KeyStatus,
  ModerationMode,
  Organization,
  Scope,
} from '../../src/contract/domain.ts';

/** The engine's clock: injected so tests drive time instead of sleeping. */
export interface Clock {
  now(): number;
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
