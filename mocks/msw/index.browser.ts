/**
 * `cca-kit/msw` in a browser build (the package's `browser` field and export condition): the same API
 * as `index.ts`, but `createHandlers` carries the service alone, plus the features the page lists in
 * `use` (`cca-kit/msw/features`), so a page ships only what it asks for. Without a feature, what it
 * would add throws or answers 404 naming the import that adds it (docs/frontend.md).
 *
 * @example
 * import { setupWorker } from 'msw/browser';
 * import { createHandlers } from 'cca-kit/msw';
 * import { violationLog } from 'cca-kit/msw/features';
 * const mock = createHandlers({ baseUrl: '/api', use: [violationLog] });
 * await setupWorker(...mock.handlers).start();
 */
import { type CreateHandlersOptions, createHandlersWith, type MockHandlers } from './create.ts';

/** Creates the handlers and the engine behind them, with the features `use` lists. */
export function createHandlers(options: CreateHandlersOptions): MockHandlers {
  // The page's origin: the dashboard, opened in a frame of the page, calls the admin API there.
  const origin = typeof location === 'undefined' ? undefined : location.origin;
  return createHandlersWith([], options, {}, origin);
}

export * from './exports.ts';
