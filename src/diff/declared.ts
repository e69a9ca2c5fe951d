/**
 * Whether the contract declares a body path of a response (`$.data[].tags[].value`): a key the contract
 * names, or any key of a map (`additionalProperties`). A key present on one side only is data when the
 * contract declares it (optional keys come and go with the data) and a real difference when it does not.
 */
import { contractDocument } from '../contract/load.ts';
import { deref, isRecord } from '../drift/walk.ts';

const SEGMENT = /\.([A-Za-z_$][\w$]*)|\["((?:[^"\\]|\\.)*)"\]|(\[\])/g;

function responseSchema(operationId: string, status: number): unknown {
  for (const item of Object.values(contractDocument.paths ?? {})) {
    if (!isRecord(item)) continue;
    for (const op of Object.values(item)) {
      if (!isRecord(op) || op['operationId'] !== operationId) continue;
      const responses = deref(contractDocument, op['responses']);
      if (!isRecord(responses)) return undefined;
      const response = deref(contractDocument, responses[String(status)] ?? responses['default']);
      const content = isRecord(response) ? response['content'] : undefined;
      const media = isRecord(content) ? content['application/json'] : undefined;
      return isRecord(media) ? deref(contractDocument, media['schema']) : undefined;
    }
  }
  return undefined;
}

/** The schemas a value at this point may match: the schema itself and its allOf/anyOf/oneOf branches. */
function branches(schema: unknown, depth = 0): Record<string, unknown>[] {
  const resolved = deref(contractDocument, schema);
  if (!isRecord(resolved) || depth > 16) return [];
  const out = [resolved];
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = resolved[key];
    if (Array.isArray(list)) for (const b of list) out.push(...branches(b, depth + 1));
  }
  return out;
}

export function declaredInContract(operationId: string, status: number, path: string): boolean {
  let current: unknown[] = [responseSchema(operationId, status)];
  for (const match of path.slice(1).matchAll(SEGMENT)) {
    const key = match[1] ?? (match[2] === undefined ? undefined : JSON.parse(`"${match[2]}"`));
    const next: unknown[] = [];
    for (const schema of current.flatMap((s) => branches(s))) {
      if (match[3] !== undefined) {
        if (schema['items'] !== undefined) next.push(schema['items']);
        continue;
      }
      const props = schema['properties'];
      if (isRecord(props) && typeof key === 'string' && Object.hasOwn(props, key)) next.push(props[key]);
      else if (schema['additionalProperties'] !== undefined && schema['additionalProperties'] !== false)
        next.push(schema['additionalProperties'] === true ? {} : schema['additionalProperties']);
    }
    if (next.length === 0) return false;
    current = next;
  }
  return true;
}
