/**
 * The MSW browser test page: a tiny front end that registers the service worker with the cca-kit
 * handlers, calls the API under `/api` with the key given in `?key=` and renders what it gets.
 * Bundled with esbuild at test time (see harness.ts). `../../mocks/msw/index.ts` is the package's
 * `cca-kit/msw` entry.
 */
import { setupWorker } from 'msw/browser';
import { sampleSubmission } from '../../mocks/engine/moderation/sample.ts';
import { createHandlers } from '../../mocks/msw/index.ts';

interface ActionItem {
  readonly actionId: string;
  readonly actionTitle: string;
}

const element = (id: string): HTMLElement => {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`#${id} is missing from index.html`);
  return found;
};

async function call(path: string, key: string | null, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = key === null ? {} : { 'x-api-key': key };
  if (body === undefined) return fetch(`/api${path}`, { headers });
  headers['content-type'] = 'application/json';
  return fetch(`/api${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}

const SUBMISSION = sampleSubmission({ externalId: 'browser-page-1' });

/** Submits a moderation case and polls it in real time until it settles; renders the statuses seen. */
async function moderationLifecycle(readKey: string, writeKey: string): Promise<void> {
  const ack = (await (await call('/v0/moderation/cases', writeKey, SUBMISSION)).json()) as { caseId: string };
  const seen: string[] = [];
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    const status = (await (
      await call(`/v0/moderation/cases/${encodeURIComponent(ack.caseId)}`, readKey)
    ).json()) as {
      analysisStatus: string;
    };
    if (seen.at(-1) !== status.analysisStatus) seen.push(status.analysisStatus);
    if (status.analysisStatus === 'completed' || status.analysisStatus === 'failed') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  element('moderation').textContent = seen.join(' > ');
}

async function run(): Promise<void> {
  const params = new URLSearchParams(location.search);
  const key = params.get('key') ?? '';
  const writeKey = params.get('writeKey') ?? '';
  // Real time in the browser: the engine clock follows the wall clock (moderation moves on its own).
  const mock = createHandlers({ baseUrl: '/api', seed: 42, selfCheck: true });
  await setupWorker(...mock.handlers).start({
    serviceWorker: { url: '/mockServiceWorker.js' },
    onUnhandledRequest: 'bypass',
    quiet: true,
  });

  const list = await call('/v0/action/list?pageSize=5', key);
  element('list-status').textContent = String(list.status);
  const body = (await list.json()) as { data: ActionItem[]; totalRecords: number };
  element('total').textContent = String(body.totalRecords);
  const items = element('actions');
  for (const action of body.data) {
    const li = document.createElement('li');
    li.dataset['id'] = action.actionId;
    li.textContent = action.actionTitle;
    items.append(li);
  }

  const first = body.data[0];
  if (first !== undefined) {
    const detail = await call(`/v0/action/${encodeURIComponent(first.actionId)}`, key);
    const record = (await detail.json()) as { actionId: string };
    element('detail').textContent = `${detail.status} ${record.actionId}`;
  }

  const anonymous = await call('/v0/agents', null);
  element('anonymous-status').textContent = String(anonymous.status);

  await moderationLifecycle(key, writeKey);

  const violations = mock.admin.violations();
  element('violations').textContent = String(violations.length);
  element('self-check').textContent = String(mock.engine.selfCheckFailures.length);
  document.body.dataset['ready'] = 'true';
}

run().catch((error: unknown) => {
  element('error').textContent = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  document.body.dataset['ready'] = 'error';
});
