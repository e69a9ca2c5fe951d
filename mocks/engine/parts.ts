/**
 * The engine's optional parts. `core.ts` answers the service (routing, auth, validation, every
 * operation, moderation, ingestion, the seeded data set) and reaches these parts only through this
 * interface, so a bundler leaves out whatever an engine is not given: a page that bundles
 * `cca-kit/msw` carries the service without the admin routes, data files and permitted variations
 * unless it asks for them. `createEngine` (`engine.ts`) is the engine with every
 * part (`full-parts.ts`), as the CLI, `cca-kit/mock` and `cca-kit/msw` in node use it.
 */

import type { Choices } from '../../src/contract/choice-points.ts';
import type { createAdminDispatcher } from './admin/index.ts';
import type { AdminRoute } from './admin/route.ts';
import type { renameDocsPathParams } from './choices/docs-path-params.ts';
import type { ChoicesOption } from './choices/index.ts';
import type { shapeRequest } from './choices/request.ts';
import type { shapeResult } from './choices/result.ts';
import type { Appliers } from './commands/apply.ts';
import type { CommandType } from './commands/types.ts';
import type { DataBaseline } from './data-file/data-baseline.ts';
import type { settleReplies } from './replies/machine.ts';
import type { EngineState } from './state.ts';

/** Data files (docs/data-format.md): loading the baseline's files and the `data.*` commands. */
export interface DataFilesPart {
  /** Checks and applies every file of the baseline to a freshly built state (throws `DataFileError`). */
  loadBaseline(state: EngineState, baseline: DataBaseline, anchor: number): void;
  readonly appliers: Pick<Appliers, 'data.merge' | 'data.replace'>;
  /** `/__mock/data` (export, replace, merge), served when the engine has the admin-routes part too. */
  readonly adminRoutes: readonly AdminRoute[];
  /** Moves reply requests loaded from a file on the clock (an engine without the agent-writes part). */
  readonly settleReplies: typeof settleReplies;
}

/**
 * The agent interface's writes (spec 4.18): reply requests (prepare, review, a person's decision, the
 * clock's delivery steps) and saved searches. `cca-kit/agent` needs an engine with this part.
 */
export interface AgentWritesPart {
  /** Applies every reply step the clock has made due (the pipeline calls it before each operation). */
  readonly settleReplies: typeof settleReplies;
  readonly appliers: Pick<Appliers, AgentCommand>;
}

/** The commands of the agent-writes part. */
export type AgentCommand = Extract<CommandType, `reply.${string}` | `savedSearch.${string}`>;

/** The permitted variations (`choices/`): what the pipeline asks at every choice point. */
export interface ChoicesPart {
  /** Completes a partial set of choices with the defaults; throws a `RangeError` on an unknown one. */
  normalize(option: ChoicesOption | undefined): Choices;
  readonly shapeRequest: typeof shapeRequest;
  readonly shapeResult: typeof shapeResult;
  readonly renameDocsPathParams: typeof renameDocsPathParams;
}

/** The admin API over HTTP: its routes and the dispatcher that guards and serves them. */
export interface AdminRoutesPart {
  readonly routes: readonly AdminRoute[];
  readonly createDispatcher: typeof createAdminDispatcher;
}

export interface EngineParts {
  /** The routes under `/__mock/`; without them every `/__mock/` request answers 404 naming the opt-in. */
  readonly adminRoutes?: AdminRoutesPart;
  readonly dataFiles?: DataFilesPart;
  readonly choices?: ChoicesPart;
  readonly agentWrites?: AgentWritesPart;
}
