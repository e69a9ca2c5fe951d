/**
 * The engine's optional parts. `core.ts` answers the service (routing, auth, validation, every
 * operation, moderation, ingestion, the seeded data set) and reaches these parts only through this
 * interface, so a bundler leaves out whatever an engine is not given: a page that bundles
 * `cca-kit/msw` carries the service without the admin routes, data files and permitted variations
 * unless it asks for them. `createEngine` (`engine.ts`) is the engine with every
 * part (`full-parts.ts`), as the CLI, `cca-kit/mock` and `cca-kit/msw` in node use it.
 *
 * Each part is described here by its own signatures, never by `typeof` an implementation: this file
 * sits with the engine's seams, below the handlers, the pipeline and the admin routes, and only the
 * part files (`full-parts.ts`, `admin/part.ts`, `choices/part.ts`, `commands/agent-part.ts`,
 * `data-file/part.ts`) name what implements a part.
 */

import type { OpenAPIV3_1 } from 'openapi-types';
import type { Choices } from '../../src/contract/choice-points.ts';
import type { Operation } from '../../src/contract/index.ts';
import type { AdminDispatcher, AdminDispatcherOptions, AdminRoute } from './admin/route.ts';
import type { ChoicesOption } from './choices/index.ts';
import type { ShapedRequest } from './choices/request.ts';
import type { Appliers } from './commands/apply.ts';
import type { AgentCommand } from './commands/types.ts';
import type { DataState } from './records/index.ts';
import type { RepliesState } from './replies/state.ts';
import type { BaselineLoader } from './state.ts';
import type { HandlerResult } from './types.ts';

/** Applies every reply step the clock has made due by `now` (the pipeline calls it before each operation). */
export type SettleReplies = (replies: RepliesState, data: DataState, now: number) => void;

/**
 * What any part may bring to the admin API: its routes under `/__mock/`, served when the engine has
 * the admin-routes part. The one way a route is registered: a part's routes come with the part, so a
 * page's bundle carries them (and what they call) only with it.
 */
export interface Part {
  readonly adminRoutes?: readonly AdminRoute[];
}

/** Data files (docs/data-format.md): loading the baseline's files and the `data.*` commands. */
export interface DataFilesPart extends Part {
  /** Checks and applies every file of the baseline to a freshly built state (throws `DataFileError`). */
  readonly loadBaseline: BaselineLoader;
  readonly appliers: Pick<Appliers, 'data.merge' | 'data.replace'>;
  /** `/__mock/data` (export, replace, merge), served when the engine has the admin-routes part too. */
  readonly adminRoutes: readonly AdminRoute[];
  /** Moves reply requests loaded from a file on the clock (an engine without the agent-writes part). */
  readonly settleReplies: SettleReplies;
}

/**
 * The agent interface's writes (spec 4.18): reply requests (prepare, review, a person's decision, the
 * clock's delivery steps) and saved searches. `cca-kit/agent` needs an engine with this part.
 */
export interface AgentWritesPart extends Part {
  readonly settleReplies: SettleReplies;
  readonly appliers: Pick<Appliers, AgentCommand>;
}

/** The permitted variations (`choices/`): what the pipeline asks at every choice point. */
export interface ChoicesPart extends Part {
  /** Completes a partial set of choices with the defaults; throws a `RangeError` on an unknown one. */
  normalize(option: ChoicesOption | undefined): Choices;
  /** The query of a filter-DSL operation as the chosen filter keys read it, or the answer refusing it. */
  shapeRequest(
    choices: Choices,
    operationId: string,
    query: Readonly<Record<string, unknown>>,
  ): ShapedRequest;
  /** The result as the chosen statuses, durations, messages and row shapes give it. */
  shapeResult<R extends HandlerResult>(choices: Choices, operation: Operation | null, result: R): R;
  /** The document `/docs/json` serves: unchanged, or every path parameter named as chosen. */
  renameDocsPathParams(
    document: OpenAPIV3_1.Document,
    choices: Pick<Choices, 'docsPathParams'>,
  ): OpenAPIV3_1.Document;
}

/** The admin API over HTTP: the dispatcher that guards and serves every part's routes, and its own. */
export interface AdminRoutesPart extends Part {
  createDispatcher(options: AdminDispatcherOptions): AdminDispatcher;
}

export interface EngineParts {
  /** The routes under `/__mock/`; without them every `/__mock/` request answers 404 naming the opt-in. */
  readonly adminRoutes?: AdminRoutesPart;
  readonly dataFiles?: DataFilesPart;
  readonly choices?: ChoicesPart;
  readonly agentWrites?: AgentWritesPart;
}
