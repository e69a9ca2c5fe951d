/**
 * `cca-kit/msw`: the mock as MSW request handlers. One catch-all handler hands every request under the
 * base URL to ONE engine (the same seed, data set, rules, violation log and chaos modes as
 * `cca-kit mock`); the engine does the routing. Environment-neutral: use the handlers with
 * `setupServer` (msw/node) in tests or `setupWorker` (msw/browser) in an app.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from 'cca-kit/msw';
 * const mock = createHandlers({ baseUrl: 'https://api.example.test', clock: 'frozen' });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const [key] = mock.admin.listKeys();
 * await fetch('https://api.example.test/v0/agents', { headers: { 'x-api-key': key.key } });
 */
import type { HttpHandler } from 'msw';
import type { AdminApi, AdminHost } from '../engine/admin/api.ts';
import { type ChaosAdmin, createChaosAdmin } from '../engine/admin/chaos.ts';
import { createDataCommands } from '../engine/admin/data.ts';
import { createIngestionAdmin, type IngestionAdmin } from '../engine/admin/ingestion.ts';
import { createModerationAdmin, type ModerationAdmin } from '../engine/admin/moderation.ts';
import { createViolationsAdmin, type ViolationsAdmin } from '../engine/admin/violations.ts';
import { type Chaos, type ChaosOptions, createChaos } from '../engine/chaos/index.ts';
import type { DataAdmin } from '../engine/data-file/admin-ops.ts';
import { createEngine, type Engine } from '../engine/engine.ts';
import type { EngineOptions } from '../engine/options.ts';
import {
  createViolationLog,
  type ViolationLog,
  type ViolationLogOptions,
} from '../engine/violations/index.ts';
import { http } from './http.ts';

export interface CreateHandlersOptions extends EngineOptions {
  /**
   * Where the app sends its API calls: an absolute URL (`https://api.example.test`,
   * `http://localhost:5173/api`) or, in a browser, a path of the page's origin (`/api`). Requests under
   * it reach the engine with the base path removed (`/api/v0/agents` is `/v0/agents`).
   */
  readonly baseUrl: string;
  /** Chaos modes in force from the start (all off by default; change them with `admin.setChaos`). */
  readonly chaos?: ChaosOptions;
  readonly violationLog?: ViolationLogOptions;
}

/** The engine's admin operations plus those of the violation log, chaos, moderation, ingestion and data files. */
export type MockAdmin = AdminApi &
  ViolationsAdmin &
  ChaosAdmin &
  ModerationAdmin &
  IngestionAdmin &
  DataAdmin;

export interface MockHandlers {
  /** Pass to `setupServer(...handlers)` or `setupWorker(...handlers)`. */
  readonly handlers: HttpHandler[];
  readonly engine: Engine;
  /** Admin operations without HTTP: reset, clock, keys, moderation mode, violations, chaos. */
  readonly admin: MockAdmin;
  readonly violationLog: ViolationLog;
  readonly chaos: Chaos;
}

/** What MSW matches: the base URL without a trailing slash, then anything. */
function handlerPattern(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/*`;
}

/** The path prefix of the base URL (`/api`), or '' when it is an origin. */
function basePathOf(baseUrl: string): string {
  return new URL(baseUrl, 'http://base.invalid').pathname.replace(/\/+$/, '');
}

/** The request as the engine expects it: the base path removed from the URL (the body re-read once). */
async function withoutBasePath(request: Request, basePath: string): Promise<Request> {
  const url = new URL(request.url);
  if (!url.pathname.startsWith(basePath)) return request;
  url.pathname = url.pathname.slice(basePath.length) || '/';
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(url, {
    method: request.method,
    headers: request.headers,
    ...(hasBody ? { body: await request.arrayBuffer() } : {}),
  });
}

/**
 * Creates the handlers and the engine behind them.
 *
 * @example
 * // In a browser app (after `npx msw init public/`):
 * import { setupWorker } from 'msw/browser';
 * await setupWorker(...createHandlers({ baseUrl: '/api' }).handlers).start();
 */
export function createHandlers(options: CreateHandlersOptions): MockHandlers {
  const { baseUrl, chaos: chaosOptions, violationLog: logOptions, ...engineOptions } = options;
  if (typeof baseUrl !== 'string' || baseUrl === '') {
    throw new TypeError('createHandlers needs a baseUrl, e.g. "https://api.example.test" or "/api"');
  }
  const violationLog = createViolationLog(logOptions);
  const chaos = createChaos(chaosOptions);
  const engine = createEngine({
    ...engineOptions,
    interceptors: [violationLog, chaos, ...(engineOptions.interceptors ?? [])],
  });
  const host: Pick<AdminHost, 'state' | 'run'> = {
    get state() {
      return engine.state;
    },
    run: engine.run,
  };
  const admin: MockAdmin = {
    ...engine.admin,
    ...createModerationAdmin(host),
    ...createIngestionAdmin(host),
    ...createViolationsAdmin(violationLog),
    ...createChaosAdmin(chaos),
    ...createDataCommands(host),
  };
  const basePath = basePathOf(baseUrl);
  const handler = http.all(handlerPattern(baseUrl), async ({ request }) => {
    const forwarded = basePath === '' ? request : await withoutBasePath(request, basePath);
    // MSW runs in the client's own process or page: it is loopback, so the admin API answers.
    return engine.handle(forwarded, { remoteAddress: '127.0.0.1' });
  });
  return { handlers: [handler], engine, admin, violationLog, chaos };
}

export {
  type KeyFixture,
  SEEDED_KEYS,
  type SeededKeyQuery,
  seededKey,
  seededKeys,
} from '../../fixtures/seeded-keys.ts';
export type { ChaosOptions } from '../engine/chaos/index.ts';
export type { EngineOptions } from '../engine/options.ts';
export {
  type ExpectNoViolationsOptions,
  expectNoViolations,
  isViolationError,
  type Violation,
  ViolationError,
  type ViolationFilter,
  type ViolationIssue,
  type ViolationKind,
  type ViolationLogOptions,
  type ViolationSeverity,
  type ViolationSource,
} from '../engine/violations/index.ts';
