/**
 * The words and limits of the operations behind `execute`, in one place: the catalog's schemas
 * (`catalog-build.ts`) and the implementations read the same lists, so they cannot drift apart.
 */
import { SENTIMENTS, STATUSES } from '../../../fixtures/generate/types.ts';
import { PLATFORMS } from '../../../src/contract/load.ts';

export { PLATFORMS, SENTIMENTS, STATUSES };

/** `query.search.actions` page size: default and maximum (spec 8 shows only the example 20). */
export const SEARCH_LIMIT_DEFAULT = 20;
export const SEARCH_LIMIT_MAX = 100;
/** Longest cursor accepted (issued ones are ~200 characters plus the ids they carry). */
export const CURSOR_MAX_LENGTH = 4096;

/** Conditions of a filter group; `source` is the spec's name for the platform. */
export const CONDITION_TYPES = [
  'source',
  'status',
  'queue',
  'sentiment',
  'tag',
  'assignee',
  'responded',
] as const;
export type ConditionType = (typeof CONDITION_TYPES)[number];
export const FILTER_MAX_CONDITIONS = 20;
export const FILTER_MAX_VALUES = 100;
export const FILTER_VALUE_MAX_LENGTH = 256;

/** `query.search.tags`: default and maximum number of tags answered. */
export const TAGS_LIMIT_DEFAULT = 50;
export const TAGS_LIMIT_MAX = 500;
export const TAG_NAME_MAX_LENGTH = 200;

/** `query.analytics.actions`. */
export const MEASURES = [
  'actions',
  'messages',
  'userMessages',
  'agentMessages',
  'firstResponseTime',
  'handleTime',
  'sentimentScore',
  'csat',
  'estimatedCsat',
] as const;
export type Measure = (typeof MEASURES)[number];
export const AGGREGATIONS = ['count', 'sum', 'avg', 'min', 'max', 'p50', 'p90'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
/** `actions` has one value per action (1): only counting it makes sense. */
export const MEASURE_AGGREGATIONS: Readonly<Record<Measure, readonly Aggregation[]>> = {
  actions: ['count', 'sum'],
  messages: AGGREGATIONS,
  userMessages: AGGREGATIONS,
  agentMessages: AGGREGATIONS,
  firstResponseTime: AGGREGATIONS,
  handleTime: AGGREGATIONS,
  sentimentScore: AGGREGATIONS,
  csat: AGGREGATIONS,
  estimatedCsat: AGGREGATIONS,
};
export const GROUP_FIELDS = [
  'source',
  'status',
  'queue',
  'sentiment',
  'assignee',
  'tag',
  'responded',
  'day',
  'week',
  'month',
] as const;
export type GroupField = (typeof GROUP_FIELDS)[number];
export const ANALYTICS_MAX_LINES = 10;
export const ANALYTICS_MAX_GROUP_BY = 3;
/** Most groups one analytics answer may hold; more is refused (invalid input naming `groupBy`). */
export const ANALYTICS_MAX_ROWS = 5000;
export const ANALYTICS_SOURCES = ['actions'] as const;

/** Saved searches. */
export const SAVED_SEARCH_NAME_MAX_LENGTH = 200;
/** The engine slice's cap, restated for the catalog's prose. */
export { SAVED_SEARCHES_PER_ORGANIZATION } from '../../engine/saved-searches/index.ts';
