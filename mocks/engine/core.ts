/**
 * The mock engine's core: a function from a request to a response over one in-memory state, with its
 * optional parts (`parts.ts`: admin routes, data files, permitted variations) given by the caller.
 * `createEngine` (`engine.ts`) gives it every part. Routing and
 * validation come from the contract; handlers are found by operationId. No node imports: the same engine
 * runs behind node:http (`dispatch`, plain data), and MSW in node or in a browser (`handle`, Fetch API).
 *
 * The pipeline, top to bottom with early returns:
 * admin prefix → route (contract) → docs → auth (key, scope, moderation mode) → body (413/415/400)
 * → contract validation (400/422 by policy) → targeted faults (only while one is set) → handler
 * → self-check → answer.
 */
import {
  declaredResponseKey,
  contract as defaultContract,
  type Operation,
  type ValidationIssue,
} from '../../src/contract/index.ts';
import { type AdminApi, type AdminHost, createAdminApi } from './admin/api.ts';
import type { AdminDispatcher } from './admin/route.ts';
import { authenticate, hasScope } from './auth/index.ts';
import { readJsonBody } from './body.ts';
import type { MockClock } from './clock.ts';
import { applyCommand } from './commands/apply.ts';
import type { Applied, Command, LoggedCommand, OutcomeOf } from './commands/types.ts';
import { createDocs, DOCS_OPERATIONS } from './docs.ts';
import { type EngineError, type EngineErrorCode, errors, FAULT_HEADER, missingPart } from './errors.ts';
import { DROP, type EngineAnswer, type EngineRequest, type EngineResponse } from './exchange.ts';
import { acceptedCases, createFaults, type FaultView } from './faults/index.ts';
import { fromFetchRequest, toFetchResponse } from './fetch-bridge.ts';
import { handlers } from './handlers/index.ts';
import { settleIngestion } from './ingestion/index.ts';
import type { RequestContext } from './interceptors.ts';
import { failCase } from './moderation/status.ts';
import { type EngineOptions, type NormalizedEngineOptions, normalizeOptions } from './options.ts';
import type { EngineParts } from './parts.ts';
import {
  HTML_CONTENT_TYPE,
  JSON_CONTENT_TYPE,
  jsonResponse,
  preflightResponse,
  textResponse,
} from './respond.ts';
import { createEngineState, type EngineState } from './state.ts';
import { createMemoryStore } from './store/memory.ts';
import {
  type ApplyEntry,
  type CommandStore,
  type EngineImage,
  type ImageAccess,
  isOutcomeUnknown,
  isStoreUnavailable,
  type StoreHealth,
} from './store/types.ts';
import { type HandlerResult, SerialisedJson } from './types.ts';
import { validationPolicyOf } from './validation-policy.ts';

/** A response the self-check found in violation of the contract (answered as a 500 instead). */
export interface SelfCheckFailure {
  readonly operationId: string | null;
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly issues: readonly ValidationIssue[];
}

/** A handler (or the pipeline) threw: answered as a 500, recorded so tests fail on it. */
export interface UnexpectedError {
  readonly operationId: string | null;
  readonly method: string;
  readonly url: string;
  readonly error: unknown;
}

