/**
 * The targeted faults over HTTP (docs/mock.md, "Targeted faults"):
 *
 * | route | operation |
 * |---|---|
 * | `GET /__mock/faults` | every fault with its counters |
 * | `POST /__mock/faults` `{operation, key?, path?, body?, status? \| drop? \| failCase?, delayMs?, times?}` | add one (201) |
 * | `GET /__mock/faults/{id}` | one fault |
 * | `DELETE /__mock/faults/{id}` | remove one |
 * | `DELETE /__mock/faults` | remove every one |
 */
import { FaultInputError } from '../faults/index.ts';
import { AdminError } from './api.ts';
import { type AdminRoute, ok } from './route.ts';

export const faultsAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/faults',
    summary: 'The targeted faults and their counters (fired, remaining)',
    handle: ({ api }) => ok({ faults: api.faults.list() }),
  },
  {
    method: 'POST',
    path: '/__mock/faults',
    summary:
      'Add a fault: {"operation": "getAction", "status": 500, "times": 2} (or "drop": true, "failCase": true, "delayMs": 300; "key", "path", "body" narrow it)',
    handle: ({ api, body }) => {
      try {
        return ok({ fault: api.faults.add(body as Parameters<typeof api.faults.add>[0]) }, 201);
      } catch (cause) {
        if (cause instanceof FaultInputError) throw new AdminError('BAD_REQUEST', cause.message);
        throw cause;
      }
    },
  },
  {
    method: 'GET',
    path: '/__mock/faults/{id}',
    summary: 'One fault',
    handle: ({ api, params }) => ok({ fault: api.faults.get(params['id'] ?? '') }),
  },
  {
    method: 'DELETE',
    path: '/__mock/faults/{id}',
    summary: 'Remove one fault',
    handle: ({ api, params }) => ok({ removed: api.faults.remove(params['id'] ?? '') }),
  },
  {
    method: 'DELETE',
    path: '/__mock/faults',
    summary: 'Remove every fault',
    handle: ({ api }) => ok({ cleared: api.faults.clear() }),
  },
];
