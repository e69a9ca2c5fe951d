/**
 * The reduced check used where the JSON Schema cannot be compiled (a browser build of cca-kit ships
 * no ajv, see package.json "browser"): the shape the loader relies on, so a malformed file is still
 * refused with its problems instead of crashing. Value ranges and enums beyond these are not checked.
 */
import type { DataProblem } from './types.ts';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export function shapeProblems(value: unknown): DataProblem[] {
  const problems: DataProblem[] = [];
  const need = (o: Obj, at: string, names: readonly string[]): void => {
    for (const name of names)
      if (typeof o[name] !== 'string')
        problems.push({ pointer: `${at}/${name}`, message: 'must be a string' });
  };
  const list = (o: Obj, name: string, each: (item: Obj, at: string) => void): void => {
    const items = o[name];
    if (items === undefined) return;
    if (!Array.isArray(items)) {
      problems.push({ pointer: `/${name}`, message: 'must be an array' });
      return;
    }
    items.forEach((item, i) => {
      if (isObj(item)) each(item, `/${name}/${i}`);
      else problems.push({ pointer: `/${name}/${i}`, message: 'must be an object' });
    });
  };
  if (!isObj(value)) return [{ pointer: '', message: 'must be a JSON object' }];
  if (value['version'] !== 1) problems.push({ pointer: '/version', message: 'must be 1' });
  if (!Array.isArray(value['organizations']))
    problems.push({ pointer: '/organizations', message: 'must be an array' });
  const arrayOf = (o: Obj, at: string, name: string, kind: 'object' | 'string'): void => {
    const items = o[name];
    if (items === undefined) return;
    const ok =
      Array.isArray(items) &&
      items.every((item) => (kind === 'object' ? isObj(item) : typeof item === 'string'));
    if (!ok) problems.push({ pointer: `${at}/${name}`, message: `must be an array of ${kind}s` });
  };
  list(value, 'organizations', (o, at) => {
    need(o, at, ['id']);
    for (const name of ['agents', 'queues', 'tags', 'closingTags', 'customFields'])
      arrayOf(o, at, name, 'object');
    arrayOf(o, at, 'tagGroups', 'string');
  });
  list(value, 'keys', (k, at) => need(k, at, ['key', 'organizationId', 'profile']));
  list(value, 'actions', (a, at) => {
    need(a, at, ['organizationId', 'actionId', 'title', 'platform', 'createdAt']);
    arrayOf(a, at, 'tags', 'string');
    arrayOf(a, at, 'closingTags', 'string');
    arrayOf(a, at, 'comments', 'object');
    if (a['customFields'] !== undefined && !isObj(a['customFields']))
      problems.push({ pointer: `${at}/customFields`, message: 'must be an object' });
    if (isObj(a['user'])) need(a['user'], `${at}/user`, ['userId', 'name', 'username']);
    else problems.push({ pointer: `${at}/user`, message: 'must be an object' });
    for (const name of ['messages', 'conversation'] as const) {
      const messages = a[name];
      if (messages === undefined) continue;
      if (!Array.isArray(messages)) problems.push({ pointer: `${at}/${name}`, message: 'must be an array' });
      else
        messages.forEach((m, k) => {
          if (isObj(m)) need(m, `${at}/${name}/${k}`, ['id', 'timestamp', 'author', 'authorType', 'message']);
          else problems.push({ pointer: `${at}/${name}/${k}`, message: 'must be an object' });
        });
    }
  });
  list(value, 'moderationCases', (c, at) => {
    need(c, at, ['organizationId', 'caseId', 'analysisStatus']);
    if (!isObj(c['submission'])) problems.push({ pointer: `${at}/submission`, message: 'must be an object' });
  });
  list(value, 'ingestionBatches', (b, at) => need(b, at, ['organizationId']));
  list(value, 'replyRequests', (r, at) =>
    need(r, at, ['organizationId', 'requestId', 'actionId', 'text', 'state']),
  );
  return problems;
}
