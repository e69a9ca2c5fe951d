/**
 * The shared vocabulary of the agent interface (spec section 4.18): who calls, what a tool or an
 * operation answers, and how it fails. The MCP server (`server/`), the sandbox (`sandbox/`), the
 * operations behind `execute` (`operations/`), the replies (`replies/`) and the skills (`skills/`)
 * all speak it, so each part can be built and tested without the others.
 *
 * Failures are data, never thrown strings: the MCP layer turns an `AgentFailure` into an `isError`
 * tool result whose `structuredContent` is the failure itself (see `contract/agent/failures.json`),
 * and the sandbox turns it into an `Error` thrown inside the script.
 */
import type { Engine } from '../engine/engine.ts';
import type { KeyProfile, Scope } from '../engine/types.ts';

/** The caller, fixed by the key of the connection (section 4.18: "fixes organization and identity"). */
export interface AgentIdentity {
  readonly organizationId: string;
  /** The key's name (never its value): shown on the confirmation page and in audit fields. */
  readonly keyName: string;
  readonly profile: KeyProfile;
  readonly scopes: readonly Scope[];
}

/**
 * Where a failure of `execute` came from when the script did not catch a failed `call()`: the
 * operation and the script line of the call (the failure keeps the operation's own kind and field).
 */
export type CallOrigin = {
  readonly operationId?: string;
  readonly line?: number | null;
};

/**
 * The failure kinds of section 7 ("Agent interface failures"), plus the few a mock also needs. Its
 * "truncated results (limit reported)" is no kind here: a cut execute answer is a success whose
 * `truncated.result` reports the limit and where to resume, so what a script returned is never lost.
 */
export type AgentFailure = CallOrigin &
  /** Invalid input: the caller must fix the named field (a JSON pointer into the tool's or the operation's input). */
  (
    | {
        readonly kind: 'invalid_input';
        readonly code: 'INVALID_INPUT';
        readonly field: string;
        readonly message: string;
      }
    /** The key lacks access: `missingScope` names what is missing. */
    | {
        readonly kind: 'forbidden';
        readonly code: 'FORBIDDEN';
        readonly missingScope: string;
        readonly message: string;
      }
    /** A human approval step is pending; not a success (4.18 rule 1). */
    | {
        readonly kind: 'approval_required';
        readonly code: 'APPROVAL_REQUIRED';
        readonly requestId: string;
        /** Where the human confirms (4.18 rule 4), when the deployment has such a page. */
        readonly approvalUrl: string | null;
        readonly message: string;
      }
    /** A reply's delivery outcome is not known: read the existing request with open_reply; never resend. */
    | {
        readonly kind: 'unknown_delivery_state';
        readonly code: 'UNKNOWN_DELIVERY_STATE';
        readonly requestId: string;
        readonly message: string;
      }
    /** The named thing does not exist in the caller's organization. */
    | {
        readonly kind: 'not_found';
        readonly code: 'NOT_FOUND';
        readonly field: string;
        readonly message: string;
      }
    /** An immutable identifier reused with different content (a requestId, a saved-search name...). */
    | {
        readonly kind: 'conflict';
        readonly code: 'CONFLICT';
        readonly field: string;
        readonly message: string;
      }
    /** A sandbox limit stopped the script (time, memory, stack, calls, size). */
    | {
        readonly kind: 'limit_exceeded';
        readonly code: 'LIMIT_EXCEEDED';
        readonly limit: 'time' | 'memory' | 'stack' | 'calls' | 'script_size' | 'output';
        readonly value: number;
        readonly message: string;
      }
    /** The script threw or did not parse. */
    | { readonly kind: 'script_error'; readonly code: 'SCRIPT_ERROR'; readonly message: string }
    /** Too many executions at once: the pool refused; retry later. */
    | {
        readonly kind: 'busy';
        readonly code: 'BUSY';
        readonly retryAfterMs: number;
        readonly message: string;
      }
  );

export type AgentFailureKind = AgentFailure['kind'];

/** What a tool or an operation answers: a value, or a failure as data. */
export type Outcome<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly failure: AgentFailure };

export const succeed = <T>(value: T): Outcome<T> => ({ ok: true, value });
export const fail = (failure: AgentFailure): Outcome<never> => ({ ok: false, failure });

/** Everything an operation or a tool handler is given; one per call. */
export interface AgentContext {
  readonly engine: Engine;
  readonly identity: AgentIdentity;
  /** The origin links are built on (the confirmation page), e.g. `http://127.0.0.1:4010`; null in process. */
  readonly publicOrigin: string | null;
  /** Aborted when the client goes away or the server stops. */
  readonly signal: AbortSignal;
}

/** Read or write, as `spec()` reports it; a write needs the `write` scope. */
export type OperationEffect = 'read' | 'write';

/** One operation behind `execute` (its schemas live in `contract/agent/operations.json`). */
export interface AgentOperation {
  readonly id: string;
  readonly summary: string;
  readonly effect: OperationEffect;
  /** Input already validated against the operation's input schema by the caller of `run`. */
  run(ctx: AgentContext, input: unknown): Outcome<unknown> | Promise<Outcome<unknown>>;
}

/** One MCP tool (its schemas live in `contract/agent/tools.json` and the files it names). */
export interface AgentTool {
  readonly name: string;
  /** Arguments already validated against the tool's input schema. */
  handle(ctx: AgentContext, args: Record<string, unknown>): Outcome<unknown> | Promise<Outcome<unknown>>;
}

/** A JSON Schema (2020-12) as plain data, from `contract/agent/`. */
export type JsonSchema = Readonly<Record<string, unknown>> | boolean;

/** What `spec()` lists for each operation. */
export interface OperationDescriptor {
  readonly id: string;
  readonly summary: string;
  readonly effect: OperationEffect;
}

/** What `spec(id)` returns: the descriptor and both schemas. */
export interface OperationSpec extends OperationDescriptor {
  readonly inputSchema: JsonSchema;
  readonly outputSchema: JsonSchema;
}

/**
 * The catalog behind `execute` (built by `operations/`, consumed by `sandbox/`): `call` validates the
 * input against the operation's schema (an `invalid_input` naming the field), refuses a write without
 * the `write` scope (`forbidden` naming it), then runs the operation. An unknown id is `invalid_input`
 * on field `/operationId`.
 */
export interface OperationRegistry {
  list(): readonly OperationDescriptor[];
  spec(id: string): OperationSpec | undefined;
  call(ctx: AgentContext, id: string, input: unknown): Promise<Outcome<unknown>>;
  /**
   * A cursor of operation `id` that, with `input` unchanged but for `cursor`, resumes right after item
   * `index` of `output` (a page `call` answered for `input`); null when the operation has no such cursor.
   * Optional: a registry without it never names a resume point.
   */
  resumeAfter?(ctx: AgentContext, id: string, input: unknown, output: unknown, index: number): string | null;
}

/**
 * An HTTP route of the agent side that is not MCP (the reply confirmation page, the documentation
 * index): answers a Fetch request, or `null` when the path is not its own. Served on the mock's origin
 * by `mocks/agent/http.ts`.
 */
export type AgentPageHandler = (request: Request, engine: Engine) => Promise<Response | null>;
