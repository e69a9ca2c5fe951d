/**
 * Every action of a time window, as spec 4.1 says to read them: the action list has no numbered page
 * input, so the window's `to` bound moves to the oldest timestamp of each full page (newest first,
 * `to` inclusive) and what a page repeats is dropped by `actionId`. It stops at the first page shorter
 * than the page size: the window holds nothing older.
 *
 * A timestamp shared by more actions than a page holds would hand back the same page forever: the page
 * size doubles until the tie fits (up to the spec's maximum, 500), then it goes back to the size asked
 * for. More than 500 actions on one timestamp cannot be read this way at all: an `ActionWindowError`.
 */
import type { operations } from '../contract/types.generated.ts';
import type { Auth, ClientResult } from './types.ts';

type ListQuery = NonNullable<operations['listActions']['parameters']['query']>;
type ListPage = operations['listActions']['responses'][200]['content']['application/json'];

/** One record of the action list (spec 2.1). */
export type ActionSummary = ListPage['data'][number];

/** What the window reads with: `ApiClient` (its `call`, for `listActions`). */
export interface ActionLister {
  call(
    operationId: 'listActions',
    input: { readonly auth: Auth; readonly query?: ListQuery },
  ): Promise<ClientResult<ListPage>>;
}

/** The spec's largest page (section 8). */
const MAX_PAGE_SIZE = 500;

export interface ActionWindowOptions {
  /** Window start (ISO 8601 date or timestamp; a date is midnight UTC), inclusive. */
  readonly from: string;
  /** Window end, inclusive (a date is midnight UTC at its start, not its end). */
  readonly to: string;
  /** Records per request, 1..500; default 50 (the service's). */
  readonly pageSize?: number;
  /** The timestamp the window and the order use; default `createdAt`. */
  readonly sortBy?: 'createdAt' | 'updatedAt';
  /** The key to send; default `read`. */
  readonly auth?: Auth;
  /** The list's other parameters (`fullFilter`, `filter`, `includeFullConversation`), sent with every request. */
  readonly query?: Omit<ListQuery, 'from' | 'to' | 'pageSize' | 'sortBy'>;
}

export type ActionWindowErrorCode = 'REQUEST_FAILED' | 'TIE_OVER_MAX_PAGE' | 'NO_TIMESTAMP';

/** Why a window could not be read to its end; `result` is the answer that stopped it, when one did. */
export class ActionWindowError extends Error {
  constructor(
    readonly code: ActionWindowErrorCode,
    message: string,
    readonly result?: ClientResult<unknown>,
  ) {
    super(message);
    this.name = 'ActionWindowError';
  }
}

/** A request's failure in words: the status and the error body, or the network code. */
function failureOf(result: ClientResult<unknown>): string {
  if (result.kind === 'network') return `${result.error.code}: ${result.error.message}`;
  return `${result.status} ${result.raw.slice(0, 300)}`;
}

function checkedPageSize(pageSize: number): number {
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > MAX_PAGE_SIZE)
    throw new RangeError(`pageSize must be an integer in 1..${MAX_PAGE_SIZE} (got ${pageSize})`);
  return pageSize;
}

/**
 * The actions of the window `from`..`to`, newest first, each once. Pages are fetched as the loop asks.
 *
 * @example
 * ```ts
 * import { ApiClient, ConformanceClient, actionWindow } from 'cca-kit/client';
 *
 * const api = new ApiClient(new ConformanceClient({ baseUrl: 'http://127.0.0.1:4010', keys: { read: process.env.CCA_READ_KEY } }));
 * for await (const action of actionWindow(api, { from: '2026-11-01', to: '2026-11-15', pageSize: 100 })) {
 *   console.log(action.actionId, action.createdAt);
 * }
 * ```
 */
export async function* actionWindow(
  api: ActionLister,
  options: ActionWindowOptions,
): AsyncGenerator<ActionSummary, void, undefined> {
  const pageSize = checkedPageSize(options.pageSize ?? 50);
  const field = options.sortBy ?? 'createdAt';
  const seen = new Set<string>();
  let to = options.to;
  let size = pageSize;
  for (;;) {
    const query = {
      ...options.query,
      from: options.from,
      to,
      pageSize: size,
      ...(options.sortBy === undefined ? {} : { sortBy: options.sortBy }),
    };
    const result = await api.call('listActions', { auth: options.auth ?? 'read', query });
    if (!result.ok || result.body === undefined) {
      throw new ActionWindowError(
        'REQUEST_FAILED',
        `listing actions ${options.from}..${to} (pageSize ${size}) failed: ${failureOf(result)}`,
        result,
      );
    }
    const data = result.body.data;
    for (const action of data) {
      if (seen.has(action.actionId)) continue;
      seen.add(action.actionId);
      yield action;
    }
    if (data.length < size) return;
    const oldest = data[data.length - 1]?.[field];
    if (typeof oldest !== 'string') {
      throw new ActionWindowError(
        'NO_TIMESTAMP',
        `the oldest action of a full page (${data[data.length - 1]?.actionId}) has no ${field}: the window cannot move past it`,
        result,
      );
    }
    if (Date.parse(oldest) < Date.parse(to)) {
      to = oldest;
      size = pageSize;
      continue;
    }
    // The whole page shares the window's last instant: a larger page, or no way on.
    if (size === MAX_PAGE_SIZE) {
      throw new ActionWindowError(
        'TIE_OVER_MAX_PAGE',
        `more than ${MAX_PAGE_SIZE} actions have ${field} ${oldest}: moving the window (spec 4.1) cannot page past them`,
        result,
      );
    }
    size = Math.min(MAX_PAGE_SIZE, size * 2);
  }
}

/** Every action of the window, each once, newest first (`actionWindow` collected). */
export async function collectActionWindow(
  api: ActionLister,
  options: ActionWindowOptions,
): Promise<ActionSummary[]> {
  const out: ActionSummary[] = [];
  for await (const action of actionWindow(api, options)) out.push(action);
  return out;
}
