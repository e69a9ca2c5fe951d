/**
 * The admin-routes part (`../parts.ts`): the dispatcher and the routes every engine with it serves.
 * Each slice's routes are a module of this folder, added to the list below; a route that needs an
 * optional part's code comes with that part's `adminRoutes` instead (`/__mock/data` with the
 * data-file part), and the pipeline serves every part's routes (`../core.ts`).
 */

import type { AdminRoutesPart } from '../parts.ts';
import { chaosAdminRoutes } from './chaos.ts';
import { coreAdminRoutes } from './engine-routes.ts';
import { faultsAdminRoutes } from './faults.ts';
import { createAdminDispatcher } from './index.ts';
import { ingestionAdminRoutes } from './ingestion.ts';
import { ingestionBatchAdminRoutes } from './ingestion-batches.ts';
import { journalAdminRoutes } from './journal.ts';
import { moderationAdminRoutes } from './moderation.ts';
import { repliesAdminRoutes } from './replies.ts';
import type { AdminRoute } from './route.ts';
import { violationsAdminRoutes } from './violations.ts';

export const adminRoutes: readonly AdminRoute[] = [
  ...coreAdminRoutes,
  ...moderationAdminRoutes,
  ...ingestionAdminRoutes,
  ...ingestionBatchAdminRoutes,
  ...violationsAdminRoutes,
  ...journalAdminRoutes,
  ...chaosAdminRoutes,
  ...faultsAdminRoutes,
  ...repliesAdminRoutes,
];

/** The admin API over HTTP as an engine part (`../parts.ts`). */
export const adminRoutesPart: AdminRoutesPart = {
  adminRoutes,
  createDispatcher: createAdminDispatcher,
};
