/**
 * A differential run: the same seeded read requests to the mock and to live, compared by structure
 * (status, content type, JSON shape), each body also checked against the contract. Each request is sent
 * to live twice: what differs between the two live answers varies by itself and is not a difference.
 */
import { type OperationId, validateResponse } from '../contract/index.ts';
import { isRecord } from '../drift/walk.ts';
import { declaredInContract } from './declared.ts';
import { type PlannedRequest, planReadRequests } from './requests.ts';
import { compareShapes, type Shape, shapeOf } from './shape.ts';

export interface DiffTarget {
  readonly baseUrl: string;
  readonly key: string | undefined;
}

export type DifferenceKind =
  | 'mock-only'
  | 'live-only'
  | 'mismatch'
  | 'live-violates-contract'
  | 'mock-violates-contract';

export interface Difference {
  readonly kind: DifferenceKind;
  readonly operationId: string;
  /** `status`, `content-type`, or a JSON path of the body. */
  readonly where: string;
  readonly detail: string;
  /** The request that shows it (on the mock; live got the same one). */
  readonly request: string;
  /** Stable across seeds and data: what a baseline file lists. */
  readonly key: string;
}

export interface DiffOptions {
  readonly mock: DiffTarget;
  readonly live: DiffTarget;
  readonly seed: number;
  /** JSON paths (`$.data[].tags`, `*` for any key) ignored with everything under them. */
  readonly ignore?: readonly string[];
  readonly timeoutMs?: number;
  readonly maxBodyBytes?: number;
}

export interface DiffRun {
  readonly seed: number;
  readonly requests: number;
  readonly differences: readonly Difference[];
  /** Paths that varied between two live answers to the same request, per operation. */
  readonly volatile: Readonly<Record<string, readonly string[]>>;
  readonly skipped: readonly string[];
  /** Answers 401 or 403, per side: a run where one side refused every request compared nothing. */
  readonly refused: { readonly mock: number; readonly live: number };
}

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: unknown;
  readonly error?: string;
}

