/**
 * The page of the MSW dashboard test: the cca-kit handlers (the browser entry, with the admin routes
 * and the journal) under a service worker, the dashboard in a frame of the page at
 * `/__mock/index.html` (the files `writeDashboardFiles` wrote beside the page), and `window.app.call`
 * for the test to make the app's API calls. Bundled with esbuild at test time.
 */
import { setupWorker } from 'msw/browser';
import { adminRoutes, chaos, journal, violationLog } from '../../mocks/msw/features.ts';
import { createHandlers } from '../../mocks/msw/index.browser.ts';

interface Sent {
  readonly status: number;
}

async function run(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const keys: Record<string, string> = { read: params.get('key') ?? '', write: params.get('writeKey') ?? '' };
  // Where the app's API is: a path of the page's origin, or another origin (`?base=`).
  const base = params.get('base') ?? '/api';
  const mock = createHandlers({
    baseUrl: base,
    seed: 42,
    use: [adminRoutes, journal, violationLog, chaos],
  });
  await setupWorker(...mock.handlers).start({
    serviceWorker: { url: '/mockServiceWorker.js' },
    onUnhandledRequest: 'bypass',
    quiet: true,
  });
  const app = {
    /** One API call of the app with the read or write key (none: no key); resolves to its status. */
    async call(method: string, path: string, key: 'read' | 'write' | 'none', body?: string): Promise<Sent> {
      const headers: Record<string, string> = key === 'none' ? {} : { 'x-api-key': keys[key] ?? '' };
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${base}${path}`, {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
      });
      await response.arrayBuffer();
      return { status: response.status };
    },
    journalLength: () => mock.journal.list().length,
  };
  (window as unknown as { app: typeof app }).app = app;
  const frame = document.createElement('iframe');
  frame.id = 'dashboard';
  frame.title = 'cca-kit mock dashboard';
  frame.width = '1240';
  frame.height = '760';
  frame.src = '/__mock/index.html';
  document.body.append(frame);
  document.body.dataset['ready'] = 'true';
}

run().catch((error: unknown) => {
  document.body.textContent = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  document.body.dataset['ready'] = 'error';
});
