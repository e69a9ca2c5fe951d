/**
 * `cca-kit/msw`: the mock as MSW request handlers. One catch-all handler hands every request under the
 * base URL to ONE engine (the same seed, data set, rules, violation log and chaos modes as
 * `cca-kit mock`); the engine does the routing. Environment-neutral: use the handlers with
 * `setupServer` (msw/node) in tests or `setupWorker` (msw/browser) in an app. A browser build resolves
 * this module to `index.browser.ts`, the same API whose `createHandlers` carries only the features
 * (`cca-kit/msw/features`) the page asks for.
 *
 * @example
 * import { setupServer } from 'msw/node';
 * import { createHandlers } from 'cca-kit/msw';
 * const mock = createHandlers({ baseUrl: 'https://api.example.test', clock: 'frozen' });
 * const server = setupServer(...mock.handlers);
 * server.listen();
 * const [key] = mock.admin.listKeys();
 * await fetch('https://api.example.test/v0/agents', { headers: { 'x-api-key': key.key } });
 */
import { agentWritesPart } from '../engine/commands/agent-part.ts';
import { type CreateHandlersOptions, createHandlersWith, type MockHandlers } from './create.ts';
import { allFeatures } from './features.ts';

/**
 * Creates the handlers and the engine behind them, with every feature (`cca-kit/msw/features`); a
 * browser build's `createHandlers` carries only those `use` lists.
 *
 * @example
 * // In a browser app (after `npx msw init public/`):
 * import { setupWorker } from 'msw/browser';
 * await setupWorker(...createHandlers({ baseUrl: '/api' }).handlers).start();
 */
export function createHandlers(options: CreateHandlersOptions): MockHandlers {
  return createHandlersWith(allFeatures, options, { agentWrites: agentWritesPart });
}

export * from './exports.ts';
