/**
 * Admin operations of the violation log, typed (`createViolationsAdmin(log)`) and as `/__mock/` routes:
 *
 * | route | operation |
 * |---|---|
 * | `GET /__mock/violations[?kind=&severity=&operationId=&since=]` | the recorded violations, oldest first, and the log's counters |
 * | `DELETE /__mock/violations` | empty the log |
 *
 * The routes answer 404 when the engine runs without a violation log (`createViolationLog()`).
 */
import type {
  Violation,
  ViolationFilter,
  ViolationKind,
  ViolationLog,
  ViolationLogStats,
  ViolationSeverity,
} from '../violations/index.ts';
import { violationLogOf } from '../violations/registry.ts';
import { type AdminApi, AdminError } from './api.ts';
import { type AdminRoute, ok } from './route.ts';

export interface ViolationsAdmin {
  violations(filter?: ViolationFilter): readonly Violation[];
  /** Empties the log; returns how many entries it held. */
  clearViolations(): number;
  violationStats(): ViolationLogStats;
}

/**
 * @example
 * const admin = createViolationsAdmin(log);
 * expect(admin.violations()).toEqual([]);
 */
export function createViolationsAdmin(log: ViolationLog): ViolationsAdmin {
  return {
    violations: (filter) => log.list(filter),
    clearViolations: () => log.clear(),
    violationStats: () => log.stats(),
  };
}

const KINDS: readonly ViolationKind[] = [
  'invalid-request',
  'malformed-request',
  'precision-loss',
  'undeclared-parameter',
  'hint',
];
const SEVERITIES: readonly ViolationSeverity[] = ['error', 'warning', 'info'];

function installed(api: AdminApi): ViolationLog {
  const log = violationLogOf(api);
  if (log === undefined) {
    throw new AdminError(
      'NOT_FOUND',
      "This engine has no violation log: pass interceptors: [createViolationLog()] (import { createViolationLog } from 'cca-kit/mock'); cca-kit mock and createHandlers install one",
    );
  }
  return log;
}

function filterOf(query: URLSearchParams): ViolationFilter {
  const kind = query.get('kind');
  const operationId = query.get('operationId');
  const since = query.get('since');
  const severity = query.get('severity');
  if (severity !== null && !(SEVERITIES as readonly string[]).includes(severity)) {
    throw new AdminError(
      'BAD_REQUEST',
      `severity must be one of ${SEVERITIES.join(', ')} (got ${JSON.stringify(severity)})`,
    );
  }
  if (kind !== null && !(KINDS as readonly string[]).includes(kind)) {
    throw new AdminError(
      'BAD_REQUEST',
      `kind must be one of ${KINDS.join(', ')} (got ${JSON.stringify(kind)})`,
    );
  }
  if (since !== null && !/^\d{1,15}$/.test(since)) {
    throw new AdminError(
      'BAD_REQUEST',
      `since must be a non-negative integer (got ${JSON.stringify(since)})`,
    );
  }
  return {
    ...(kind === null ? {} : { kind: kind as ViolationKind }),
    ...(severity === null ? {} : { severity: severity as ViolationSeverity }),
    ...(operationId === null ? {} : { operationId }),
    ...(since === null ? {} : { since: Number.parseInt(since, 10) }),
  };
}

export const violationsAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/violations',
    summary: 'Contract violations of incoming requests, oldest first (?kind=, ?operationId=, ?since=<seq>)',
    handle: ({ api, query }) => {
      const log = installed(api);
      return ok({ violations: log.list(filterOf(query)), ...log.stats() });
    },
  },
  {
    method: 'DELETE',
    path: '/__mock/violations',
    summary: 'Empty the violation log',
    handle: ({ api }) => ok({ cleared: installed(api).clear() }),
  },
];
