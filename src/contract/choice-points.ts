/**
 * The points where the spec leaves a deployment free to choose (`x-spec-gap`), each with the values a
 * deployment may take there: data only, beside the contract whose gaps they name, so the mock (which
 * takes each value, mocks/engine/choices/) and the spec-gap table of docs/contract.md read them from
 * here. The first value is the default (the mock's behaviour before choices existed), so an engine
 * without `choices` answers as it always did.
 */

export interface ChoicePoint {
  /** The mock's behaviour before choices existed: every existing test runs on it. */
  readonly default: string;
  /** What the spec leaves open (the wording of docs/contract.md). */
  readonly gap: string;
  /** Every value the mock accepts at this point, each with what it does. */
  readonly values: Readonly<Record<string, string>>;
  /** Values beyond the listed ones (a cap is any positive integer); listed ones are always accepted. */
  readonly accepts?: (value: string) => boolean;
}

const POSITIVE_INTEGER = /^[1-9]\d{0,8}$/;

export const CHOICE_POINTS = {
  validationStatus: {
    default: '422',
    gap: 'The status of a request body that fails validation outside moderation (PATCH custom fields, ingestion): 400 or 422 (section 7: not shown).',
    values: {
      '422': '422 with the general error body (custom fields add `fieldErrors`)',
      '400': '400 with the same body',
    },
  },
  noAdPolicyStatus: {
    default: '403',
    gap: 'The status that refuses moderation for an organization not in `ad_policy` mode (section 7: "the request is refused").',
    values: {
      '403': '403 with `supported: ["ad_policy"]`',
      '400': '400 with `supported`',
      '409': '409 with `supported` where the operation declares 409, else 403',
      '422': '422 with `supported` where the operation declares 422, else 403',
    },
  },
  filterKeys: {
    default: 'all',
    gap: 'Which filter DSL keys exist beyond the spec sample (4.13: "not shown beyond key=value terms joined with +").',
    values: {
      all: 'the keys of docs/data.md (platform, status, queue, sentiment, assignee, tag, responded...)',
      spec: 'only the keys 4.1 implies: platform, queue, status',
    },
  },
  unknownFilterKey: {
    default: '400',
    gap: 'The answer to a filter DSL term whose key the deployment does not know (not shown).',
    values: {
      '400': '400 naming the key',
      ignore: '200, the term ignored',
    },
  },
  docsPathParams: {
    default: 'contract',
    gap: 'Path parameter names in `/docs/json` (OpenAPI templates match whatever the parameter is called).',
    values: {
      contract: 'the contract names (`{id}`, `{actionId}`, `{caseId}`)',
      id: 'every path parameter named `{id}`',
    },
  },
  actionStatuses: {
    default: 'contract',
    gap: 'Action `status` values beyond OPEN (section 3: "not shown").',
    values: {
      contract: 'OPEN, PENDING, ESCALATED, CLOSED, CANCELLED',
      alternate: 'OPEN, WAITING, ON_HOLD, RESOLVED, DISMISSED (the filter DSL takes these names)',
    },
  },
  durationFormat: {
    default: 'iso8601',
    gap: 'The format of `firstResponseTime` and `handleTime` ("exported duration values", 2.1).',
    values: {
      iso8601: 'ISO 8601 durations (`PT1H2M3S`)',
      seconds: 'whole seconds as a string (`3723`)',
      clock: 'hours, minutes and seconds (`01:02:03`)',
    },
  },
  rowShapes: {
    default: 'contract',
    gap: 'Item shapes of agent-detail `metrics` and `queues`, tag volume `data` rows and `conversionFunnel` (2.5: "arrays of objects").',
    values: {
      contract:
        'the mock shapes of docs/data.md ({day, ...metrics}, {queueId, queueName, totalActions, workload}, {day, tagId, tagName, count, responded}, {stage, count, percentage})',
      alternate:
        'other objects ({date, values}, {queue: {id, name}, actions}, {period, tag: {id, name}, total}, {name, value, rate})',
    },
  },
  moderationTimings: {
    default: 'default',
    gap: 'How long a moderation case takes from pending to completed (section 3: transitions not shown).',
    values: {
      default: 'the `moderation.latency` option (running after 1 s, completed after 3 s)',
      instant: 'completed at once',
      slow: 'running after 10 s, completed after 30 s',
    },
  },
  totalRecordsCap: {
    default: '10000',
    gap: 'Where conversation search stops counting (`totalRecordsCapped`, 4.13).',
    values: { '10000': '10000 (or the `searchCap` option)', '1000': '1000', '100': '100' },
    accepts: (value) => POSITIVE_INTEGER.test(value),
  },
  tagLimitMax: {
    default: 'none',
    gap: 'The bounds of tag analytics `limit` (4.8: "limit number"; section 8: its default and bounds not shown).',
    values: {
      none: 'any positive integer limit',
      '100': 'a limit above 100 refused with 400 naming the bound',
      '50': 'a limit above 50 refused with 400 naming the bound',
    },
    accepts: (value) => POSITIVE_INTEGER.test(value),
  },
  errorMessages: {
    default: 'descriptive',
    gap: 'Error message strings (section 7: "not shown"; 500 keeps `Internal server error`).',
    values: {
      descriptive: 'a sentence naming the operation, parameter or field',
      terse: 'the HTTP reason phrase (`Bad Request`, `Not Found`...)',
    },
  },
  nestedIncompleteCode: {
    default: 'incomplete',
    gap: 'The moderation `code` of a submission missing a field inside an item (`media[0].url`).',
    values: {
      incomplete: 'MODERATION_INPUT_INCOMPLETE, the field in `missingFields`',
      invalid: 'MODERATION_INPUT_INVALID, the field in `invalidFields`',
    },
  },
  moderationInputStatus: {
    default: 'split',
    gap: 'Which of 400 and 422 carries MODERATION_INPUT_INCOMPLETE and which MODERATION_INPUT_INVALID (section 7).',
    values: {
      split: '400 for incomplete, 422 for invalid',
      '400': '400 for both',
      '422': '422 for both',
    },
  },
} as const satisfies Record<string, ChoicePoint>;

export type ChoiceName = keyof typeof CHOICE_POINTS;

/** The chosen value of every point (listed values typed; a cap is any positive integer string). */
export type Choices = {
  readonly [K in ChoiceName]: K extends 'totalRecordsCap' | 'tagLimitMax'
    ? string
    : Extract<keyof (typeof CHOICE_POINTS)[K]['values'], string>;
};

export const CHOICE_NAMES = Object.keys(CHOICE_POINTS) as ChoiceName[];

/** The listed values of one point, the default first (integer-like keys would sort first otherwise). */
export function choiceValues(name: ChoiceName): readonly string[] {
  const point: ChoicePoint = CHOICE_POINTS[name];
  return [point.default, ...Object.keys(point.values).filter((v) => v !== point.default)];
}