export interface Engine {
  /** Answers one request. `context` decides access to the admin API (admin/access.ts). Never throws. */
  handle(request: Request, context?: RequestContext): Promise<Response>;
  /** The same on plain data, without the Fetch API's objects (the node adapter's path). Never throws. */
  dispatch(request: EngineRequest): Promise<EngineResponse>;
  /** Typed admin operations, no HTTP needed. */
  readonly admin: AdminApi;
  /** The current state (replaced by `admin.reset()`). */
  readonly state: EngineState;
  readonly clock: MockClock;
  readonly options: NormalizedEngineOptions;
  /** Self-check violations so far (empty in a healthy run). */
  readonly selfCheckFailures: SelfCheckFailure[];
  /** Unexpected throws so far (empty in a healthy run). */
  readonly unexpectedErrors: UnexpectedError[];
  /**
   * Makes a write through the engine's store: resolves with the command's outcome once it is in the
   * log and applied here; rejects with its refusal (`AdminError`) or `StoreUnavailableError`.
   */
  execute<C extends Command>(command: C): Promise<OutcomeOf<C>>;
  /** The same, synchronously, for in-memory and file stores (throws on a shared store). */
  run<C extends Command>(command: C): OutcomeOf<C>;
  /** Applies every command other replicas appended so far; undefined when there can be none. */
  catchUp(): Promise<void> | undefined;
  /**
   * Puts the engine on another store (`mocks/engine/store/`); `open` receives the one function that
   * applies a logged command, and `image` to take the state for a snapshot or put a loaded one back.
   * Used at start, before the first request, by `--state-file` and `--state`.
   */
  useStore(
    open: (apply: ApplyEntry, image: ImageAccess) => CommandStore | Promise<CommandStore>,
  ): Promise<CommandStore>;
  /** The store's log position, lag and reachability (`GET /__mock/health`). */
  storeHealth(): Promise<StoreHealth>;
}

/**
 * Pipeline errors that are about the transport, not the operation: when the operation does not declare
 * their status, the self-check holds them to the general `ErrorBody` only.
 */
const TRANSPORT_ERRORS: ReadonlySet<EngineErrorCode> = new Set<EngineErrorCode>([
  'ROUTE_NOT_FOUND',
  'METHOD_NOT_ALLOWED',
  'BAD_PATH_ENCODING',
  'BODY_TOO_LARGE',
  'BODY_REQUIRED',
  'UNSUPPORTED_MEDIA_TYPE',
  'MALFORMED_JSON',
  'ADMIN_FORBIDDEN',
  'ADMIN_NOT_FOUND',
  'ADMIN_BAD_REQUEST',
  'STORE_UNAVAILABLE',
  'OUTCOME_UNKNOWN',
]);

/** Filled in by the pipeline for the `onAnswer` observers. */
interface AnswerNote {
  operationId: string | null;
  rawBody: string;
  readonly receivedAt: number;
  /** The targeted fault that answered, when one did. */
  fault: string | null;
}

const isEngineError = (result: HandlerResult): result is EngineError => 'code' in result;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Creates an engine with its own state and clock, and the optional parts given (none: the service
 * alone, with `/__mock/` answering 404 and data files and choices refused, each naming its opt-in).
 *
 * @example
 * const engine = createEngineWith({ adminRoutes }, { seed: 42, clock: 'frozen' });
 */
