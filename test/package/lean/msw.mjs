// Run by test/package-lean.test.ts with plain node once msw is installed beside @cca-kit/core: the
// handlers answer fetch through msw/node.
import { strict as assert } from 'node:assert';
import { createHandlers } from '@cca-kit/core/msw';
import { setupServer } from 'msw/node';

const mock = createHandlers({ baseUrl: 'https://api.example.test', clock: 'frozen' });
const server = setupServer(...mock.handlers);
server.listen({ onUnhandledRequest: 'error' });
try {
  const key = mock.admin.listKeys('org_acme').find((k) => k.profile === 'reporting' && k.status === 'active');
  const list = await fetch('https://api.example.test/v0/action/list?pageSize=3', {
    headers: { 'x-api-key': key.key },
  });
  assert.equal(list.status, 200);
  assert.equal((await list.json()).data.length, 3);
  const anonymous = await fetch('https://api.example.test/v0/agents');
  process.stdout.write(`${JSON.stringify({ list: list.status, anonymous: anonymous.status })}\n`);
} finally {
  server.close();
}
