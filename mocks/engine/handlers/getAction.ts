/** GET /v0/action/{id} (spec 4.2): the detail record; 404 for an unknown id or another organization's. */
import { notFound, ok } from '../records/results.ts';
import { detailBytes } from '../records/serialised.ts';
import { findRow, orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import { SerialisedJson } from '../types.ts';
import type { Handler } from './context.ts';

export const getAction: Handler<EngineState> = (ctx) => {
  const id = ctx.pathParams['id'] ?? '';
  const org = orgData(ctx.state.data, ctx.organization.id);
  const row = findRow(org, id);
  if (row < 0) return notFound('Action', id);
  return ok(new SerialisedJson([detailBytes(org, row)]));
};
