export type { ClientOptions } from './client.ts';
export { buildPathAndQuery, ConformanceClient } from './client.ts';
export { BudgetExhaustedError, isBudgetExhausted, RateLimiter, RequestBudget } from './limits.ts';
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
