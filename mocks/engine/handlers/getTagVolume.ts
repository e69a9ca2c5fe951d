/**
 * GET /v0/analytics/tags/volume (spec 4.9): per day and tag, the number of window actions carrying
 * the tag. Tags are the `tagIds` given (comma-separated) or the top `topTagsLimit` (default 10).
 */
import { rangeKey, rememberedAnswer } from '../records/answer-cache.ts';
import { resolveWindow } from '../records/dates.ts';
import { tagVolume } from '../records/reports.ts';
import { badRequest, boolParam, intParam, ok, stringParam } from '../records/results.ts';
import { orgData } from '../records/state.ts';
import type { EngineState } from '../state.ts';
import type { Handler } from './context.ts';

export const TOP_TAGS_DEFAULT = 10;

export const getTagVolume: Handler<EngineState> = (ctx) => {
  const op = ctx.operationId;
  const window = resolveWindow(ctx.query, ctx.clock.now());
  if (!window.ok) return badRequest(op, window.error);
  const top = intParam(ctx.query, 'topTagsLimit', TOP_TAGS_DEFAULT, 1, 10_000);
  if (!top.ok) return badRequest(op, top.error);
  const rawIds = stringParam(ctx.query, 'tagIds');
  const tagIds =
    rawIds === undefined
      ? undefined
      : rawIds
          .split(',')
          .map((s) => s.trim())
          .filter((s) => s !== '');
  const org = orgData(ctx.state.data, ctx.organization.id);
  const options = {
    respondedOnly: boolParam(ctx.query, 'respondedOnly') === true,
    topTagsLimit: top.value,
    tagIds: tagIds !== undefined && tagIds.length > 0 ? tagIds : undefined,
  };
  const key = [
    'tagVolume',
    rangeKey(org.byCreated, window.value),
    options.respondedOnly,
    options.topTagsLimit,
    options.tagIds === undefined ? null : JSON.stringify(options.tagIds),
  ];
  return ok(
    rememberedAnswer(ctx.state.data, org, key, () => ({
      success: true,
      data: tagVolume(org, window.value, options),
    })),
  );
};