export function createEngineWith(parts: EngineParts, engineOptions: EngineOptions = {}): Engine {
  const options = normalizeOptions(engineOptions, parts);
  const contract = engineOptions.contract ?? defaultContract;
  const clock = options.clock;
  const choices = parts.choices;
  const docs = createDocs(
    choices === undefined
      ? contract.document
      : choices.renameDocsPathParams(contract.document, options.choices),
    options.swaggerUiAssetsBase,
  );
  const interceptors = options.interceptors;
  const observed = interceptors.some((interceptor) => interceptor.onAnswer !== undefined);
  const selfCheckFailures: SelfCheckFailure[] = [];
  const unexpectedErrors: UnexpectedError[] = [];
  const faults = createFaults(contract.operations);

  // A persistent store builds the first state at the log's origin, so every replica starts alike.
  const origin = engineOptions.origin;
  const loadBaseline = parts.dataFiles?.loadBaseline;
  let state =
    origin === undefined
      ? createEngineState(options, loadBaseline, engineOptions.idEpoch)
      : clock.pinned(origin, () => createEngineState(options, loadBaseline, engineOptions.idEpoch));
  const target = {
    get state() {
      return state;
    },
    clock,
    reset() {
      clock.reset();
      state = createEngineState(options, loadBaseline, engineOptions.idEpoch);
      faults.clear();
    },
  };
  const partAppliers = { ...parts.dataFiles?.appliers, ...parts.agentWrites?.appliers };
  // Reply requests move on the clock when an engine can have any (the agent's, or a data file's).
  const settleReplies = parts.agentWrites?.settleReplies ?? parts.dataFiles?.settleReplies;
  // Real time never goes back inside the log: a command stamped earlier than the one applied before
  // it (another replica's clock) is applied at that one's time.
  let lastReal = origin ?? Number.NEGATIVE_INFINITY;
  const applyEntry: ApplyEntry = (entry) => {
    const real = Math.max(entry.real, lastReal);
    lastReal = real;
    return applyCommand(target, real === entry.real ? entry : { ...entry, real }, partAppliers);
  };
  // The clock's offset, read at the real time it counts from (so any pinned time gives the same).
  const clockOffset = (): number => clock.pinned(clock.realStart, () => clock.now()) - clock.start;
  const image: ImageAccess = {
    take: (): EngineImage => ({ state, clock, lastReal, clockOffset: clockOffset() }),
    put(loaded) {
      state = loaded.state;
      lastReal = loaded.lastReal;
      clock.pinned(clock.realStart, () => clock.set(clock.start + loaded.clockOffset));
    },
  };
  let store: CommandStore = createMemoryStore(applyEntry);
  const stamp = (command: Command): LoggedCommand => ({ real: clock.realTime(), command });
  const unwrap = <C extends Command>(applied: Applied): OutcomeOf<C> => {
    if (!applied.ok) throw applied.error;
    return applied.value as OutcomeOf<C>;
  };
  const execute = async <C extends Command>(command: C): Promise<OutcomeOf<C>> =>
    unwrap<C>(await store.write(stamp(command)));
  const run = <C extends Command>(command: C): OutcomeOf<C> => {
    if (!store.synchronous) {
      throw new Error(
        `engine.admin writes are synchronous, but this engine shares its state through ${store.kind}: use engine.execute(command) or the /__mock/ routes`,
      );
    }
    return unwrap<C>(store.write(stamp(command)) as Applied);
  };
  const host: AdminHost = {
    get state() {
      return state;
    },
    clock,
    reset: () => run({ type: 'reset' }),
    run,
    execute,
    storeHealth: async () => store.health(),
    faults,
  };
  const admin = createAdminApi(host);
  const interceptorHost = {
    get state() {
      return state;
    },
    clock,
    admin,
  };
  for (const interceptor of interceptors) interceptor.attach?.(interceptorHost);
  // Without the admin-routes part, no route exists and every /__mock/ request names the opt-in.
  const dispatchAdmin: AdminDispatcher =
    parts.adminRoutes === undefined
      ? async (request) =>
          errors.adminNotFound(
            request.method,
            request.url.pathname,
            missingPart('The /__mock/ admin routes', 'adminRoutes'),
          )
      : parts.adminRoutes.createDispatcher({
          host,
          api: admin,
          adminToken: options.adminToken,
          maxBodyBytes: options.maxBodyBytes,
          routes: [parts.adminRoutes, parts.dataFiles, parts.choices, parts.agentWrites].flatMap(
            (part) => part?.adminRoutes ?? [],
          ),
        });

  /** Interceptors, then the self-check, then serialisation. */
  const finish = (
    note: AnswerNote,
    request: EngineRequest,
    operation: Operation | null,
    input: HandlerResult,
    headOnly: boolean,
    rawBody = '',
  ): EngineAnswer => {
    note.operationId = operation?.operationId ?? null;
    note.rawBody = rawBody;
    // The permitted variations first: the self-check holds the chosen answer to the contract.
    let result = choices === undefined ? input : choices.shapeResult(options.choices, operation, input);
    for (const interceptor of interceptors) {
      result =
        interceptor.onResult?.({ operationId: operation?.operationId ?? null, request, result, rawBody }) ??
        result;
    }
    if (options.selfCheck) {
      // A pre-serialised page is parsed here only: the self-check must see the value it carries.
      const check = selfCheck(
        operation,
        result.body instanceof SerialisedJson ? { ...result, body: result.body.value() } : result,
      );
      if (!check.ok) {
        selfCheckFailures.push({
          operationId: operation?.operationId ?? null,
          method: request.method,
          url: request.url.href,
          status: result.status,
          issues: check.issues,
        });
        result = errors.selfCheckFailed(operation?.operationId ?? 'the engine', result.status, check.issues);
      }
    }
    const headers = note.fault === null ? result.headers : { ...result.headers, [FAULT_HEADER]: note.fault };
    return jsonResponse(result.status, result.body, headers, headOnly);
  };

  const selfCheck = (operation: Operation | null, result: HandlerResult) => {
    if (operation !== null) {
      const transport = isEngineError(result) && TRANSPORT_ERRORS.has(result.code);
      if (!transport || declaredResponseKey(operation, result.status) !== undefined) {
        return contract.validateResponse(operation.operationId, result.status, result.body);
      }
    }
    if (result.status >= 400) return contract.validateSchema('ErrorBody', result.body, 'response');
    return { ok: true } as const;
  };

  const recordUnexpected = (request: EngineRequest, operation: Operation | null, error: unknown): void => {
    unexpectedErrors.push({
      operationId: operation?.operationId ?? null,
      method: request.method,
      url: request.url.href,
      error,
    });
  };

  /**
   * The targeted fault that matches the request, if one does: counted, its delay waited; its answer
   * returned (a status, a drop) or, for `failCase`, the fault itself for after the handler.
   */
  const applyFault = async (
    note: AnswerNote,
    operationId: string,
    key: string,
    request: EngineRequest,
    body: unknown,
  ): Promise<HandlerResult | typeof DROP | FaultView | undefined> => {
    const fault = faults.match({ operationId, key, pathname: request.url.pathname, body });
    if (fault === undefined) return undefined;
    // A failing case counts when its 202 is answered (a refused submission leaves the fault set).
    if (!fault.failCase) {
      faults.fire(fault.id);
      note.fault = fault.id;
    }
    if (fault.delayMs !== null) await sleep(fault.delayMs);
    if (fault.drop) return DROP;
    if (fault.status !== null) return errors.faultInjected(operationId, fault.status, fault.id);
    return fault.failCase ? fault : undefined;
  };

  const pipeline = async (request: EngineRequest, note: AnswerNote): Promise<EngineResponse> => {
    const url = request.url;
    const method = request.method;
    const headOnly = method === 'HEAD';

    if (method === 'OPTIONS' && request.headers.get('access-control-request-method') !== null)
      return preflightResponse();
    if (url.pathname.startsWith('/__mock/'))
      return finish(note, request, null, await dispatchAdmin(request), headOnly);

    // Route by the contract.
    const match = contract.matchOperation(method, url.pathname);
    if (match.kind === 'not-found')
      return finish(note, request, null, errors.routeNotFound(method, url.pathname), headOnly);
    if (match.kind === 'method-not-allowed') {
      return finish(
        note,
        request,
        null,
        errors.methodNotAllowed(method, url.pathname, match.allowed),
        headOnly,
      );
    }
    const operation = match.operation;
    const operationId = operation.operationId;
    if (match.kind === 'bad-path-encoding') {
      return finish(note, request, operation, errors.badPathEncoding(operationId, match.segment), headOnly);
    }

    // The documentation routes need no key.
    if (operationId === DOCS_OPERATIONS.json) {
      return textResponse(200, docs.json(url.origin), JSON_CONTENT_TYPE, headOnly);
    }
    if (operationId === DOCS_OPERATIONS.html)
      return textResponse(200, docs.html(), HTML_CONTENT_TYPE, headOnly);

    // Auth: key, then scope, then the moderation-mode prerequisite (all from the contract's extensions).
    const auth = authenticate(state.keys, request.headers.get('x-api-key'), clock.now());
    if (!auth.ok) {
      const error =
        auth.reason === 'missing'
          ? errors.keyMissing()
          : auth.reason === 'expired'
            ? errors.keyExpired()
            : auth.reason === 'revoked'
              ? errors.keyRevoked()
              : errors.keyUnknown();
      return finish(note, request, operation, error, headOnly);
    }
    const key = auth.key;
    const organization = state.organizations.get(key.organizationId);
    if (organization === undefined) return finish(note, request, operation, errors.keyUnknown(), headOnly);
    if (operation.requiredScope !== null && !hasScope(key, operation.requiredScope)) {
      return finish(
        note,
        request,
        operation,
        errors.scopeMissing(operationId, operation.requiredScope, key.profile),
        headOnly,
      );
    }
    if (
      operation.requiresModerationMode !== null &&
      organization.moderationMode !== operation.requiresModerationMode
    ) {
      const error = errors.moderationModeRequired(operationId, organization.id, organization.moderationMode);
      return finish(note, request, operation, error, headOnly);
    }

    // Body: size, content type, JSON.
    let rawBody = '';
    let body: unknown;
    if (operation.requestBodySchema !== undefined) {
      const read = await readJsonBody(request, operationId, options.maxBodyBytes);
      if (!read.ok) return finish(note, request, operation, read.error, headOnly, read.text);
      if (!read.present && operation.requestBodyRequired) {
        return finish(note, request, operation, errors.bodyRequired(operationId), headOnly);
      }
      rawBody = read.text;
      body = read.value;
    }

    // Contract validation.
    const policy = validationPolicyOf(operationId);
    const validation = contract.validateRequest(
      operationId,
      {
        pathParams: match.pathParams,
        query: url.searchParams,
        body,
        contentType: request.headers.get('content-type'),
      },
      { body: policy.body },
    );
    if (!validation.ok) {
      for (const interceptor of interceptors) {
        interceptor.onRequestIssues?.({ operationId, request, issues: validation.issues, rawBody });
      }
      const paramIssues = validation.issues.filter((i) => i.location !== 'body');
      const error =
        paramIssues.length > 0
          ? errors.invalidParameters(operationId, paramIssues)
          : policy.invalidBody(operationId, validation.issues, body);
      const answer = finish(note, request, operation, error, headOnly);
      // The observers of the answer see the body that failed (the result event carries none).
      note.rawBody = rawBody;
      return answer;
    }

    // The handler. Ingested records that came due on the clock become actions first, so a read
    // after `/__mock/clock/advance` sees them even with a frozen clock (cheap: a length check).
    const handler = handlers[operationId as keyof typeof handlers];
    const shaped =
      choices === undefined
        ? ({ ok: true, query: validation.query } as const)
        : choices.shapeRequest(options.choices, operationId, validation.query);
    if (!shaped.ok) return finish(note, request, operation, shaped.error, headOnly, rawBody);
    let failing: FaultView | undefined;
    if (faults.armed) {
      const faulted = await applyFault(
        note,
        operationId,
        request.headers.get('x-api-key') ?? '',
        request,
        validation.body,
      );
      if (faulted !== undefined) {
        if ('kind' in faulted) {
          note.operationId = operationId;
          return faulted;
        }
        if ('failCase' in faulted) failing = faulted;
        else return finish(note, request, operation, faulted, headOnly, rawBody);
      }
    }
    let result: HandlerResult;
    try {
      settleIngestion(state.ingestion, state.data);
      // Approved agent replies delivered by now become AGENT messages first (cheap when none is in flight).
      settleReplies?.(state.replies, state.data, clock.now());
      result = await handler({
        operationId,
        organization,
        key,
        pathParams: validation.pathParams,
        query: shaped.query,
        body: validation.body,
        rawBody,
        state,
        clock,
        execute,
      });
    } catch (error) {
      if (isStoreUnavailable(error)) result = errors.storeUnavailable(error.message);
      else if (isOutcomeUnknown(error))
        result = errors.outcomeUnknown(error.message, error.inLog, error.read);
      else {
        recordUnexpected(request, operation, error);
        result = errors.internal();
      }
    }
    if (failing !== undefined) {
      const cases = acceptedCases(result);
      for (const caseId of cases) failCase(state.moderation, caseId, failing.failureCode ?? '');
      if (cases.length > 0) {
        faults.fire(failing.id);
        note.fault = failing.id;
      }
    }
    return finish(note, request, operation, result, headOnly, rawBody);
  };

  /** Tells the observers what is about to be sent (the journal); an observer's throw is recorded, not sent. */
  const answered = (
    request: EngineRequest,
    handled: EngineRequest,
    response: EngineResponse,
    note: AnswerNote,
  ): EngineResponse => {
    for (const interceptor of interceptors) {
      if (interceptor.onAnswer === undefined) continue;
      try {
        interceptor.onAnswer({
          request,
          handled,
          response,
          operationId: note.operationId,
          rawBody: note.rawBody,
          receivedAt: note.receivedAt,
          fault: note.fault,
        });
      } catch (error) {
        recordUnexpected(handled, null, error);
      }
    }
    return response;
  };

  const dispatch = async (request: EngineRequest): Promise<EngineResponse> => {
    // What the answer's observers need to know of the pipeline, handed to them with the answer (no
    // per-request maps keyed by request objects).
    const note: AnswerNote = {
      operationId: null,
      rawBody: '',
      receivedAt: observed ? performance.now() : 0,
      fault: null,
    };
    try {
      for (const interceptor of interceptors) {
        const pending = interceptor.onRequest?.(request);
        const early = pending instanceof Promise ? await pending : pending;
        if (early !== undefined) {
          request.body?.discard();
          return answered(request, request, early, note);
        }
      }
      let current = request;
      for (const interceptor of interceptors) current = interceptor.rewriteRequest?.(current) ?? current;
      // A shared store: what any replica answered before this request started is applied first.
      const behind = store.catchUp();
      if (behind !== undefined) {
        // A replica that lost its log's thread (diverged) answers nothing from shared state; its
        // health still answers, to say why.
        const refused = await behind.then(
          () => undefined,
          (error: unknown) => error ?? new Error('catch-up failed'),
        );
        if (refused !== undefined && current.url.pathname !== '/__mock/health') {
          if (!isStoreUnavailable(refused)) throw refused;
          current.body?.discard();
          const body = { success: false, error: `Service unavailable: ${refused.message}` };
          return answered(
            request,
            current,
            jsonResponse(503, body, { 'x-mock-error-code': refused.code }, current.method === 'HEAD'),
            note,
          );
        }
      }
      const answer = await pipeline(current, note);
      // Whatever the pipeline did not read (an early 401, a GET with a body) is not wanted.
      current.body?.discard();
      return answered(request, current, answer, note);
    } catch (error) {
      recordUnexpected(request, null, error);
      return jsonResponse(500, errors.internal().body, undefined, false);
    }
  };

  return {
    dispatch,
    async handle(request, context = {}) {
      return toFetchResponse(
        await dispatch(fromFetchRequest(request, context.remoteAddress, context.inProcess === true)),
      );
    },
    admin,
    get state() {
      return state;
    },
    clock,
    options,
    selfCheckFailures,
    unexpectedErrors,
    execute,
    run,
    catchUp: () => store.catchUp(),
    async useStore(open) {
      store = await open(applyEntry, image);
      return store;
    },
    storeHealth: async () => store.health(),
  };
}
