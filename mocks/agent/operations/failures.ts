/** The failures the operations answer, built in one place so each names its field the same way. */
import type { AgentFailure } from '../types.ts';

export const invalidInput = (field: string, message: string): AgentFailure => ({
  kind: 'invalid_input',
  code: 'INVALID_INPUT',
  field,
  message,
});

export const notFound = (field: string, message: string): AgentFailure => ({
  kind: 'not_found',
  code: 'NOT_FOUND',
  field,
  message,
});

export const conflict = (field: string, message: string): AgentFailure => ({
  kind: 'conflict',
  code: 'CONFLICT',
  field,
  message,
});

export const forbidden = (missingScope: string, message: string): AgentFailure => ({
  kind: 'forbidden',
  code: 'FORBIDDEN',
  missingScope,
  message,
});
