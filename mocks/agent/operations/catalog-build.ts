/**
 * Builds the operation catalog, `contract/agent/operations.json`: for each operation its id, summary,
 * effect and JSON Schemas (2020-12), each schema self-contained (`$defs`), so that `spec(id)` hands an
 * agent something it can use as is. The action summary is the REST contract's own `ActionSummary`
 * (spec 2.1), copied in, so search items and REST list items are held to one schema.
 *
 *   npx tsx mocks/agent/operations/catalog-build.ts   # rewrites contract/agent/operations.json
 *
 * A test keeps the checked-in file equal to what this builds.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { contractDocument } from '../../../src/contract/load.ts';
import { RELATIVE_UNITS } from './date-range.ts';
import {
  AGGREGATIONS,
  ANALYTICS_MAX_GROUP_BY,
  ANALYTICS_MAX_LINES,
  ANALYTICS_SOURCES,
  CONDITION_TYPES,
  CURSOR_MAX_LENGTH,
  FILTER_MAX_CONDITIONS,
  FILTER_MAX_VALUES,
  FILTER_VALUE_MAX_LENGTH,
  GROUP_FIELDS,
  MEASURES,
  PLATFORMS,
  SAVED_SEARCH_NAME_MAX_LENGTH,
  SEARCH_LIMIT_DEFAULT,
  SEARCH_LIMIT_MAX,
  SENTIMENTS,
  STATUSES,
  TAG_NAME_MAX_LENGTH,
  TAGS_LIMIT_DEFAULT,
  TAGS_LIMIT_MAX,
} from './vocabulary.ts';

type Schema = Record<string, unknown>;

const GAP = 'x-spec-gap';

/**
 * The ranges the data has, stated where the REST contract leaves them open (the agent reads them
 * through spec()): estimated satisfaction is on the 1..5 scale the analytics average too, the stored
 * sentiment score is -1..1.
 */
function withDataRanges(schema: Schema): Schema {
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
  const ranged = (name: string, minimum: number, maximum: number, note: string) =>
    properties[name] === undefined
      ? {}
      : {
          [name]: {
            ...properties[name],
            minimum,
            maximum,
            description: `${String(properties[name]['description'] ?? '')} ${note}`.trim(),
          },
        };
  return {
    ...schema,
    properties: {
      ...properties,
      ...ranged(
        'estimatedCSAT',
        0,
        5,
        'On the csat scale, 1 (very dissatisfied) to 5 (very satisfied); a data file may hold 0..5; null when not estimated.',
      ),
      ...ranged(
        'sentimentScore',
        -1,
        1,
        'From -1 (very negative) to 1 (very positive); null when not scored.',
      ),
    },
  };
}

/**
 * A REST component schema with its `#/components/schemas/X` references pointed at `#/$defs/X`, less
 * the `x-rule` markers: they name the REST rule a schema states, which is nothing to a model.
 */
function restComponent(name: string): Schema {
  const schemas = contractDocument.components?.schemas as Record<string, unknown>;
  const text = JSON.stringify(schemas[name], (key, value: unknown) =>
    key === 'x-rule' ? undefined : value,
  ).replaceAll('"#/components/schemas/', '"#/$defs/');
  return JSON.parse(text) as Schema;
}

/**
 * `if filterType is <type> then every value is one of <values>`. Built from entries because a literal
 * `then` key reads as a thenable to the linter; it is JSON Schema's keyword here.
 */
function valuesWhen(type: string, values: readonly string[]): Schema {
  return Object.fromEntries([
    ['if', { properties: { filterType: { const: type } }, required: ['filterType'] }],
    ['then', { properties: { value: { type: 'array', items: { enum: [...values] } } } }],
  ]);
}

const idString = { type: 'string', minLength: 1, maxLength: 256 };

const condition: Schema = {
  type: 'object',
  description:
    'One condition: the action matches when its field equals any of the values. source = platform (spec example: TWITTER for X); status, queue (name or id; "null" for none), sentiment (label; "null" for none), tag (value or id), assignee (userId, name or email; "null" for none), responded ("true" or "false").',
  required: ['filterType', 'operator', 'value'],
  additionalProperties: false,
  properties: {
    filterType: { enum: [...CONDITION_TYPES] },
    operator: { const: 'in' },
    value: {
      type: 'array',
      minItems: 1,
      maxItems: FILTER_MAX_VALUES,
      items: { type: 'string', minLength: 1, maxLength: FILTER_VALUE_MAX_LENGTH },
    },
  },
  allOf: [
    valuesWhen('source', PLATFORMS),
    valuesWhen('status', STATUSES),
    valuesWhen('sentiment', [...SENTIMENTS, 'null']),
    valuesWhen('responded', ['true', 'false']),
  ],
  [GAP]:
    "Only source and status conditions with operator in are shown (section 4.18); the mock also accepts queue, sentiment, tag, assignee and responded. Status values are the mock's (OPEN appears in the spec; the others are not shown). Source values are the platform values of the data (TWITTER stands for X).",
};

