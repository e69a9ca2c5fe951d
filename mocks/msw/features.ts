/**
 * `cca-kit/msw/features`: the parts of the mock a page asks for. In node, `createHandlers` carries all
 * of them; in a browser build it carries the service alone (routing, keys, validation, every
 * operation, moderation, ingestion, the seeded data set, the typed `admin` for keys, clock,
 * moderation and ingestion), so a page that only needs the API does not ship the rest. Each feature
 * is a value to pass in `use`; a bundler keeps only the ones imported.
 *
 * @example
 * import { setupWorker } from 'msw/browser';
 * import { createHandlers } from 'cca-kit/msw';
 * import { adminRoutes, violationLog } from 'cca-kit/msw/features';
 * const mock = createHandlers({ baseUrl: '/api', use: [violationLog, adminRoutes] });
 * await setupWorker(...mock.handlers).start();
 */
import { createChaosAdmin } from '../engine/admin/chaos.ts';
import { createDataCommands } from '../engine/admin/data-file-routes.ts';
import { adminRoutesPart } from '../engine/admin/part.ts';
import { createViolationsAdmin } from '../engine/admin/violations.ts';
import { createChaos } from '../engine/chaos/index.ts';
import { choicesPart } from '../engine/choices/part.ts';
import { dataFilesPart } from '../engine/data-file/part.ts';
import { createJournal } from '../engine/journal/index.ts';
import { createViolationLog } from '../engine/violations/index.ts';
import type { MswFeature } from './feature.ts';

export type { FeatureName, MswFeature } from './feature.ts';

/** The `/__mock/` admin routes over HTTP (keys, clock, violations, chaos, data, journal...). */
export const adminRoutes: MswFeature = { name: 'adminRoutes', parts: { adminRoutes: adminRoutesPart } };

/** Data files: the `data` option, `admin.exportData`/`replaceData`/`mergeData` and `/__mock/data`. */
export const dataFiles: MswFeature = {
  name: 'dataFiles',
  parts: { dataFiles: dataFilesPart },
  setup: ({ host }) => ({ admin: createDataCommands(host) }),
};

/** The permitted variations: the `choices` option ([contract.md](contract.md), "Where the spec is silent"). */
export const choices: MswFeature = { name: 'choices', parts: { choices: choicesPart } };

/** The violation log: `mock.violationLog`, `admin.violations()`, `expectNoViolations(mock)`. */
export const violationLog: MswFeature = {
  name: 'violationLog',
  setup: ({ options }) => {
    const log = createViolationLog(options.violationLog);
    return { interceptor: log, violationLog: log, admin: createViolationsAdmin(log) };
  },
};

/** Chaos modes: the `chaos` option, `mock.chaos` and `admin.setChaos`. */
export const chaos: MswFeature = {
  name: 'chaos',
  setup: ({ options }) => {
    const modes = createChaos(options.chaos);
    return { interceptor: modes, chaos: modes, admin: createChaosAdmin(modes) };
  },
};

/**
 * The request journal: `mock.journal` (or `journalOf(mock.engine.admin)`), and with `adminRoutes`
 * `GET /__mock/journal`, which the dashboard reads. Options: `createHandlers({ journal: { capacity } })`.
 */
export const journal: MswFeature = {
  name: 'journal',
  setup: ({ options }) => {
    const recorder = createJournal(options.journal);
    return { interceptor: recorder, journal: recorder };
  },
};

/** Every feature: what `createHandlers` carries in node. */
export const allFeatures: readonly MswFeature[] = [
  violationLog,
  chaos,
  adminRoutes,
  dataFiles,
  choices,
  journal,
];
