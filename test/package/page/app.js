// The browser check's page (test/package-consumer.test.ts): bundled by esbuild from the consumer project
// where the packed cca-kit is installed, so `cca-kit/msw` is the published entry (its browser build: the
// service alone, plus the features listed in `use`). It starts the MSW worker with the cca-kit
// handlers, calls the mock under /api and writes what it saw into the page.
import { createHandlers } from 'cca-kit/msw';
import { adminRoutes, dataFiles, journal, violationLog } from 'cca-kit/msw/features';
import { setupWorker } from 'msw/browser';

const violations = [];
document.addEventListener('securitypolicyviolation', (event) => {
  violations.push(`${event.violatedDirective} ${event.blockedURI}`);
  document.body.dataset.violations = violations.join('\n');
});

const show = (id, text) => {
  document.getElementById(id).textContent = text;
};

try {
  // A data file with a bad enum value: only the full data schema (not the reduced shape check) sees it.
  try {
    createHandlers({
      baseUrl: '/other',
      use: [dataFiles],
      data: { version: 1, organizations: [{ id: 'org_x', name: 'X', moderationMode: 'sometimes' }] },
    });
    show('data-file', 'accepted');
  } catch (error) {
    show('data-file', `${error.name} ${error.problems.map((p) => p.pointer).join(',')}`);
  }
  // selfCheck: every answer is validated against its response schema, in the page, with no eval.
  // Without the dataFiles feature, a page's mock refuses a data file, naming the import that adds it.
  try {
    createHandlers({ baseUrl: '/plain', data: { version: 1, organizations: [] } });
    show('no-feature', 'accepted');
  } catch (error) {
    show(
      'no-feature',
      error.message.includes("import { dataFiles } from 'cca-kit/msw/features'") ? 'named' : error.message,
    );
  }
  const mock = createHandlers({ baseUrl: '/api', clock: 'frozen', selfCheck: true, use: [violationLog] });
  // A second mock that asks for the admin routes and the journal: the page's own requests reach
  // /__mock/ (the handlers are in-process; the browser's Origin on a POST does not matter).
  const adminMock = createHandlers({ baseUrl: '/app-api', clock: 'frozen', use: [adminRoutes, journal] });
  await setupWorker(...mock.handlers, ...adminMock.handlers).start({
    quiet: true,
    serviceWorker: { url: '/mockServiceWorker.js' },
  });
  const key = mock.admin.listKeys('org_acme').find((k) => k.profile === 'reporting' && k.status === 'active');
  const list = await fetch('/api/v0/action/list?pageSize=3', { headers: { 'x-api-key': key.key } });
  const body = await list.json();
  show('list-status', String(list.status));
  show('ids', body.data.map((action) => action.actionId).join(','));
  const invalid = await fetch('/api/v0/action/list?pageSize=501', { headers: { 'x-api-key': key.key } });
  show('invalid', `${invalid.status} ${(await invalid.json()).error}`);
  const writeKey = mock.admin
    .listKeys('org_acme')
    .find((k) => k.profile === 'write' && k.status === 'active');
  const submission = await fetch('/api/v0/moderation/cases', {
    method: 'POST',
    headers: { 'x-api-key': writeKey.key, 'content-type': 'application/json' },
    body: JSON.stringify({ externalId: 7, media: 'none' }),
  });
  show('body-invalid', `${submission.status} ${JSON.stringify(await submission.json())}`);
  // The admin routes are a feature this page did not ask for: 404, naming it.
  const admin = await fetch('/api/__mock/keys');
  show('admin', `${admin.status} ${(await admin.text()).includes('adminRoutes')}`);
  const advance = await fetch('/app-api/__mock/clock/advance', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms: 60000 }),
  });
  await fetch('/app-api/v0/agents');
  const journalAnswer = await fetch('/app-api/__mock/journal');
  const journalBody = await journalAnswer.json();
  show(
    'admin-routes',
    `${advance.status} ${journalAnswer.status} ${journalBody.entries.map((e) => `${e.path} ${e.status}`).join(',')}`,
  );
  const docs = await (await fetch('/api/docs/json')).json();
  show('docs', `${docs.openapi} ${Object.keys(docs.paths).length} ${docs.info.description}`);
  show(
    'violations',
    mock.admin
      .violations()
      .map((v) => `${v.kind} ${v.operationId}`)
      .join(','),
  );
  document.body.dataset.ready = 'true';
} catch (error) {
  show('error', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  document.body.dataset.ready = 'false';
}
