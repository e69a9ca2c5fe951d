/**
 * The seam for observers and fault injection (the violation log and the chaos modes plug in here).
 * Interceptors run in order; none is installed by default, and the pipeline pays nothing for them then.
 */
import type { ValidationIssue } from '../../src/contract/index.ts';
import type { AdminApi } from './admin/api.ts';
import type { MockClock } from './clock.ts';
import type { EngineRequest, EngineResponse } from './exchange.ts';
import type { EngineState } from './state.ts';
import type { HandlerResult } from './types.ts';

/** What an interceptor may reach of the engine it is installed in (given once, by `createEngine`). */
export interface InterceptorHost {
  /** The current state (a new object after `admin.reset()`). */
  readonly state: EngineState;
  readonly clock: MockClock;
  /** The engine's admin API; its identity is stable, so per-engine registries key on it. */
  readonly admin: AdminApi;
}

/** What `engine.handle(Request, context)` needs besides the Request itself. */
export interface RequestContext {
  /** Address of the client as the transport saw it (`127.0.0.1`, `::1`...). */
  readonly remoteAddress?: string;
  /**
   * The request was made in this process or page and handed over without a network (MSW): the admin
   * API answers it whatever its `Host`, `Origin` or forwarding headers say.
   */
  readonly inProcess?: boolean;
}

export interface RequestIssuesEvent {
  readonly operationId: string;
  readonly request: EngineRequest;
  readonly issues: readonly ValidationIssue[];
  /** The request body as read by the engine ('' when none); the request's own stream is consumed. */
  readonly rawBody: string;
}

export interface ResultEvent {
  /** Null when the request matched no operation (404/405) or was an admin/docs request. */
  readonly operationId: string | null;
  readonly request: EngineRequest;
  readonly result: HandlerResult;
  /** The request body as read by the engine ('' when none was read). */
  readonly rawBody: string;
}

export interface AnswerEvent {
  /** The request as the transport gave it. */
  readonly request: EngineRequest;
  /** The request the pipeline handled (another object when an interceptor rewrote it). */
  readonly handled: EngineRequest;
  /** What the transport is about to send: the serialised answer, or a drop. */
  readonly response: EngineResponse;
  /** The operation answered; null when none matched, for admin and docs requests and early answers. */
  readonly operationId: string | null;
  /** The request body as read by the engine, one that failed validation included ('' when none). */
  readonly rawBody: string;
  /** `performance.now()` when the engine received the request (for durations). */
  readonly receivedAt: number;
  /** The id of the targeted fault that answered (`f1`...), or null (`mocks/engine/faults/`). */
  readonly fault: string | null;
}

export interface EngineInterceptor {
  /** Called once by `createEngine` with the engine's state, clock and admin API. */
  attach?(host: InterceptorHost): void;
  /** Before routing. Return a response to answer instead of the engine (injected 500, latency, drops). */
  onRequest?(request: EngineRequest): EngineResponse | undefined | Promise<EngineResponse | undefined>;
  /** After `onRequest`, before routing: return a replacement request (chaos maps served ids back). */
  rewriteRequest?(request: EngineRequest): EngineRequest | undefined;
  /** A request failed contract validation (it is answered with 400/422 as usual). */
  onRequestIssues?(event: RequestIssuesEvent): void;
  /**
   * Every JSON result before self-check and serialisation; return a replacement to change it. The body
   * may be a `SerialisedJson` (a page built from cached bytes): call `.value()` when you need it.
   */
  onResult?(event: ResultEvent): HandlerResult | undefined;
  /**
   * Every response the engine gives, admin and early (chaos) ones included, after serialisation: for
   * observers that need the final status and bytes (the request journal). Must not throw or block.
   */
  onAnswer?(event: AnswerEvent): void;
}
