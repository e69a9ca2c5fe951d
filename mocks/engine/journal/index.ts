/**
 * The request journal: what each client sent through the REST API and /mcp, what the mock answered,
 * and the contract violations of each request. Bounded in memory; read it as JSON at
 * `GET /__mock/journal`, as HAR at `GET /__mock/journal.har` (node server), or in the dashboard at
 * `/__mock/`. See docs/dashboard.md.
 *
 * @example
 * const journal = createJournal();
 * const engine = createEngine({ interceptors: [createViolationLog(), journal] });
 */
export {
  createJournal,
  DEFAULT_JOURNAL_CAPACITY,
  DEFAULT_JOURNAL_MAX_BODY_BYTES,
  type Journal,
  type JournalOptions,
  journalOf,
  MASKED,
} from './journal.ts';
export type * from './types.ts';
export { violationsOf } from './violations.ts';
