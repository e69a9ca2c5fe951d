/**
 * Section 4: "All bodies and responses are JSON." Every answer a law sees has its media type checked
 * (`call` in ./support.ts); this law makes sure the error answers are among them: 401 on every route,
 * 404 and 400 with a key, and routes outside the contract (unknown path, wrong method).
 */

import type { ClientResult } from '../../src/client/types.ts';
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { apiOperations, call, callPath } from './support.ts';

function expectJsonBody(what: string, res: ClientResult): void {
  if (res.kind === 'http' && res.jsonError !== undefined)
    violate(
      'SCHEMA-JSON-BODIES',
      `not-json:${res.status}`,
      `${what}: the ${res.status} body is not JSON (${res.jsonError})`,
    );
}

export const jsonMediaType: Law = {
  id: 'status.json-media-type',
  group: 'status',
  title:
    'every answer is served as JSON, errors included: 401 on every route, 400, 404, unknown paths, wrong methods',
  ruleIds: ['SCHEMA-JSON-MEDIA-TYPE', 'SCHEMA-JSON-BODIES'],
  needs: { keys: [] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      let checks = 0;
      for (const op of apiOperations(ctx)) {
        const path: Record<string, string> = {};
        for (const name of ctx.contract.getOperation(op).pathParamNames) path[name] = `${ctx.prefix}media`;
        const method = ctx.contract.getOperation(op).method;
        const res = await call(ctx, op, { auth: 'none', path, ...(method === 'GET' ? {} : { json: {} }) });
        expectJsonBody(`${op} without a key`, res);
        checks += 1;
      }
      if (ctx.client.hasKey('read')) {
        const unknown = await call(ctx, 'getAction', {
          auth: 'read',
          path: { id: `${ctx.prefix}no-such-action` },
        });
        expectJsonBody('an unknown action', unknown);
        const bad = await call(ctx, 'listActions', { auth: 'read', query: { pageSize: 0 } });
        expectJsonBody('pageSize=0', bad);
        checks += 2;
      }
      const auth = ctx.client.hasKey('read') ? 'read' : 'none';
      for (const [method, path] of [
        ['GET', `/v0/${ctx.prefix}no-such-route`],
        ['DELETE', '/v0/action/list'],
        ['PUT', '/v0/queues'],
      ] as const) {
        const res = await callPath(ctx, method, path, { auth });
        expectJsonBody(`${method} ${path}`, res);
        checks += 1;
      }
      return checks;
    }),
};
