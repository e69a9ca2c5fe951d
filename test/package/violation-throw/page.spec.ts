// An SDK author's test in the consumer project (test/package-consumer.test.ts runs it with vitest against
// the installed package): the client under test sends `page=2` to the action list, which has no page
// input (LIST-NO-PAGE-INPUT). With `onViolation: 'throw'` this run must FAIL, naming the rule.

import { createHandlers, seededKey } from 'cca-kit/msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';

const mock = createHandlers({ baseUrl: 'https://api.example.test', violationLog: { onViolation: 'throw' } });
const server = setupServer(...mock.handlers);
beforeAll(() => server.listen());
afterAll(() => server.close());

it('lists the second page of actions', async () => {
  const res = await fetch('https://api.example.test/v0/action/list?pageSize=5&page=2', {
    headers: { 'X-API-Key': seededKey() },
  });
  expect(res.status).toBe(200); // the service ignores page: only the violation log can tell
  await new Promise((resolve) => setTimeout(resolve, 10));
});
