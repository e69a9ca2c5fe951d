// Run by test/package-consumer.test.ts with plain `node` in a fresh project where the packed cca-kit is
// installed: the front-end study's scenarios against the installed package only. The request journal
// under MSW (in process and at /__mock/journal), a targeted fault failing one call that a UI-like retry
// then gets through, and the client's window walk gathering every action once. Prints one JSON line;
// any failure is an uncaught error and a non-zero exit.
import { strict as assert } from 'node:assert';
import { ApiClient, ConformanceClient } from 'cca-kit/client';
import { startMockServer } from 'cca-kit/mock';
import { createHandlers, createJournal, journalOf, seededKey } from 'cca-kit/msw';
import { setupServer } from 'msw/node';

const seen = {};
const BASE = 'https://api.example.test';

const mock = createHandlers({ baseUrl: BASE, clock: 'frozen' });
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: 'error' });
try {
  const key = seededKey({ organizationId: 'org_acme', profile: 'reporting' });
  const agents = () => fetch(`${BASE}/v0/agents`, { headers: { 'x-api-key': key } });

  // The journal: what the app sent and got, read in process and through the same handlers.
  assert.equal(journalOf(mock.engine.admin), mock.journal);
  assert.equal(typeof createJournal, 'function');
  const listed = await fetch(`${BASE}/v0/action/list?pageSize=2`, { headers: { 'x-api-key': key } });
  const anonymous = await fetch(`${BASE}/v0/agents`);
  assert.deepEqual([listed.status, anonymous.status], [200, 401]);
  const recorded = mock.journal.list().map((e) => [e.operation, e.status]);
  const served = await fetch(`${BASE}/__mock/journal?status=4xx`);
  assert.equal(served.status, 200);
  const servedEntries = (await served.json()).entries;
  const detail = await (await fetch(`${BASE}/__mock/journal/${mock.journal.list()[0].seq}`)).text();
  assert.ok(!detail.includes(key), 'the journal masks the key');
  seen.journal = {
    recorded,
    served4xx: servedEntries.map((e) => [e.operation, e.status]),
  };

  // A targeted fault: the next listAgents answers 500 with the spec's error body; the UI retries.
  mock.journal.clear();
  const fault = mock.admin.faults.add({ operation: 'listAgents', status: 500 });
  const tries = [];
  let answer;
  for (let attempt = 0; attempt < 3; attempt++) {
    answer = await agents();
    tries.push(answer.status);
    if (answer.ok) break;
    if (attempt === 0) {
      seen.faultBody = await answer.json();
      seen.faultHeader = answer.headers.get('x-mock-fault');
    }
  }
  const body = await answer.json();
  assert.ok(Array.isArray(body.data), 'the retry read the agents');
  const view = mock.admin.faults.get(fault.id);
  seen.fault = {
    id: fault.id,
    tries,
    fired: view.fired,
    remaining: view.remaining,
    journal: mock.journal.list().map((e) => e.fault),
  };
  const overHttp = await (await fetch(`${BASE}/__mock/faults`)).json();
  seen.fault.listed = overHttp.faults.map((f) => [f.id, f.fired, f.remaining]);
  mock.admin.reset();
  assert.deepEqual(mock.admin.faults.list(), []);
} finally {
  server.close();
}

// The window walk of the installed client against the installed HTTP mock: a window cut out of the
// newest actions, walked four at a time, against what one request of the largest page returns for it.
const http = await startMockServer({ port: 0, seed: 42 });
try {
  const read = seededKey({ organizationId: 'org_acme', profile: 'reporting' });
  const client = new ConformanceClient({ baseUrl: http.url, keys: { read } });
  const api = new ApiClient(client);
  const newest = await api.call('listActions', { auth: 'read', query: { pageSize: 60 } });
  assert.ok(newest.ok, `listActions answered ${newest.status}`);
  const from = newest.body.data.at(-1).createdAt;
  const to = newest.body.data[5].createdAt;
  const whole = await api.call('listActions', { auth: 'read', query: { from, to, pageSize: 500 } });
  assert.ok(whole.ok && whole.body.data.length < 500, 'the window fits one page of 500');
  const held = whole.body.data.map((a) => a.actionId).sort();
  const walked = await api.actions.collect({ from, to, pageSize: 4 });
  await client.close();
  const ids = walked.map((a) => a.actionId);
  const times = walked.map((a) => Date.parse(a.createdAt));
  seen.window = {
    held: held.length,
    walked: ids.length,
    distinct: new Set(ids).size,
    same: JSON.stringify([...ids].sort()) === JSON.stringify(held),
    newestFirst: times.every((t, i) => i === 0 || times[i - 1] >= t),
  };
} finally {
  await http.close();
}

process.stdout.write(`${JSON.stringify(seen)}\n`);
