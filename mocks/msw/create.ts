/**
 * `createHandlers` over a set of features (`feature.ts`): the node entry (`index.ts`) gives it every
 * feature, the browser entry (`index.browser.ts`) none but those the page passes in `use`. One
 * catch-all handler hands every request under the base URL to ONE engine.
 */
import type { HttpHandler } from 'msw';
import type { AdminApi, AdminHost } from '../engine/admin/api.ts';
import type { ChaosAdmin } from '../engine/admin/chaos.ts';
import { createIngestionAdmin, type IngestionAdmin } from '../engine/admin/ingestion.ts';
import { createModerationAdmin, type ModerationAdmin } from '../engine/admin/moderation.ts';
import type { ViolationsAdmin } from '../engine/admin/violations.ts';
import type { Chaos, ChaosOptions } from '../engine/chaos/index.ts';
import { createEngineWith, type Engine } from '../engine/core.ts';
import type { DataAdmin } from '../engine/data-file/admin-ops.ts';
import type { Journal, JournalOptions } from '../engine/journal/index.ts';
import type { EngineOptions } from '../engine/options.ts';
import type { EngineParts } from '../engine/parts.ts';
import type { ViolationLog, ViolationLogOptions } from '../engine/violations/index.ts';
import {
  FEATURE_ADMIN_METHODS,
  FEATURE_ORDER,
  type FeatureSetup,
  featureMissing,
  type MswFeature,
} from './feature.ts';
import { http } from './http.ts';

