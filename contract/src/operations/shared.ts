/**
 * Parameters, error answers and example values shared by the operation modules.
 */
import * as ex from '../examples.ts';
import type { OperationSpec, ParameterSpec, ResponseSpec } from '../operation.ts';
import type { Json } from '../schema.ts';
import { str } from '../schema.ts';

/** An operation with the method and path it is served at. */
export type Located = OperationSpec & { readonly method: string; readonly path: string };

export const ISO_DATE_OR_TIMESTAMP =
  '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|[+-]\\d{2}(:?\\d{2})?)?)?$';

export const dateParam = (
  name: 'from' | 'to',
  examples?: Record<string, Json>,
  invalidExamples?: Record<string, Json>,
): ParameterSpec => ({
  name,
  in: 'query',
  description:
    name === 'from'
      ? 'Window start: ISO 8601 date or timestamp; a date-only value is midnight UTC.'
      : 'Window end, inclusive: ISO 8601 date or timestamp; a date-only value is midnight UTC of that date (not the end of that date).',
  schema: str({ pattern: ISO_DATE_OR_TIMESTAMP }),
  ...(examples ? { examples } : {}),
  ...(invalidExamples ? { invalidExamples } : {}),
});

export const window = (from?: Record<string, Json>, to?: Record<string, Json>): ParameterSpec[] => [
  dateParam('from', from, { malformedWindow: 'last tuesday' }),
  dateParam('to', to),
];

export const lastWeek = { lastWeek: '2026-11-13' };
export const lastWeekEnd = { lastWeek: '2026-11-20' };

export const err = (error: string): Json => ({ success: false, error });

export const UNDECLARED_400 =
  'The per-endpoint table of section 7 does not list 400 for this operation; how a malformed query parameter is answered is not shown. The cca-kit mock answers 400 with the general error body.';

export const badQuery = (examples: Record<string, Json>): ResponseSpec => ({
  description: 'A query parameter is malformed (for example from/to not an ISO 8601 date or timestamp).',
  schema: 'ErrorBody',
  examples,
  gap: UNDECLARED_400,
});

export const malformedWindow = {
  malformedWindow: err('query parameter from must be an ISO 8601 date or timestamp'),
};

/** Transport-level answers for operations with a body; the spec lists neither status. */
export const bodyTransportErrors = (schema: string): Record<number, ResponseSpec> => ({
  413: {
    description: 'The body is larger than the server accepts.',
    schema,
    examples: { bodyTooLarge: err('Request body exceeds the limit of 1048576 bytes') },
    gap: 'Request body size limits are not shown (section 8). The cca-kit mock accepts up to 1 MiB.',
  },
  415: {
    description: 'The body is not sent as application/json.',
    schema,
    examples: { wrongContentType: err('Content-Type must be application/json (got text/plain)') },
    gap: 'All bodies are JSON (section 4); the status for another content type is not shown. The mock answers 415.',
  },
});

export const malformedJson = err('Request body is not valid JSON: Unexpected end of JSON input');
export const badPathEncoding = err('Path segment is not valid percent-encoding: %E0%A4%A');

/** A request that cannot be read at all: a body that is not JSON, a path segment that is not valid %-encoding. */
export const unreadable = (schema: string, withBody: boolean): ResponseSpec => ({
  description: withBody
    ? 'The request cannot be read: the body is not JSON, or a path segment is not valid percent-encoding.'
    : 'The request cannot be read: a path segment is not valid percent-encoding.',
  schema,
  examples: withBody ? { malformedJson, badPathEncoding } : { badPathEncoding },
  gap: 'The per-endpoint table of section 7 does not list 400 for this operation; how an unreadable request is answered is not shown. The cca-kit mock answers 400 with the general error body.',
});

export const NO_AD_POLICY_GAP =
  'The spec says only that moderation requests of an organization not in ad_policy mode are refused; the status is not shown. The mock answers 403 (a permission of the organization, like a missing scope) with supported: ["ad_policy"].';
export const MODERATION_STATUS_GAP =
  'Which of 400 and 422 carries MODERATION_INPUT_INCOMPLETE and which MODERATION_INPUT_INVALID is not shown. The mock answers 400 for a missing required field and 422 for a present but invalid value.';

export const changedSubmission: Json = {
  ...ex.moderationSubmission,
  title: 'Winter jackets, 40% off this week',
};

export const submissionWithout = (key: string): Json =>
  Object.fromEntries(Object.entries(ex.moderationSubmission).filter(([k]) => k !== key));

/** What differs between the read-only reports over a date window (agents, queues, analytics). */
export interface WindowedReport {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description: string;
  readonly tag: string;
  /** The 200 body's component and its `lastWeek` example. */
  readonly schema: string;
  readonly example: Json;
  readonly successDescription: string;
  readonly parameters?: readonly ParameterSpec[];
  readonly errors?: Readonly<Record<number, ResponseSpec>>;
}

/**
 * A GET over `from`/`to` with a `lastWeek` example pair and the undeclared-400 for a malformed window:
 * the shape shared by agents, queues and the five analytics reports.
 */
export const windowedReport = (report: WindowedReport): Located => ({
  method: 'get',
  path: report.path,
  operationId: report.operationId,
  summary: report.summary,
  description: report.description,
  tag: report.tag,
  scope: 'read',
  parameters: [...window(lastWeek, lastWeekEnd), ...(report.parameters ?? [])],
  success: {
    status: 200,
    description: report.successDescription,
    schema: report.schema,
    examples: { lastWeek: report.example },
  },
  errors: { 400: badQuery(malformedWindow), ...report.errors },
});
