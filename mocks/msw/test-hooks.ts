/**
 * The mock in a test runner, whatever the runner: MSW's `setupServer` started before the tests and
 * closed after, the violations a test's requests caused collected per test and thrown from that test's
 * `afterEach` (a runner fails the test whose `afterEach` throws: the test is red with the violation as
 * its error, not the run with an error nobody owns), and the engine reset before each test when asked.
 * `cca-kit/vitest` hands it vitest's hooks; nothing in it is vitest's, so another runner's would do
 * (jest's globals have the same names), though only vitest is tested.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { fileURLToPath } from 'node:url';
import type { setupServer } from 'msw/node';
import { atLeast, ViolationError } from '../engine/violations/expect.ts';
import type { Violation, ViolationSeverity } from '../engine/violations/types.ts';
import type { CreateHandlersOptions, MockHandlers } from './create.ts';

/** The hooks of a runner, as vitest and jest both name them. */
export interface RunnerHooks {
  readonly afterAll: (fn: () => unknown) => void;
  readonly beforeEach: (fn: () => unknown) => void;
  readonly afterEach: (fn: () => unknown) => void;
}

export interface MockPresetOptions extends Omit<CreateHandlersOptions, 'baseUrl'> {
  /** Where the code under test sends its calls; default `https://api.example.test`. */
  readonly baseUrl?: string;
  /**
   * Fail a test whose requests caused a violation of this severity or graver: `warning` (default:
   * contract errors and undeclared parameters such as `page=2`), `error`, `info` (hints too), or
   * `never` (only record them; read `mock.violationLog`).
   */
  readonly failOn?: ViolationSeverity | 'never';
  /**
   * Reset the mock before each test (`admin.reset()`: state, clock and keys back to the start), so that
   * no test sees another's writes. Default false: one state for the whole file.
   */
  readonly resetEachTest?: boolean;
  /** MSW's choice for a request no handler answers; default `error` (a test must not reach the network). */
  readonly onUnhandledRequest?: 'bypass' | 'warn' | 'error';
}

/** What msw/node's `setupServer` returns (its type has another name in msw 2 and 3). */
export type MockServer = ReturnType<typeof setupServer>;

export interface MockPreset extends MockHandlers {
  /** MSW's server, listening from the start: `server.use()` adds a handler for the running test. */
  readonly server: MockServer;
  /** The violations the running test caused so far (what its `afterEach` will throw). */
  readonly currentViolations: () => readonly Violation[];
}

/**
 * The frames of the code that called `fetch`, without the runner's, the package's and node's: where the
 * test sent the request. Taken when `fetch` is called (the handler runs after MSW's own awaits, where the
 * test's frames are gone from the stack) and carried to the handler in an `AsyncLocalStorage`.
 */
const sites = new AsyncLocalStorage<string>();

/** This folder (mocks/msw/ or the package's dist/mocks/msw/): its frames are the wrapper's, not the test's. */
const OWN_FOLDER = fileURLToPath(new URL('.', import.meta.url));

function callSite(): string {
  const stack = new Error('call site').stack ?? '';
  return stack
    .split('\n')
    .slice(1)
    .filter((line) => !line.includes(OWN_FOLDER) && !/[/\\]node_modules[/\\]|\(node:|at node:/.test(line))
    .join('\n');
}

/** Wraps the global `fetch` (MSW's, once it listens) to note where each call comes from; returns the undo. */
function wrapFetch(): () => void {
  const inner = globalThis.fetch;
  const wrapped: typeof fetch = (input, init) => sites.run(callSite(), () => inner(input, init));
  globalThis.fetch = wrapped;
  return () => {
    if (globalThis.fetch === wrapped) globalThis.fetch = inner;
  };
}

/** The error a test fails with: the violations, its stack where the first offending request was sent. */
function failureOf(found: readonly { violation: Violation; site: string }[]): ViolationError {
  const error = new ViolationError(found.map((f) => f.violation));
  const site = found.find((f) => f.site !== '')?.site;
  if (site !== undefined) error.stack = `${error.name}: ${error.message}\n${site}`;
  return error;
}

/**
 * Creates the handlers, starts MSW (closed in `afterAll`), and fails each test on its own violations. `create` is the entry's `createHandlers`, `serve` msw/node's `setupServer`.
 */
export function installMock(
  hooks: RunnerHooks,
  create: (options: CreateHandlersOptions) => MockHandlers,
  serve: typeof setupServer,
  options: MockPresetOptions = {},
): MockPreset {
  const { failOn = 'warning', resetEachTest = false, onUnhandledRequest = 'error', ...rest } = options;
  let current: { violation: Violation; site: string }[] | undefined;
  const between: { violation: Violation; site: string }[] = [];
  const mock = create({
    ...rest,
    baseUrl: rest.baseUrl ?? 'https://api.example.test',
    violationLog: {
      ...rest.violationLog,
      // Collected and thrown from the test's own afterEach: thrown from the handler, the error would be
      // an unhandled one that vitest pins on the run, with the test shown as passed.
      onViolation: (violation) => {
        if (failOn === 'never' || !atLeast(violation.severity, failOn)) return;
        (current ?? between).push({ violation, site: sites.getStore() ?? '' });
      },
      throwOn: failOn === 'never' ? 'error' : failOn,
    },
  });
  const server = serve(...mock.handlers);
  // Listening now, not in a beforeAll: the setup file runs before the test file is imported, so a client
  // that keeps a reference to `fetch` at import (openapi-fetch's createClient) keeps MSW's.
  server.listen({ onUnhandledRequest });
  const unwrap = wrapFetch();
  hooks.afterAll(() => {
    unwrap();
    server.close();
    // A request answered between tests (one a test did not await) belongs to no test: the file fails.
    if (between.length > 0) throw failureOf(between.splice(0));
  });
  hooks.beforeEach(() => {
    current = [];
    if (resetEachTest) mock.admin.reset();
  });
  hooks.afterEach(() => {
    const found = current ?? [];
    current = undefined;
    server.resetHandlers();
    if (found.length > 0) throw failureOf(found);
  });
  // The handlers' own properties as they are (getters stay getters), plus the server.
  return Object.defineProperties(
    { server, currentViolations: () => (current ?? []).map((f) => f.violation) },
    Object.getOwnPropertyDescriptors(mock),
  ) as unknown as MockPreset;
}
