// Run by test/package-lean.test.ts with plain node in a project where only @cca-kit/core is installed
// (no msw): the contract and its validators work, and the MSW entry says what it needs.
import { strict as assert } from 'node:assert';
import { getRule } from '@cca-kit/core';
import { matchOperation, validateRequest, validateResponse } from '@cca-kit/core/contract';
import document from '@cca-kit/core/contract/openapi.json' with { type: 'json' };

assert.equal(document.openapi, '3.1.0');
assert.equal(getRule('AUTH-MISSING-KEY-401').id, 'AUTH-MISSING-KEY-401');
assert.equal(matchOperation('GET', '/v0/action/list').kind, 'match');
const request = validateRequest('listActions', {
  pathParams: {},
  query: new URLSearchParams('pageSize=501'),
  body: undefined,
  contentType: null,
});
assert.equal(request.ok, false);
const response = validateResponse('listActions', 200, { success: true });
assert.equal(response.ok, false);
let mswError = 'loaded';
try {
  await import('@cca-kit/core/msw');
} catch (error) {
  mswError = error.message;
}
process.stdout.write(`${JSON.stringify({ request: request.issues[0].message, mswError })}\n`);
