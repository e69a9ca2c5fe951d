/** What a feature of `cca-kit/msw` is (`features.ts` has them): engine parts and per-mock setup. */
import type { AdminHost } from '../engine/admin/api.ts';
import type { Chaos, ChaosOptions } from '../engine/chaos/index.ts';
import type { EngineInterceptor } from '../engine/interceptors.ts';
import type { Journal, JournalOptions } from '../engine/journal/index.ts';
import type { EngineParts } from '../engine/parts.ts';
import type { ViolationLog, ViolationLogOptions } from '../engine/violations/index.ts';

export type FeatureName = 'violationLog' | 'chaos' | 'adminRoutes' | 'dataFiles' | 'choices' | 'journal';

export interface FeatureContext {
  readonly options: {
    readonly chaos?: ChaosOptions | undefined;
    readonly violationLog?: ViolationLogOptions | undefined;
    readonly journal?: JournalOptions | undefined;
  };
  /** The engine's state and writes; read only when an admin operation runs (the engine comes after). */
  readonly host: Pick<AdminHost, 'state' | 'run'>;
}

/** What one feature adds to one mock. */
export interface FeatureSetup {
  /** An observer of the pipeline, in the order of `FEATURE_ORDER`, before the caller's own. */
  readonly interceptor?: EngineInterceptor;
  /** Typed admin operations spread into `mock.admin`. */
  readonly admin?: object;
  readonly violationLog?: ViolationLog;
  readonly chaos?: Chaos;
  readonly journal?: Journal;
}

export interface MswFeature {
  readonly name: FeatureName;
  /** Optional parts of the engine (`mocks/engine/parts.ts`) this feature brings. */
  readonly parts?: EngineParts;
  setup?(context: FeatureContext): FeatureSetup;
}

/** The order features act in, whatever order `use` lists them in (the log sees what chaos did). */
export const FEATURE_ORDER: readonly FeatureName[] = [
  'violationLog',
  'chaos',
  'adminRoutes',
  'dataFiles',
  'choices',
  // Last: it records the final answer, after chaos and the violation log have done their part.
  'journal',
];

/**
 * The `mock.admin` operations each feature adds: without the feature they throw, naming it (a test
 * holds these lists to the features' own admin objects).
 */
export const FEATURE_ADMIN_METHODS: { readonly [F in FeatureName]: readonly string[] } = {
  violationLog: ['violations', 'clearViolations', 'violationStats'],
  chaos: ['chaos', 'setChaos', 'chaosOff'],
  adminRoutes: [],
  dataFiles: ['exportData', 'replaceData', 'mergeData'],
  choices: [],
  journal: [],
};

/** The error a missing feature's operation throws: what is missing and the one line that adds it. */
export function featureMissing(what: string, feature: FeatureName): Error {
  return new Error(
    `${what}: the ${feature} feature is not in this mock. A browser build of cca-kit/msw carries the service ` +
      `alone; import { ${feature} } from 'cca-kit/msw/features' and pass createHandlers({ ..., use: [${feature}] })`,
  );
}
