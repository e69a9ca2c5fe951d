/**
 * The one registration point of admin routes. A slice with admin operations exports an
 * `AdminRoute[]` from its own module and adds it here.
 */

import type { AdminRoutesPart } from '../parts.ts';
import { chaosAdminRoutes } from './chaos.ts';
import { coreAdminRoutes } from './core-routes.ts';
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
  // Slices add their routes below, e.g. `...moderationAdminRoutes` from '../moderation/admin.ts'.
  ...moderationAdminRoutes,
  ...ingestionAdminRoutes,
  ...ingestionBatchAdminRoutes,
  ...violationsAdminRoutes,
  ...journalAdminRoutes,
  ...chaosAdminRoutes,
  ...faultsAdminRoutes,
  ...repliesAdminRoutes,
  // `/__mock/data` comes with the data-file part (`../data-file/part.ts`).
];

/** The admin API over HTTP as an engine part (`../parts.ts`). */
export const adminRoutesPart: AdminRoutesPart = {
  routes: adminRoutes,
  createDispatcher: createAdminDispatcher,
};
