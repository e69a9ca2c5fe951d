/** Errors of the client's own API: thrown (as rejections) only on misuse, each with a stable code. */

export type ClientUsageCode = 'NO_KEY' | 'UNKNOWN_OPERATION' | 'MISSING_PATH_PARAMETER';

/**
 * The client was called in a way it cannot send: no key for the role, an operationId the contract
 * does not have, a path parameter missing. Answers of the service are never errors (they are results).
 *
 * @example
 * ```ts
 * import { ApiClient, ConformanceClient, isClientUsageError } from 'cca-kit/client';
 *
 * const api = new ApiClient(new ConformanceClient({ baseUrl: 'http://127.0.0.1:4010', keys: {} }));
 * const res = await api.call('listActions', { auth: 'read' }).catch((error: unknown) => {
 *   if (isClientUsageError(error) && error.code === 'NO_KEY') return undefined;
 *   throw error;
 * });
 * ```
 */
export class ClientUsageError extends Error {
  constructor(
    readonly code: ClientUsageCode,
    message: string,
  ) {
    super(message);
    this.name = 'ClientUsageError';
  }
}

export function isClientUsageError(error: unknown): error is ClientUsageError {
  return error instanceof ClientUsageError;
}