export interface CreateHandlersOptions extends EngineOptions {
  /**
   * Where the app sends its API calls: an absolute URL (`https://api.example.test`,
   * `http://localhost:5173/api`) or, in a browser, a path of the page's origin (`/api`). Requests under
   * it reach the engine with the base path removed (`/api/v0/agents` is `/v0/agents`).
   */
  readonly baseUrl: string;
  /**
   * Features beyond the service (`cca-kit/msw/features`): in node every one is in already; a browser
   * build carries only those listed here (docs/frontend.md, "What a page carries").
   */
  readonly use?: readonly MswFeature[];
  /** Chaos modes in force from the start (all off by default; change them with `admin.setChaos`). */
  readonly chaos?: ChaosOptions;
  readonly violationLog?: ViolationLogOptions;
  /** Options of the request journal (the `journal` feature). */
  readonly journal?: JournalOptions;
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
  /** The violation log (the `violationLog` feature: in a browser build, only when `use` lists it). */
  readonly violationLog: ViolationLog;
  /** The chaos modes (the `chaos` feature: in a browser build, only when `use` lists it). */
  readonly chaos: Chaos;
  /** The request journal (the `journal` feature: in a browser build, only when `use` lists it). */
  readonly journal: Journal;
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
 * In a page, the admin API also at `/__mock/` of the page's own origin, which is where the dashboard
 * (copied beside the app, opened in a frame of the page) calls it: the service worker hands a frame's
 * requests to the handlers of its page. The dashboard's own files (`/__mock/dashboard/...`) are left to
 * the server that serves them. Undefined when the base URL is the page's origin already.
 */
function pageAdminHandler(baseUrl: string, pageOrigin: string, engine: Engine): HttpHandler | undefined {
  const base = new URL(baseUrl, pageOrigin);
  if (base.origin === pageOrigin && basePathOf(baseUrl) === '') return undefined;
  return http.all(`${pageOrigin}/__mock/*`, ({ request }) => {
    const { pathname } = new URL(request.url);
    if (pathname.startsWith('/__mock/dashboard/') || pathname === '/__mock/index.html') return undefined;
    return engine.handle(request, { remoteAddress: '127.0.0.1', inProcess: true });
  });
}

/** The features in force: the entry's defaults and `use`, each once, in `FEATURE_ORDER`. */
function featuresOf(defaults: readonly MswFeature[], use: unknown): MswFeature[] {
  if (use !== undefined && !Array.isArray(use))
    throw new TypeError("createHandlers: use must be an array of features from 'cca-kit/msw/features'");
  const byName = new Map<string, MswFeature>();
  for (const feature of [...defaults, ...((use ?? []) as unknown[])]) {
    const name = (feature as Partial<MswFeature> | null)?.name;
    if (typeof name !== 'string' || !FEATURE_ORDER.includes(name as MswFeature['name']))
      throw new TypeError(
        `createHandlers: use lists ${JSON.stringify(feature)}, not a feature; the features are ${FEATURE_ORDER.join(', ')} from 'cca-kit/msw/features'`,
      );
    byName.set(name, feature as MswFeature);
  }
  return FEATURE_ORDER.flatMap((name) => byName.get(name) ?? []);
}

/** Admin operations of the features not in force: each throws, naming its feature. */
function missingAdmin(present: ReadonlySet<string>): Record<string, () => never> {
  const out: Record<string, () => never> = {};
  for (const name of FEATURE_ORDER) {
    if (present.has(name)) continue;
    for (const method of FEATURE_ADMIN_METHODS[name]) {
      out[method] = () => {
        throw featureMissing(`admin.${method}()`, name);
      };
    }
  }
  return out;
}

/**
 * Creates the handlers and the engine behind them, with `defaults` and the options' `use` features;
 * `baseParts` are engine parts no feature offers (node's: the agent's writes, for `cca-kit/agent`
 * handed this engine).
 */
export function createHandlersWith(
  defaults: readonly MswFeature[],
  options: CreateHandlersOptions,
  baseParts: EngineParts = {},
  pageOrigin?: string,
): MockHandlers {
  const {
    baseUrl,
    chaos: chaosOptions,
    violationLog: logOptions,
    journal: journalOptions,
    use,
    ...engineOptions
  } = options;
  if (typeof baseUrl !== 'string' || baseUrl === '') {
    throw new TypeError('createHandlers needs a baseUrl, e.g. "https://api.example.test" or "/api"');
  }
  const features = featuresOf(defaults, use);
  const present = new Set(features.map((f) => f.name));
  if (chaosOptions !== undefined && !present.has('chaos')) throw featureMissing('the chaos option', 'chaos');
  if (logOptions !== undefined && !present.has('violationLog'))
    throw featureMissing('the violationLog option', 'violationLog');
  if (journalOptions !== undefined && !present.has('journal'))
    throw featureMissing('the journal option', 'journal');
  let engine: Engine | undefined;
  const engineOf = (): Engine => {
    if (engine === undefined) throw new Error('createHandlers: the engine is not built yet');
    return engine;
  };
  const host: Pick<AdminHost, 'state' | 'run'> = {
    get state() {
      return engineOf().state;
    },
    run: (command) => engineOf().run(command),
  };
  const context = {
    options: { chaos: chaosOptions, violationLog: logOptions, journal: journalOptions },
    host,
  };
  const setups: FeatureSetup[] = features.map((feature) => feature.setup?.(context) ?? {});
  let parts: EngineParts = baseParts;
  for (const feature of features) parts = { ...parts, ...feature.parts };
  engine = createEngineWith(parts, {
    ...engineOptions,
    interceptors: [...setups.flatMap((s) => s.interceptor ?? []), ...(engineOptions.interceptors ?? [])],
  });
  const built = engine;
  const admin = Object.assign(
    {},
    built.admin,
    createModerationAdmin(host),
    createIngestionAdmin(host),
    missingAdmin(present),
    ...setups.map((s) => s.admin ?? {}),
  ) as MockAdmin;
  const basePath = basePathOf(baseUrl);
  const handler = http.all(handlerPattern(baseUrl), async ({ request }) => {
    const forwarded = basePath === '' ? request : await withoutBasePath(request, basePath);
    // MSW runs in the client's own process or page: no network client can reach these handlers, so
    // the admin API answers whatever the request's headers say (msw 3 sets `host` to the target's).
    return built.handle(forwarded, { remoteAddress: '127.0.0.1', inProcess: true });
  });
  const handlers = [handler];
  const dashboardAdmin = pageOrigin === undefined ? undefined : pageAdminHandler(baseUrl, pageOrigin, built);
  if (dashboardAdmin !== undefined) handlers.push(dashboardAdmin);
  const violationLog = setups.find((s) => s.violationLog !== undefined)?.violationLog;
  const chaos = setups.find((s) => s.chaos !== undefined)?.chaos;
  const journal = setups.find((s) => s.journal !== undefined)?.journal;
  return {
    handlers,
    engine: built,
    admin,
    get violationLog(): ViolationLog {
      if (violationLog === undefined) throw featureMissing('mock.violationLog', 'violationLog');
      return violationLog;
    },
    get chaos(): Chaos {
      if (chaos === undefined) throw featureMissing('mock.chaos', 'chaos');
      return chaos;
    },
    get journal(): Journal {
      if (journal === undefined) throw featureMissing('mock.journal', 'journal');
      return journal;
    },
  };
}