const filterGroup: Schema = {
  type: 'object',
  description:
    'All conditions must hold (and). Conditions on different fields narrow; values of one condition widen.',
  required: ['filterType', 'filters'],
  additionalProperties: false,
  properties: {
    filterType: { const: 'and' },
    filters: { type: 'array', maxItems: FILTER_MAX_CONDITIONS, items: { $ref: '#/$defs/Condition' } },
  },
  [GAP]: 'Only and-groups of conditions are shown; nested groups and or-groups are not accepted.',
};

const dateRange: Schema = {
  description:
    'Relative ({relative: {unit, count, calendar, includeCurrent}}) or explicit ({from, to?}) window over createdAt, resolved on the engine clock in UTC. calendar: false (default) is the rolling window of count units ending now (includeCurrent has no effect); calendar: true aligns to unit boundaries (weeks start on Monday): includeCurrent: true (default) is the current partial unit and the count - 1 before it, includeCurrent: false the count complete units before the current one. Explicit: ISO 8601 dates or timestamps, date-only = midnight UTC, to inclusive and defaulting to now. Absent: the past 7 days.',
  oneOf: [
    {
      type: 'object',
      required: ['relative'],
      additionalProperties: false,
      properties: {
        relative: {
          type: 'object',
          required: ['unit', 'count'],
          additionalProperties: false,
          properties: {
            unit: { enum: [...RELATIVE_UNITS] },
            count: { type: 'integer', minimum: 1, maximum: 1000 },
            calendar: { type: 'boolean', default: false },
            includeCurrent: { type: 'boolean', default: true },
          },
        },
      },
    },
    {
      type: 'object',
      required: ['from'],
      additionalProperties: false,
      properties: {
        from: { type: 'string', minLength: 1, maxLength: 64 },
        to: { type: 'string', minLength: 1, maxLength: 64 },
      },
    },
  ],
  [GAP]:
    'The units, the defaults and the exact meaning of calendar and includeCurrent are not shown (section 4.18); the explicit form is named but not shown.',
};

const searchQueryProperties = {
  filter: { $ref: '#/$defs/FilterGroup' },
  dateRange: { $ref: '#/$defs/DateRange' },
  limit: { type: 'integer', minimum: 1, maximum: SEARCH_LIMIT_MAX, default: SEARCH_LIMIT_DEFAULT },
};

const searchDefs = {
  FilterGroup: filterGroup,
  Condition: condition,
  DateRange: dateRange,
};

/** A `query.search.actions` input without a cursor: what a saved search stores. */
const searchQuery: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: searchQueryProperties,
};

const searchInput: Schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...searchQueryProperties,
    cursor: {
      type: 'string',
      minLength: 1,
      maxLength: CURSOR_MAX_LENGTH,
      description:
        'nextCursor of the previous page, passed unchanged with the same input (any other input makes it invalid).',
    },
  },
  $defs: searchDefs,
};

const searchOutput: Schema = {
  type: 'object',
  required: ['items', 'nextCursor'],
  additionalProperties: false,
  properties: {
    items: { type: 'array', maxItems: SEARCH_LIMIT_MAX, items: { $ref: '#/$defs/ActionSummary' } },
    nextCursor: { type: ['string', 'null'], description: 'null on the last page.' },
  },
  $defs: {
    ActionSummary: withDataRanges(restComponent('ActionSummary')),
    Tag: restComponent('Tag'),
    CustomFields: restComponent('CustomFields'),
  },
  [GAP]:
    'The short-key record field dictionary (pmid, prid...) is not shown (section 2.8): items carry the REST action summary field names (section 2.1), ids byte for byte as REST shows them.',
};

const tagsInput: Schema = {
  type: 'object',
  required: ['name'],
  additionalProperties: false,
  properties: {
    name: {
      type: 'string',
      maxLength: TAG_NAME_MAX_LENGTH,
      description: 'Case-insensitive substring of the tag value or group; "" matches every tag.',
    },
    limit: { type: 'integer', minimum: 1, maximum: TAGS_LIMIT_MAX, default: TAGS_LIMIT_DEFAULT },
  },
  [GAP]: "Only the input {name} is shown; matching (case-insensitive substring) and limit are the mock's.",
};

