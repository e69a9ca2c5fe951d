/**
 * `cca-kit/mock` engine entry: a transport-agnostic mock of the service. Adapters (node:http, MSW)
 * translate their transport into `engine.handle(request, { remoteAddress })`.
 *
 * @example
 * import { createEngine, MockClock } from 'cca-kit/mock';
 * const engine = createEngine({ seed: 42, selfCheck: true, clock: new MockClock({ start: Date.now() }) });
 * const [key] = engine.admin.listKeys();
 * const res = await engine.handle(new Request('http://mock.local/v0/agents', { headers: { 'x-api-key': key.key } }));
 */
export type {
  AdminApi,
  AdminContext,
  AdminResult,
  AdminRoute,
  ClockView,
  CreatedKeyView,
  FaultsAdmin,
  KeyView,
} from './admin/index.ts';
export { ADMIN_PREFIX, ADMIN_TOKEN_HEADER, AdminError, isAdminError, isLoopback } from './admin/index.ts';
export { type CreateKeyInput, type KeyExpiry, PROFILE_SCOPES } from './auth/index.ts';
export {
  CHOICE_POINTS,
  type ChoiceName,
  type Choices,
  type ChoicesOption,
  DEFAULT_CHOICES,
  normalizeChoices,
  parseChoiceAssignments,
} from './choices/index.ts';
export { MockClock, type MockClockOptions, realTimeClock } from './clock.ts';
export { createEngine, type Engine, type SelfCheckFailure, type UnexpectedError } from './engine.ts';
export {
  type EngineError,
  type EngineErrorCode,
  ERROR_CODE_HEADER,
  errors,
  FAULT_HEADER,
  INTERNAL_SERVER_ERROR,
} from './errors.ts';
export type {
  AnswerBody,
  EngineAnswer,
  EngineDrop,
  EngineRequest,
  EngineResponse,
  RequestBody,
  RequestHeaders,
} from './exchange.ts';
export { bytesBody, headersFromRecord } from './exchange.ts';
export { type FaultInput, FaultInputError, type FaultView } from './faults/index.ts';
export type { EngineInterceptor, RequestContext, RequestIssuesEvent, ResultEvent } from './interceptors.ts';
export { ENGINE_DEFAULTS, type EngineOptions, type NormalizedEngineOptions } from './options.ts';
export type { EngineState } from './state.ts';
export type * from './types.ts';
