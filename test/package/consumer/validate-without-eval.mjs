// Run by test/package-consumer.test.ts with `node --disallow-code-generation-from-strings`: `new Function`
// throws, so ajv cannot compile a validator at run time, and every validation of the contract must go
// through the validators the build compiled ahead of time (request, response and component ones).
import { strict as assert } from 'node:assert';
import { validateRequest, validateResponse, validateSchema } from 'cca-kit/contract';

const tooLarge = validateRequest('listActions', {
  pathParams: {},
  query: new URLSearchParams('pageSize=501'),
  body: undefined,
  contentType: null,
});
assert.equal(tooLarge.ok, false);
const broken = validateResponse('getAction', 200, { success: true, data: { actionId: 7 } });
assert.equal(broken.ok, false);
assert.equal(validateSchema('Tag', { value: 'refund', group: 'billing' }).ok, true);
process.stdout.write(
  `${JSON.stringify({ request: tooLarge.issues[0].message, response: broken.issues.length })}\n`,
);
