/**
 * `cca-kit/mock`: the stateful mock for Node. The engine (`createEngine`: `handle` from a Fetch `Request`
 * to a `Response`, `dispatch` on plain data) and its HTTP adapter (`startMockServer`). For MSW use
 * `cca-kit/msw`.
 *
 * @example
 * import { startMockServer } from 'cca-kit/mock';
 *
 * const server = await startMockServer({ port: 0, seed: 42, selfCheck: true });
 * const response = await fetch(`${server.url}/v0/agents`, { headers: { 'X-API-Key': key } });
 * await server.close();
 */
export {
  type KeyFixture,
  SEEDED_KEYS,
  type SeededKeyQuery,
  seededKey,
  seededKeys,
} from '../fixtures/seeded-keys.ts';
export {
  type Chaos,
  type ChaosConfig,
  type ChaosOptions,
  createChaos,
} from './engine/chaos/index.ts';
export * from './engine/data-file/index.ts';
export * from './engine/index.ts';
export {
  createJournal,
  type Journal,
  type JournalEntry,
  type JournalFilter,
  type JournalOptions,
  type JournalSummary,
  journalOf,
} from './engine/journal/index.ts';
export {
  createViolationLog,
  type ExpectNoViolationsOptions,
  expectNoViolations,
  isViolationError,
  type Violation,
  ViolationError,
  type ViolationFilter,
  type ViolationIssue,
  type ViolationKind,
  type ViolationLog,
  type ViolationLogOptions,
  type ViolationSeverity,
  type ViolationSource,
} from './engine/violations/index.ts';
export { writeDashboardFiles } from './http/dashboard/files.ts';
export {
  DEFAULT_SERVER_LIMITS,
  type MockServer,
  type MockServerOptions,
  type ServerLimits,
  startMockServer,
} from './http/server.ts';