const tagsOutput: Schema = {
  type: 'object',
  required: ['items'],
  additionalProperties: false,
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['tagId', 'tagName', 'groupName', 'actions', 'responded'],
        additionalProperties: false,
        properties: {
          tagId: { type: 'string' },
          tagName: { type: 'string' },
          groupName: { type: ['string', 'null'] },
          actions: {
            type: 'integer',
            minimum: 0,
            description: 'Actions of the organization carrying the tag.',
          },
          responded: {
            type: 'integer',
            minimum: 0,
            description: 'Of those, actions with an agent response.',
          },
        },
      },
    },
  },
  [GAP]:
    'The output of query.search.tags is not shown; the mock answers the tag analytics field names with counts over all actions.',
};

const analyticsInput: Schema = {
  type: 'object',
  required: ['v', 'source', 'lines'],
  additionalProperties: false,
  properties: {
    v: { const: 1 },
    source: { enum: [...ANALYTICS_SOURCES] },
    dateRange: { $ref: '#/$defs/DateRange' },
    filter: { $ref: '#/$defs/FilterGroup' },
    lines: {
      type: 'array',
      minItems: 1,
      maxItems: ANALYTICS_MAX_LINES,
      items: {
        type: 'object',
        required: ['measure', 'aggregation'],
        additionalProperties: false,
        properties: { measure: { enum: [...MEASURES] }, aggregation: { enum: [...AGGREGATIONS] } },
      },
      description:
        'actions (count, sum: one per action); messages, userMessages, agentMessages (counts per action); firstResponseTime, handleTime (seconds); sentimentScore (-1..1); csat (1..5); estimatedCsat (1..5, the scale of the records’ estimatedCSAT). count counts actions with a value; avg, p50, p90 are rounded to 2 decimals; a group without values answers null (0 for count and sum).',
    },
    groupBy: {
      type: 'array',
      maxItems: ANALYTICS_MAX_GROUP_BY,
      default: [],
      items: {
        type: 'object',
        required: ['field'],
        additionalProperties: false,
        properties: { field: { enum: [...GROUP_FIELDS] } },
      },
      description:
        'Empty: one total row. source = platform; assignee = the agent userId; tag = the tag value (an action counts in each of its tags, untagged ones under null); day, week (Monday), month = the UTC start date (YYYY-MM-DD) of the createdAt.',
    },
    options: {
      type: 'object',
      additionalProperties: false,
      properties: {
        fillEmpty: {
          type: 'boolean',
          default: false,
          description:
            'Also answer the groups without actions (every known value of each field, every day/week/month of the range).',
        },
      },
    },
  },
  $defs: searchDefs,
  [GAP]:
    'Measures, aggregations, group-by fields, the filter and the row shape are not shown (section 4.18); source accepts only actions (query.analytics.<source>).',
};

const groupValue = { type: ['string', 'boolean', 'null'] };

const analyticsOutput: Schema = {
  type: 'object',
  required: ['rows', 'meta', 'emptyReason'],
  additionalProperties: false,
  properties: {
    rows: {
      type: 'array',
      items: {
        type: 'object',
        required: ['group', 'values'],
        additionalProperties: false,
        properties: {
          group: {
            type: 'object',
            additionalProperties: groupValue,
            description: 'One key per groupBy field; {} for the total.',
          },
          values: {
            type: 'object',
            additionalProperties: { type: ['number', 'null'] },
            description: 'One key per line: "<measure>.<aggregation>".',
          },
        },
      },
    },
    meta: {
      type: 'object',
      required: ['queryJSON', 'dateRange', 'dateField', 'timezone'],
      additionalProperties: false,
      properties: {
        queryJSON: {
          type: 'string',
          description: 'The resolved query as JSON: defaults filled, dateRange absolute.',
        },
        dateRange: {
          type: 'object',
          required: ['from', 'to'],
          additionalProperties: false,
          properties: {
            from: { type: 'string', format: 'date-time' },
            to: { type: 'string', format: 'date-time' },
          },
          description: 'Inclusive bounds.',
        },
        dateField: { const: 'createdAt' },
        timezone: { const: 'UTC' },
      },
    },
    emptyReason: {
      enum: [null, 'no_actions_in_range', 'no_actions_match_filter'],
      description: 'null unless no action of the range matched.',
    },
  },
  [GAP]: 'The output beyond meta {queryJSON, date range, dateField} and emptyReason is not shown.',
};