/** The body as text, or undefined (and the rest cancelled) once it passes `maxBytes`. */
async function boundedText(response: Response, maxBytes: number): Promise<string | undefined> {
  const reader = response.body?.getReader();
  if (reader === undefined) return '';
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await reader.read();
    if (next.done) break;
    total += next.value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(next.value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function send(target: DiffTarget, path: string, timeoutMs: number, maxBytes: number): Promise<Answer> {
  const url = new URL(
    path.replace(/^\//, ''),
    target.baseUrl.endsWith('/') ? target.baseUrl : `${target.baseUrl}/`,
  );
  const headers: Record<string, string> = { accept: 'application/json' };
  if (target.key !== undefined) headers['x-api-key'] = target.key;
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
    const text = await boundedText(response, maxBytes);
    if (text === undefined)
      return {
        status: response.status,
        contentType: '',
        body: undefined,
        error: `body over ${maxBytes} bytes`,
      };
    const contentType =
      (response.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    let body: unknown;
    if (contentType.includes('json')) {
      try {
        body = JSON.parse(text);
      } catch {
        return { status: response.status, contentType, body: undefined, error: 'body is not JSON' };
      }
    }
    return { status: response.status, contentType, body };
  } catch (cause) {
    return { status: 0, contentType: '', body: undefined, error: `no answer (${(cause as Error).message})` };
  }
}

function pathMatcher(patterns: readonly string[]): (path: string) => boolean {
  const regexes = patterns.map((p) => {
    const source = p
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('[^.\\[]+');
    return new RegExp(`^${source}(?:$|[.\\[])`);
  });
  return (path) => regexes.some((r) => r.test(path));
}

function firstField(body: unknown, field: string): string | undefined {
  const data = isRecord(body) ? body['data'] : undefined;
  const first = Array.isArray(data) ? data[0] : undefined;
  const value = isRecord(first) ? first[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function urlOf(request: PlannedRequest, id: string | undefined): string | undefined {
  let path = request.route;
  if (request.pathFrom !== undefined) {
    if (id === undefined) return undefined;
    path = path.replace(`{${request.pathFrom.param}}`, encodeURIComponent(id));
  }
  const query = new URLSearchParams(request.query.map(([k, v]) => [k, v]));
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

function contractIssues(
  kind: DifferenceKind,
  operationId: string,
  answer: Answer,
  request: string,
): Difference[] {
  if (answer.body === undefined) return [];
  const result = validateResponse(operationId as OperationId, answer.status, answer.body);
  if (result.ok) return [];
  return result.issues.slice(0, 5).map((issue) => ({
    kind,
    operationId,
    where: issue.field === '' ? '$' : `$.${issue.field}`,
    detail: `${answer.status}: ${issue.message}`,
    request,
    // Indices folded and the offending value left out, so the key holds across data and seeds.
    key: `${kind} ${operationId} ${answer.status} ${issue.field.replace(/\[\d+\]/g, '[]')} ${issue.keyword}`,
  }));
}

export async function runDiff(options: DiffOptions): Promise<DiffRun> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const maxBytes = options.maxBodyBytes ?? 8 * 1024 * 1024;
  const ignored = pathMatcher(options.ignore ?? []);
  const { requests, skipped } = planReadRequests(options.seed);
  const differences: Difference[] = [];
  const volatile: Record<string, string[]> = {};
  const lists = new Map<string, { mock: unknown; live: unknown }>();
  let sent = 0;
  const refused = { mock: 0, live: 0 };
  for (const request of requests) {
    const source = request.pathFrom;
    const listed = source === undefined ? undefined : lists.get(source.operationId);
    const mockUrl = urlOf(request, source && firstField(listed?.mock, source.field));
    const liveUrl = urlOf(request, source && firstField(listed?.live, source.field));
    if (mockUrl === undefined || liveUrl === undefined) continue;
    const mock = await send(options.mock, mockUrl, timeoutMs, maxBytes);
    const live = await send(options.live, liveUrl, timeoutMs, maxBytes);
    const again = await send(options.live, liveUrl, timeoutMs, maxBytes);
    sent += 1;
    if (mock.status === 401 || mock.status === 403) refused.mock += 1;
    if (live.status === 401 || live.status === 403) refused.live += 1;
    if (request.query.length === 0 && !lists.has(request.operationId))
      lists.set(request.operationId, { mock: mock.body, live: live.body });
    const id = request.operationId;
    const add = (kind: DifferenceKind, where: string, detail: string, key = `${kind} ${id} ${where}`) =>
      differences.push({ kind, operationId: id, where, detail, request: `GET ${mockUrl}`, key });
    if (mock.error !== undefined || live.error !== undefined) {
      add('mismatch', 'answer', `mock: ${mock.error ?? 'answered'}; live: ${live.error ?? 'answered'}`);
      continue;
    }
    if (live.status !== again.status) continue; // live itself is not stable here
    if (mock.status !== live.status) {
      add('mismatch', 'status', `mock answered ${mock.status}, live ${live.status}`);
      continue;
    }
    if (mock.contentType !== live.contentType)
      add(
        'mismatch',
        'content-type',
        `mock ${mock.contentType || 'none'}, live ${live.contentType || 'none'}`,
      );
    const varies = new Set(
      compareShapes(shapeOf(live.body), shapeOf(again.body), () => false).map((d) => d.path),
    );
    if (varies.size > 0) volatile[id] = [...new Set([...(volatile[id] ?? []), ...varies])];
    const isVolatile = (path: string) =>
      [...varies].some((v) => path === v || path.startsWith(`${v}.`) || path.startsWith(`${v}[`));
    const liveIssues = contractIssues('live-violates-contract', id, live, `GET ${liveUrl}`);
    const mockIssues = contractIssues('mock-violates-contract', id, mock, `GET ${mockUrl}`);
    // The two deployments hold different data: a key, a type, null or an empty array on one side only
    // is data when the contract allows it there. It is a difference where the contract does not know
    // the key, or where one side breaks the contract at that path.
    const outOfContract = new Set(
      [...liveIssues, ...mockIssues].map((d) => d.where.replace(/\[\d+\]/g, '[]')),
    );
    const liveShape: Shape = shapeOf(live.body);
    for (const d of compareShapes(shapeOf(mock.body), liveShape, (p) => ignored(p) || isVolatile(p))) {
      const unknown = !declaredInContract(id, live.status, d.path);
      if (unknown || (d.aspect !== 'presence' && outOfContract.has(d.path))) add(d.kind, d.path, d.detail);
    }
    differences.push(...liveIssues, ...mockIssues);
  }
  const seen = new Set<string>();
  const unique = differences.filter((d) => !seen.has(d.key) && seen.add(d.key) !== undefined);
  return { seed: options.seed, requests: sent, differences: unique, volatile, skipped, refused };
}
