// Type-checked by test/package-lean.test.ts in the project where @cca-kit/core and msw are installed.
import { type OperationId, validateResponse } from '@cca-kit/core/contract';
import { createHandlers, type MockHandlers } from '@cca-kit/core/msw';
import { setupServer } from 'msw/node';

const mock: MockHandlers = createHandlers({ baseUrl: 'https://api.example.test' });
setupServer(...mock.handlers);
const operation: OperationId = 'listActions';
export const valid: boolean = validateResponse(operation, 200, {}).ok;
// @ts-expect-error: not an operation of the contract
validateResponse('listEverything', 200, {});