const savedSearch: Schema = {
  type: 'object',
  required: ['id', 'name', 'query', 'createdAt', 'updatedAt', 'createdBy'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    query: { $ref: '#/$defs/SearchQuery' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    createdBy: { type: 'string', description: 'The name of the key that created it.' },
  },
  [GAP]: 'The saved-search object is not shown (section 2.8).',
};

const savedDefs = { SavedSearch: savedSearch, SearchQuery: searchQuery, ...searchDefs };
const savedName = { type: 'string', minLength: 1, maxLength: SAVED_SEARCH_NAME_MAX_LENGTH };
const withDefs = (schema: Schema, defs: Schema): Schema => ({ ...schema, $defs: defs });
const savedOne = withDefs({ $ref: '#/$defs/SavedSearch' }, savedDefs);
const byId: Schema = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: { id: idString },
};

export interface CatalogEntry {
  readonly id: string;
  readonly summary: string;
  readonly effect: 'read' | 'write';
  readonly inputSchema: Schema;
  readonly outputSchema: Schema;
}

export interface OperationCatalogData {
  readonly $comment: string;
  readonly version: 1;
  readonly operations: readonly CatalogEntry[];
}

export function buildCatalog(): OperationCatalogData {
  return {
    $comment:
      'GENERATED by `npx tsx mocks/agent/operations/catalog-build.ts` (mocks/agent/operations/catalog-build.ts): the operations behind execute (spec 4.18). Do not edit by hand.',
    version: 1,
    operations: [
      {
        id: 'query.search.actions',
        summary:
          'Actions of a date range (createdAt, newest first, then actionId), filtered, one page of `limit` items; follow nextCursor with the same input until it is null.',
        effect: 'read',
        inputSchema: searchInput,
        outputSchema: searchOutput,
      },
      {
        id: 'query.search.tags',
        summary:
          'Tags of the organization whose value or group contains `name` (case-insensitive), with action counts.',
        effect: 'read',
        inputSchema: tagsInput,
        outputSchema: tagsOutput,
      },
      {
        id: 'query.analytics.actions',
        summary:
          'Aggregates actions of a date range: lines of measure + aggregation, grouped by up to three fields (none: a total).',
        effect: 'read',
        inputSchema: analyticsInput,
        outputSchema: withDefs(analyticsOutput, {}),
      },
      {
        id: 'config.savedSearch.list',
        summary: "The organization's saved searches, oldest first.",
        effect: 'read',
        inputSchema: { type: 'object', additionalProperties: false, properties: {} },
        outputSchema: withDefs(
          {
            type: 'object',
            required: ['items'],
            additionalProperties: false,
            properties: { items: { type: 'array', items: { $ref: '#/$defs/SavedSearch' } } },
          },
          savedDefs,
        ),
      },
      {
        id: 'config.savedSearch.get',
        summary: 'One saved search of the organization by id.',
        effect: 'read',
        inputSchema: byId,
        outputSchema: savedOne,
      },
      {
        id: 'config.savedSearch.create',
        summary:
          'Saves a search (a query.search.actions input without cursor) under a name unique in the organization; a second create with the same name is a conflict.',
        effect: 'write',
        inputSchema: withDefs(
          {
            type: 'object',
            required: ['name', 'query'],
            additionalProperties: false,
            properties: { name: savedName, query: { $ref: '#/$defs/SearchQuery' } },
          },
          { SearchQuery: searchQuery, ...searchDefs },
        ),
        outputSchema: savedOne,
      },
      {
        id: 'config.savedSearch.update',
        summary: 'Renames a saved search and/or replaces its query.',
        effect: 'write',
        inputSchema: withDefs(
          {
            type: 'object',
            required: ['id'],
            minProperties: 2,
            additionalProperties: false,
            properties: { id: idString, name: savedName, query: { $ref: '#/$defs/SearchQuery' } },
          },
          { SearchQuery: searchQuery, ...searchDefs },
        ),
        outputSchema: savedOne,
      },
      {
        id: 'config.savedSearch.delete',
        summary: 'Deletes a saved search; deleting it again is not_found.',
        effect: 'write',
        inputSchema: byId,
        outputSchema: {
          type: 'object',
          required: ['id', 'deleted'],
          additionalProperties: false,
          properties: { id: { type: 'string' }, deleted: { const: true } },
        },
      },
    ],
  };
}

export const CATALOG_PATH = fileURLToPath(
  new URL('../../../contract/agent/operations.json', import.meta.url),
);

export const catalogText = (): string => `${JSON.stringify(buildCatalog(), null, 2)}\n`;

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(CATALOG_PATH, catalogText());
  process.stdout.write(`wrote ${CATALOG_PATH}\n`);
}
