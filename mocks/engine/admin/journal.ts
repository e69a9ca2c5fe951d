/**
 * Admin routes of the request journal (`createJournal()`; `startMockServer` installs one):
 *
 * | route | operation |
 * |---|---|
 * | `GET /__mock/journal[?since=&status=&rule=&operation=&organizationId=&interface=&violations=1]` | summaries, oldest first, and the counters |
 * | `GET /__mock/journal/{seq}` | one exchange with headers and bodies (keys masked) |
 * | `DELETE /__mock/journal` | empty the journal |
 *
 * The HAR export (`GET /__mock/journal.har`) is served by the node adapter, which has the recorder's
 * scrubber. The routes answer 404 when the engine runs without a journal.
 */
import type { Journal, JournalFilter, JournalInterface } from '../journal/index.ts';
import { journalAttachments } from '../journal/registry.ts';
import { type AdminApi, AdminError } from './api.ts';
import { type AdminRoute, ok } from './route.ts';

function installed(api: AdminApi): Journal {
  const journal = journalAttachments.of(api);
  if (journal === undefined) {
    throw new AdminError(
      'NOT_FOUND',
      'This engine has no request journal: create it with interceptors: [createViolationLog(), createJournal()] (startMockServer and cca-kit mock install one)',
    );
  }
  return journal;
}

const INTERFACES: readonly JournalInterface[] = ['rest', 'mcp'];
const SEQ = /^\d{1,15}$/;

/** The journal filter of a query string; a 400 names a malformed parameter. */
export function journalFilterOf(query: URLSearchParams): JournalFilter {
  const since = query.get('since');
  const status = query.get('status');
  const kind = query.get('interface');
  if (since !== null && !SEQ.test(since))
    throw new AdminError(
      'BAD_REQUEST',
      `since must be a non-negative integer (got ${JSON.stringify(since)})`,
    );
  if (status !== null && !/^(?:[1-5]\d\d|[1-5]xx|0)$/i.test(status))
    throw new AdminError(
      'BAD_REQUEST',
      `status must be a status like 400 or a class like 4xx (got ${JSON.stringify(status)})`,
    );
  if (kind !== null && !(INTERFACES as readonly string[]).includes(kind))
    throw new AdminError(
      'BAD_REQUEST',
      `interface must be one of ${INTERFACES.join(', ')} (got ${JSON.stringify(kind)})`,
    );
  const text = (name: string): string | undefined => {
    const value = query.get(name);
    return value === null || value === '' ? undefined : value;
  };
  const rule = text('rule');
  const operation = text('operation');
  const organizationId = text('organizationId');
  return {
    ...(since === null ? {} : { since: Number.parseInt(since, 10) }),
    ...(status === null ? {} : { status }),
    ...(kind === null ? {} : { interface: kind as JournalInterface }),
    ...(rule === undefined ? {} : { rule }),
    ...(operation === undefined ? {} : { operation }),
    ...(organizationId === undefined ? {} : { organizationId }),
    ...(query.get('violations') === '1' ? { violationsOnly: true } : {}),
  };
}

/** The journal installed in the engine, for the node adapter's HAR route (404 admin error without one). */
export const installedJournal = installed;

export const journalAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/journal',
    summary:
      'The request journal (REST and /mcp), oldest first: ?since=<seq>&status=4xx&rule=&operation=&organizationId=&interface=rest|mcp&violations=1',
    handle: ({ api, query }) => {
      const journal = installed(api);
      return ok({ entries: journal.list(journalFilterOf(query)), ...journal.stats() });
    },
  },
  {
    method: 'GET',
    path: '/__mock/journal/{seq}',
    summary: 'One journaled exchange with its headers and bodies (keys masked)',
    handle: ({ api, params }) => {
      const seq = params['seq'] ?? '';
      if (!SEQ.test(seq))
        throw new AdminError('BAD_REQUEST', `seq must be a positive integer (got ${JSON.stringify(seq)})`);
      const entry = installed(api).get(Number.parseInt(seq, 10));
      if (entry === undefined)
        throw new AdminError(
          'NOT_FOUND',
          `No journal entry ${seq} (never recorded, or pushed out by newer ones)`,
        );
      return ok({ entry });
    },
  },
  {
    method: 'DELETE',
    path: '/__mock/journal',
    summary: 'Empty the request journal',
    handle: ({ api }) => ok({ cleared: installed(api).clear() }),
  },
];
