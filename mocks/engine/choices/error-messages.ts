/**
 * Choice `errorMessages`: the text of `error` (section 7: "exact error message strings: not shown").
 * A 500 keeps the spec's `Internal server error`.
 */
import type { Choices } from '../../../src/contract/choice-points.ts';

const REASON: Readonly<Record<number, string>> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
};

export function errorMessageOut(
  choices: Pick<Choices, 'errorMessages'>,
  status: number,
  message: string,
): string {
  if (choices.errorMessages === 'descriptive') return message;
  return REASON[status] ?? message;
}
