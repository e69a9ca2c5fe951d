/**
 * `cca-kit/vitest`: the mock for a vitest setup file. It starts MSW's `setupServer` with the handlers
 * of `cca-kit/msw` around every test file, fails THE test whose requests broke the contract (red, with
 * the violation, its rule and the line of the test that sent the request as its error), and resets the
 * mock between tests when asked.
 *
 * @example
 * // vitest.setup.ts (vitest.config.ts: `test: { setupFiles: ['./vitest.setup.ts'] }`)
 * import { setupMock } from 'cca-kit/vitest';
 * export const mock = setupMock({ baseUrl: 'https://api.example.test', resetEachTest: true });
 *
 * // any test: the mock of the file that is running
 * import { mock } from 'cca-kit/vitest';
 * const [key] = mock().admin.listKeys();
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { createHandlers } from './index.ts';
import { installMock, type MockPreset, type MockPresetOptions } from './test-hooks.ts';

let installed: MockPreset | undefined;

/**
 * Starts the mock around the tests of every file the setup file runs for, and returns it. Call it once,
 * at the top level of a setup file (vitest runs a setup file again for each test file).
 */
export function setupMock(options: MockPresetOptions = {}): MockPreset {
  installed = installMock({ afterAll, beforeEach, afterEach }, createHandlers, setupServer, options);
  return installed;
}

/** The mock `setupMock` started for the running file. */
export function mock(): MockPreset {
  if (installed === undefined)
    throw new Error("cca-kit/vitest: no mock yet: call setupMock() in a setup file (vitest's setupFiles)");
  return installed;
}

export type { MockPreset, MockPresetOptions, MockServer, RunnerHooks } from './test-hooks.ts';
export { installMock } from './test-hooks.ts';
