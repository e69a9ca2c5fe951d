/**
 * Data files as an engine part (`../parts.ts`): the baseline loader and the `data.*` commands. An
 * engine given this part loads `options.data` at start and at every reset, and applies
 * `PUT`/`POST /__mock/data` and `admin.replaceData`/`mergeData`.
 */
import { dataAdminRoutes } from '../admin/data-file-routes.ts';
import type { DataFilesPart } from '../parts.ts';
import { settleReplies } from '../replies/machine.ts';
import { createDataAdmin } from './admin-ops.ts';
import { loadBaseline } from './load-baseline.ts';

export const dataFilesPart: DataFilesPart = {
  loadBaseline,
  appliers: {
    'data.merge': (target, c) => createDataAdmin(target).mergeData(c.file),
    'data.replace': (target, c) => createDataAdmin(target).replaceData(c.file),
  },
  adminRoutes: dataAdminRoutes,
  settleReplies,
};
