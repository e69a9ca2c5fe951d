/**
 * Sections 5.5 and 5.6: an expired key and a revoked key fail at once (401) on every route. Only the
 * user can give a live deployment's expired or revoked key (`CCA_EXPIRED_KEY`, `CCA_REVOKED_KEY`);
 * without them these laws are reported not run. Requests carry an empty body, so that a deployment
 * that wrongly accepts the key still writes nothing.
 */
import type { KeyRole } from '../../src/client/types.ts';
import { runExamples } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { apiOperations, call, expectConforming } from './support.ts';

function probePath(ctx: LawContext, operationId: string): Record<string, string> {
  const path: Record<string, string> = {};
  for (const name of ctx.contract.getOperation(operationId).pathParamNames) path[name] = `${ctx.prefix}probe`;
  return path;
}

function inactiveKeyLaw(id: string, role: KeyRole, rule: string, title: string): Law {
  return {
    id,
    group: 'auth',
    title,
    ruleIds: [rule, 'ERR-GENERAL-BODY'],
    needs: { keys: [role] },
    run: (ctx) =>
      runExamples(ctx, async () => {
        const ops = apiOperations(ctx);
        for (const op of ops) {
          const method = ctx.contract.getOperation(op).method;
          const res = await call(ctx, op, {
            auth: role,
            path: probePath(ctx, op),
            ...(method === 'GET' ? {} : { json: {} }),
          });
          expectConforming(ctx, op, res, {
            status: 401,
            statusRule: rule,
            what: `${op} with the ${role} key`,
          });
        }
        return ops.length;
      }),
  };
}

export const expiredKey = inactiveKeyLaw(
  'auth.expired-key',
  'expired',
  'AUTH-EXPIRED-KEY-401',
  'a key past its expiry is refused with 401 on every /v0 operation (CCA_EXPIRED_KEY)',
);

export const revokedKey = inactiveKeyLaw(
  'auth.revoked-key',
  'revoked',
  'AUTH-REVOKED-KEY-401-AT-ONCE',
  'a revoked key is refused with 401 on every /v0 operation (CCA_REVOKED_KEY)',
);
