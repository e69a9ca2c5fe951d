/**
 * Checks of the reply tools' arguments. The MCP layer validates them against the schemas of
 * `contract/agent/replies.json` first; these checks say the same in process (an embedder calling a
 * handler directly) and cover what a schema cannot (a text of only spaces).
 */

import { MAX_ID_LENGTH, MAX_TEXT_CODE_POINTS, type PreparedInput } from '../../engine/replies/index.ts';
import { type AgentFailure, type Outcome, succeed } from '../types.ts';

/** A UUID in its canonical text form (any version); compared byte for byte, as every id is. */
export const UUID_PATTERN = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$/;

const invalid = (field: string, message: string): { ok: false; failure: AgentFailure } => ({
  ok: false,
  failure: { kind: 'invalid_input', code: 'INVALID_INPUT', field, message },
});

const codePoints = (text: string): number => {
  let count = 0;
  for (const _ of text) count++;
  return count;
};

function onlyKnown(args: Record<string, unknown>, known: readonly string[], tool: string): Outcome<true> {
  for (const name of Object.keys(args)) {
    if (!known.includes(name))
      return invalid(
        `/${name}`,
        `${tool}: unknown argument ${JSON.stringify(name)}; expected ${known.join(', ')}`,
      );
  }
  return succeed(true);
}

export function requestIdOf(args: Record<string, unknown>, tool: string): Outcome<string> {
  const value = args['requestId'];
  if (typeof value !== 'string')
    return invalid('/requestId', `${tool}: requestId is required, a UUID string (got ${describe(value)})`);
  if (!UUID_PATTERN.test(value))
    return invalid(
      '/requestId',
      `${tool}: requestId must be a UUID like 0f8fad5b-d9cb-469f-a165-70867728950e`,
    );
  return succeed(value);
}

/** The argument list of review_reply and open_reply: `requestId` only. */
export function requestIdOnly(args: Record<string, unknown>, tool: string): Outcome<string> {
  const known = onlyKnown(args, ['requestId'], tool);
  return known.ok ? requestIdOf(args, tool) : known;
}

export function preparedInputOf(
  args: Record<string, unknown>,
): Outcome<{ readonly requestId: string; readonly input: PreparedInput }> {
  const tool = 'prepare_reply';
  const known = onlyKnown(args, ['actionId', 'text', 'requestId', 'serverId', 'isPublicReply'], tool);
  if (!known.ok) return known;
  const requestId = requestIdOf(args, tool);
  if (!requestId.ok) return requestId;
  const actionId = args['actionId'];
  if (typeof actionId !== 'string' || actionId.length === 0 || actionId.length > MAX_ID_LENGTH) {
    return invalid(
      '/actionId',
      `${tool}: actionId must be a string of 1..${MAX_ID_LENGTH} characters, exactly as REST shows it (got ${describe(actionId)})`,
    );
  }
  const text = args['text'];
  if (typeof text !== 'string')
    return invalid('/text', `${tool}: text is required, the exact reply text (got ${describe(text)})`);
  if (text.trim().length === 0) return invalid('/text', `${tool}: text must not be empty or only spaces`);
  const length = codePoints(text);
  if (length > MAX_TEXT_CODE_POINTS)
    return invalid(
      '/text',
      `${tool}: text has ${length} characters; at most ${MAX_TEXT_CODE_POINTS} are accepted`,
    );
  const serverId = args['serverId'];
  if (
    serverId !== undefined &&
    (typeof serverId !== 'string' || serverId.length === 0 || serverId.length > MAX_ID_LENGTH)
  ) {
    return invalid(
      '/serverId',
      `${tool}: serverId, when given, must be a string of 1..${MAX_ID_LENGTH} characters`,
    );
  }
  const isPublicReply = args['isPublicReply'];
  if (isPublicReply !== undefined && typeof isPublicReply !== 'boolean')
    return invalid('/isPublicReply', `${tool}: isPublicReply, when given, must be true or false`);
  return succeed({
    requestId: requestId.value,
    input: {
      actionId,
      text,
      serverId: serverId ?? null,
      isPublicReply: isPublicReply ?? null,
    },
  });
}

/** Whether two prepare_reply inputs are the same (every argument as given, byte for byte). */
export const sameInput = (a: PreparedInput, b: PreparedInput): boolean =>
  a.actionId === b.actionId &&
  a.text === b.text &&
  a.serverId === b.serverId &&
  a.isPublicReply === b.isPublicReply;

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
