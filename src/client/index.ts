export {
  type ActionLister,
  type ActionSummary,
  ActionWindowError,
  type ActionWindowErrorCode,
  type ActionWindowOptions,
  actionWindow,
  collectActionWindow,
} from './action-window.ts';
export type { ClientOptions } from './client.ts';
export { buildPathAndQuery, ConformanceClient } from './client.ts';
export { type ClientUsageCode, ClientUsageError, isClientUsageError } from './errors.ts';
export { BudgetExhaustedError, isBudgetExhausted, RateLimiter, RequestBudget } from './limits.ts';
export {
  type FetchLike,
  fetchTransport,
  type Transport,
  type TransportRequest,
  type TransportResponse,
} from './transport.ts';
export type { BodyOf, CallInput, PathOf, QueryOf, SuccessOf } from './typed.ts';
export { ApiClient } from './typed.ts';
export type {
  Auth,
  ClientResult,
  ErrorResult,
  Exchange,
  HttpResult,
  KeyRole,
  Keys,
  NetworkError,
  NetworkResult,
  OkResult,
  QueryValue,
  RequestSpec,
} from './types.ts';
export { bodyOf, KEY_ENV, KEY_ROLES } from './types.ts';
