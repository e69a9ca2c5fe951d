import { seededKey } from 'cca-kit/msw';
import { mock } from 'cca-kit/vitest';
import { expect, it } from 'vitest';

const headers = () => ({ 'X-API-Key': seededKey() });

async function listPage(page: number) {
  return fetch(`https://api.example.test/v0/action/list?pageSize=5&page=${page}`, { headers: headers() });
}

it('reads the first page', async () => {
  const res = await fetch('https://api.example.test/v0/action/list?pageSize=5', { headers: headers() });
  expect(res.status).toBe(200);
});

it('lists the second page of actions', async () => {
  const res = await listPage(2);
  expect(res.status).toBe(200); // the service ignores page: only the violation log can tell
});

it('revokes the seeded key', async () => {
  mock().admin.revokeKey(seededKey());
  const res = await fetch('https://api.example.test/v0/agents', { headers: headers() });
  expect(res.status).toBe(401);
});

it('finds the seeded key working again (the mock was reset)', async () => {
  const res = await fetch('https://api.example.test/v0/agents', { headers: headers() });
  expect(res.status).toBe(200);
});
