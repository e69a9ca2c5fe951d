import { operations as contractOperations } from '../contract/index.ts';
import type { operations } from '../contract/types.generated.ts';
import type { OperationId } from '../contract/types.ts';
import {
  type ActionSummary,
  type ActionWindowOptions,
  actionWindow,
  collectActionWindow,
} from './action-window.ts';
import type { ConformanceClient } from './client.ts';
import { ClientUsageError } from './errors.ts';
import type { Auth, ClientResult, QueryValue } from './types.ts';

type Params<Op extends OperationId> = operations[Op]['parameters'];

/** The query parameters of an operation, as the contract types them. */
export type QueryOf<Op extends OperationId> = Params<Op> extends { query?: infer Q } ? NonNullable<Q> : never;
/** The path parameters of an operation (ids are strings). */
export type PathOf<Op extends OperationId> = Params<Op> extends { path: infer P } ? P : never;
/** The JSON request body of an operation. */
export type BodyOf<Op extends OperationId> = operations[Op] extends {
  requestBody: { content: { 'application/json': infer B } };
}
  ? B
  : never;

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : unknown;
/** The JSON body of an operation's 2xx answer (200 or 202). */
export type SuccessOf<Op extends OperationId> = operations[Op]['responses'] extends infer R
  ? 200 extends keyof R
    ? JsonOf<R[200]>
    : 202 extends keyof R
      ? JsonOf<R[202]>
      : unknown
  : unknown;

/** What a call takes: the key to send, and the operation's path, query and body where it has them. */
export type CallInput<Op extends OperationId> = { readonly auth: Auth } & ([PathOf<Op>] extends [never]
  ? { readonly path?: undefined }
  : { readonly path: PathOf<Op> }) &
  ([QueryOf<Op>] extends [never] ? { readonly query?: undefined } : { readonly query?: QueryOf<Op> }) &
  ([BodyOf<Op>] extends [never] ? { readonly body?: undefined } : { readonly body: BodyOf<Op> });

/**
 * A client typed from the contract (`src/contract/types.generated.ts`): operations by operationId,
 * typed path, query and body, and a typed 2xx body. Every answer is still data (`ClientResult`),
 * errors and network failures included, with the raw text kept next to the parsed body.
 *
 * @example
 * ```ts
 * import { ApiClient, ConformanceClient } from 'cca-kit/client';
 *
 * const baseUrl = 'http://127.0.0.1:4010';
 * const api = new ApiClient(new ConformanceClient({ baseUrl, keys: { read: process.env.CCA_READ_KEY } }));
 * const res = await api.call('listActions', { auth: 'read', query: { pageSize: 10, sortBy: 'updatedAt' } });
 * if (res.ok) for (const action of res.body.data) console.log(action.actionId); // actionId: string
 * ```
 */
export class ApiClient {
  constructor(readonly client: ConformanceClient) {}

  /**
   * The action list read as spec 4.1 says: `all` walks a window page by page (moving `to`,
   * deduplicating on actionId) and yields each action once; `collect` gathers them (src/client/action-window.ts).
   *
   * @example
   * ```ts
   * import { ApiClient, ConformanceClient } from 'cca-kit/client';
   *
   * const api = new ApiClient(new ConformanceClient({ baseUrl: 'http://127.0.0.1:4010', keys: { read: process.env.CCA_READ_KEY } }));
   * const actions = await api.actions.collect({ from: '2026-11-01', to: '2026-11-15T23:59:59.999Z', pageSize: 200 });
   * for await (const action of api.actions.all({ from: '2026-11-01', to: '2026-11-15' })) console.log(action.actionId);
   * ```
   */
  readonly actions: {
    all(options: ActionWindowOptions): AsyncGenerator<ActionSummary, void, undefined>;
    collect(options: ActionWindowOptions): Promise<ActionSummary[]>;
  } = {
    all: (options) => actionWindow(this, options),
    collect: (options) => collectActionWindow(this, options),
  };

  /**
   * Sends one operation. Async all the way: an unknown operationId or a missing path parameter is a
   * rejected promise (`ClientUsageError`), never a synchronous throw.
   */
  async call<Op extends OperationId>(
    operationId: Op,
    input: CallInput<Op>,
  ): Promise<ClientResult<SuccessOf<Op>>> {
    const op = contractOperations.get(operationId);
    if (op === undefined) {
      throw new ClientUsageError('UNKNOWN_OPERATION', `unknown operationId ${JSON.stringify(operationId)}`);
    }
    const path = input.path as Readonly<Record<string, string>> | undefined;
    const missing = [...op.pathTemplate.matchAll(/\{([^}]+)\}/g)]
      .map((m) => m[1] ?? '')
      .filter((name) => typeof path?.[name] !== 'string');
    if (missing.length > 0) {
      throw new ClientUsageError(
        'MISSING_PATH_PARAMETER',
        `${operationId}: missing path parameter ${missing.join(', ')} (a string)`,
      );
    }
    const url = op.pathTemplate.replace(/\{([^}]+)\}/g, (_m, name: string) =>
      encodeURIComponent(path?.[name] ?? ''),
    );
    return this.client.request<SuccessOf<Op>>({
      method: op.method,
      path: url,
      auth: input.auth,
      operationId,
      ...(input.query === undefined ? {} : { query: input.query as Record<string, QueryValue> }),
      ...(input.body === undefined ? {} : { json: input.body }),
    });
  }
}
