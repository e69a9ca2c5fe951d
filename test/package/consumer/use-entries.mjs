// Run by test/package-consumer.test.ts with plain `node` in a fresh project where the packed cca-kit is
// installed: imports every entry point by its public name and uses it. Prints one JSON line with what
// it saw; any failure is an uncaught error and a non-zero exit.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { getRule } from 'cca-kit';
import { ApiClient, ConformanceClient } from 'cca-kit/client';
import { renderJsonReport, runConformance } from 'cca-kit/conformance';
import { matchOperation, validateResponse, validateSchema } from 'cca-kit/contract';
import document from 'cca-kit/contract/openapi.json' with { type: 'json' };
import rules from 'cca-kit/contract/rules.json' with { type: 'json' };
import { startMockServer } from 'cca-kit/mock';
import { createHandlers } from 'cca-kit/msw';
import { setupServer } from 'msw/node';

const seen = {};

// cca-kit: the rules catalog.
seen.rule = getRule('AUTH-MISSING-KEY-401').id;
assert.equal(seen.rule, 'AUTH-MISSING-KEY-401');
assert.ok(rules.rules.length > 0);
assert.equal(document.openapi, '3.1.0');

// cca-kit/mock + cca-kit/client: start the mock, read a list with a seeded key.
const mock = await startMockServer({ port: 0, seed: 42 });
try {
  const readKey = mock.engine.admin
    .listKeys('org_acme')
    .find((k) => k.profile === 'reporting' && k.status === 'active');
  assert.ok(readKey, 'a seeded reporting key');
  const client = new ConformanceClient({ baseUrl: mock.url, keys: { read: readKey.key } });
  const api = new ApiClient(client);
  const page = await api.call('listActions', { auth: 'read', query: { pageSize: 5 } });
  await client.close();
  assert.ok(page.ok, `listActions answered ${page.status}`);
  assert.equal(page.body.data.length, 5);
  assert.equal(typeof page.body.data[0].actionId, 'string');
  seen.listed = page.body.data.length;

  // cca-kit/contract: the list just read is valid; a broken one names the missing field.
  assert.deepEqual(validateResponse('listActions', 200, page.body), { ok: true });
  const broken = validateResponse('listActions', 200, { success: true });
  assert.equal(broken.ok, false);
  seen.brokenIssue = broken.issues[0].message;
  assert.equal(validateSchema('Tag', { value: 'refund', group: 'billing' }).ok, true);
  assert.equal(validateSchema('Tag', { value: 7 }).ok, false);
  assert.equal(matchOperation('GET', '/v0/action/list').kind, 'match');

  // cca-kit/conformance: a short run of two groups against the started mock.
  const report = await runConformance({
    target: { baseUrl: mock.url, keys: { read: readKey.key } },
    seed: 1,
    runs: 2,
    only: ['docs', 'schemas'],
    allowNotRun: true,
  });
  assert.ok(report.ok, renderJsonReport(report));
  seen.conformance = { verdict: report.verdict, checks: report.checks };
} finally {
  await mock.close();
}

// cca-kit/msw: handlers answering fetch through msw/node.
const handlers = createHandlers({ baseUrl: 'https://api.example.test', clock: 'frozen' });
const server = setupServer(...handlers.handlers);
server.listen({ onUnhandledRequest: 'error' });
try {
  const [key] = handlers.admin
    .listKeys('org_acme')
    .filter((k) => k.profile === 'reporting' && k.status === 'active');
  const answer = await fetch('https://api.example.test/v0/action/list?pageSize=3', {
    headers: { 'x-api-key': key.key },
  });
  assert.equal(answer.status, 200);
  const body = await answer.json();
  assert.equal(body.data.length, 3);
  const anonymous = await fetch('https://api.example.test/v0/agents');
  assert.equal(anonymous.status, 401);
  seen.msw = { list: answer.status, anonymous: anonymous.status };
  // The admin routes through the same handlers, as the docs show them: msw 3 puts the target's `host`
  // on the request, and the in-process handlers must answer anyway.
  const before = await (await fetch('https://api.example.test/__mock/clock')).json();
  const advanced = await fetch('https://api.example.test/__mock/clock/advance', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ms: 60_000 }),
  });
  const after = await advanced.json();
  assert.equal(advanced.status, 200, JSON.stringify(after));
  assert.equal(after.clock.now - before.clock.now, 60_000);
  const keys = await fetch('https://api.example.test/__mock/keys?organizationId=org_acme');
  const reset = await fetch('https://api.example.test/__mock/reset', { method: 'POST' });
  seen.mswAdmin = { advance: advanced.status, keys: keys.status, reset: reset.status };
} finally {
  server.close();
}

// cca-kit/agent, once the package has it: the agent interface over an engine of cca-kit/mock.
if (existsSync(new URL('./node_modules/cca-kit/dist/mocks/agent/index.js', import.meta.url))) {
  const { createAgentServer, SERVER_NAME } = await import('cca-kit/agent');
  const { createEngine } = await import('cca-kit/mock');
  const agent = createAgentServer(createEngine({ seed: 42 }));
  assert.equal(typeof agent.connectInProcess, 'function');
  await agent.close();
  seen.agent = SERVER_NAME;
}

process.stdout.write(`${JSON.stringify(seen)}\n`);
