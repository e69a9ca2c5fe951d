/**
 * A differential run: the same seeded read requests to the mock and to live, compared by structure
 * (status, content type, JSON shape), each body also checked against the contract. Each read is sent
 * to live twice: what differs between the two live answers varies by itself and is not a difference.
 * With `allowWrites`, seeded writes follow (src/diff/writes.ts), sent once to each side and compared
 * the same way; requests to each side keep the conformance suite's manners (rate and budget).
 */
import { BudgetExhaustedError, RateLimiter, RequestBudget } from '../client/limits.ts';
import { isLoopback } from '../conformance/kit/options.ts';
import { type OperationId, validateResponse } from '../contract/index.ts';
import { isRecord } from '../drift/walk.ts';
import { declaredInContract } from './declared.ts';
import { type PlannedRequest, planReadRequests } from './requests.ts';
import { compareShapes, type Shape, shapeOf } from './shape.ts';
import { patchBody, restoreBody, type WritableField, writableField, writeBodies } from './writes.ts';

export interface DiffTarget {
  readonly baseUrl: string;
  /** A Reporting key (reads). */
  readonly key: string | undefined;
  /** A Write key (custom-field PATCH, moderation submit); writes needing it are not sent without it. */
  readonly writeKey?: string | undefined;
  /** An Import key (ingestion); the ingestion write is not sent without it. */
  readonly ingestKey?: string | undefined;
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
  /** Also send the seeded writes (default false: nothing is written). */
  readonly allowWrites?: boolean;
  /** Start of every external id a write creates; the conformance suite's `cca-conform-<runId>-`. */
  readonly prefix?: string;
  /** Requests per second to each side (default 20, unlimited on loopback; 0 is unlimited). */
  readonly maxRps?: number;
  /** Requests to each side in the whole run (default 20000). */
  readonly maxRequests?: number;
}

export interface DiffRun {
  readonly seed: number;
  /** Read requests compared (writes are counted under `writes.sent`). */
  readonly requests: number;
  readonly differences: readonly Difference[];
  /** Paths that varied between two live answers to the same request, per operation. */
  readonly volatile: Readonly<Record<string, readonly string[]>>;
  readonly skipped: readonly string[];
  /** Answers 401 or 403, per side: a run where one side refused every request compared nothing. */
  readonly refused: { readonly mock: number; readonly live: number };
  /** Requests that got no HTTP answer at all (refused connection, reset, time-out), per side. */
  readonly unanswered: { readonly mock: number; readonly live: number };
  /** Writes: whether they were allowed, the prefix of what they created, how many went to each side. */
  readonly writes: {
    readonly allowed: boolean;
    readonly prefix?: string;
    readonly sent: number;
    /** Writes not sent, each with its reason (a key absent, no id to write to). */
    readonly notSent: readonly string[];
  };
}

interface Answer {
  readonly status: number;
  readonly contentType: string;
  readonly body: unknown;
  readonly error?: string;
}

interface Outgoing {
  readonly method: 'GET' | 'POST' | 'PATCH';
  /** Path and query, `/v0/actions/list?limit=5`. */
  readonly path: string;
  readonly key: string | undefined;
  readonly json?: unknown;
}

/** One side of the run: its target and the manners every request to it keeps. */
interface Side {
  readonly target: DiffTarget;
  readonly limiter: RateLimiter;
  readonly budget: RequestBudget;
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

async function send(side: Side, out: Outgoing, timeoutMs: number, maxBytes: number): Promise<Answer> {
  const base = side.target.baseUrl;
  const url = new URL(out.path.replace(/^\//, ''), base.endsWith('/') ? base : `${base}/`);
  const headers: Record<string, string> = { accept: 'application/json' };
  if (out.key !== undefined) headers['x-api-key'] = out.key;
  if (out.json !== undefined) headers['content-type'] = 'application/json';
  side.budget.take();
  await side.limiter.acquire();
  try {
    const response = await fetch(url, {
      method: out.method,
      headers,
      ...(out.json === undefined ? {} : { body: JSON.stringify(out.json) }),
      signal: AbortSignal.timeout(timeoutMs),
    });
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

function stringField(body: unknown, field: string): string | undefined {
  const value = isRecord(body) ? body[field] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** One exchange to compare: the same request to both sides, and live's second answer for reads. */
interface Exchange {
  readonly operationId: string;
  readonly mockRequest: string;
  readonly liveRequest: string;
  readonly mock: Answer;
  readonly live: Answer;
  /** Live's answer to the same request again; absent for writes, which are sent once. */
  readonly again?: Answer;
}

class Comparison {
  readonly differences: Difference[] = [];
  readonly volatile: Record<string, string[]> = {};
  constructor(private readonly ignored: (path: string) => boolean) {}

  compare(x: Exchange): void {
    const { operationId: id, mock, live, again } = x;
    const add = (kind: DifferenceKind, where: string, detail: string) =>
      this.differences.push({
        kind,
        operationId: id,
        where,
        detail,
        request: x.mockRequest,
        key: `${kind} ${id} ${where}`,
      });
    if (mock.error !== undefined || live.error !== undefined) {
      add('mismatch', 'answer', `mock: ${mock.error ?? 'answered'}; live: ${live.error ?? 'answered'}`);
      return;
    }
    if (again !== undefined && live.status !== again.status) return; // live itself is not stable here
    if (mock.status !== live.status) {
      add('mismatch', 'status', `mock answered ${mock.status}, live ${live.status}`);
      return;
    }
    if (mock.contentType !== live.contentType)
      add(
        'mismatch',
        'content-type',
        `mock ${mock.contentType || 'none'}, live ${live.contentType || 'none'}`,
      );
    const varies = new Set(
      again === undefined
        ? []
        : compareShapes(shapeOf(live.body), shapeOf(again.body), () => false).map((d) => d.path),
    );
    if (varies.size > 0) this.volatile[id] = [...new Set([...(this.volatile[id] ?? []), ...varies])];
    const isVolatile = (path: string) =>
      [...varies].some((v) => path === v || path.startsWith(`${v}.`) || path.startsWith(`${v}[`));
    const liveIssues = contractIssues('live-violates-contract', id, live, x.liveRequest);
    const mockIssues = contractIssues('mock-violates-contract', id, mock, x.mockRequest);
    // The two deployments hold different data: a key, a type, null or an empty array on one side only
    // is data when the contract allows it there. It is a difference where the contract does not know
    // the key, or where one side breaks the contract at that path.
    const outOfContract = new Set(
      [...liveIssues, ...mockIssues].map((d) => d.where.replace(/\[\d+\]/g, '[]')),
    );
    const liveShape: Shape = shapeOf(live.body);
    for (const d of compareShapes(shapeOf(mock.body), liveShape, (p) => this.ignored(p) || isVolatile(p))) {
      const unknown = !declaredInContract(id, live.status, d.path);
      if (unknown || (d.aspect !== 'presence' && outOfContract.has(d.path))) add(d.kind, d.path, d.detail);
    }
    this.differences.push(...liveIssues, ...mockIssues);
  }
}

interface RunContext {
  readonly mock: Side;
  readonly live: Side;
  readonly timeoutMs: number;
  readonly maxBytes: number;
  readonly comparison: Comparison;
}

/** Sends a request to each side (live first, then the mock) and compares the two answers. */
async function exchange(
  ctx: RunContext,
  operationId: string,
  mockOut: Outgoing,
  liveOut: Outgoing,
): Promise<{ mock: Answer; live: Answer }> {
  const mock = await send(ctx.mock, mockOut, ctx.timeoutMs, ctx.maxBytes);
  const live = await send(ctx.live, liveOut, ctx.timeoutMs, ctx.maxBytes);
  ctx.comparison.compare({
    operationId,
    mockRequest: `${mockOut.method} ${mockOut.path}`,
    liveRequest: `${liveOut.method} ${liveOut.path}`,
    mock,
    live,
  });
  return { mock, live };
}

/**
 * The seeded writes, each to both sides: an ingestion batch, a moderation case and its status read, a
 * custom-field PATCH on the first action of each side's own list (its original value written back).
 * Returns how many writes went to each side.
 */
async function runWrites(
  ctx: RunContext,
  seed: number,
  prefix: string,
  firstActionIds: { mock: string | undefined; live: string | undefined },
  notSent: string[],
): Promise<number> {
  const bodies = writeBodies(seed, prefix);
  const { mock, live } = ctx;
  let sent = 0;
  const missing = (operationId: string, role: 'writeKey' | 'ingestKey'): boolean => {
    const env = role === 'writeKey' ? 'CCA_WRITE_KEY (a Write key)' : 'CCA_INGEST_KEY (an Import key)';
    const mockEnv = role === 'writeKey' ? 'CCA_MOCK_WRITE_KEY' : 'CCA_MOCK_INGEST_KEY';
    if (live.target[role] === undefined) notSent.push(`${operationId}: no live key; set ${env}`);
    else if (mock.target[role] === undefined) notSent.push(`${operationId}: no mock key; set ${mockEnv}`);
    else return false;
    return true;
  };

  if (!missing('ingestRecords', 'ingestKey')) {
    const out = { method: 'POST', path: '/v0/ingest/records', json: bodies.ingestion } as const;
    await exchange(
      ctx,
      'ingestRecords',
      { ...out, key: mock.target.ingestKey },
      { ...out, key: live.target.ingestKey },
    );
    sent += 1;
  }

  if (!missing('submitModerationCase', 'writeKey')) {
    const out = { method: 'POST', path: '/v0/moderation/cases', json: bodies.moderation } as const;
    const acks = await exchange(
      ctx,
      'submitModerationCase',
      { ...out, key: mock.target.writeKey },
      { ...out, key: live.target.writeKey },
    );
    sent += 1;
    const mockCase = stringField(acks.mock.body, 'caseId');
    const liveCase = stringField(acks.live.body, 'caseId');
    if (mockCase === undefined || liveCase === undefined)
      notSent.push('getModerationCase: the submit gave no caseId on one side, so its status was not read');
    else
      await exchange(
        ctx,
        'getModerationCase',
        { method: 'GET', path: `/v0/moderation/cases/${encodeURIComponent(mockCase)}`, key: mock.target.key },
        { method: 'GET', path: `/v0/moderation/cases/${encodeURIComponent(liveCase)}`, key: live.target.key },
      );
  }

  if (!missing('updateCustomFields', 'writeKey')) {
    const fields: { side: Side; actionId: string; field: WritableField }[] = [];
    for (const [name, side, actionId] of [
      ['mock', mock, firstActionIds.mock],
      ['live', live, firstActionIds.live],
    ] as const) {
      if (actionId === undefined) {
        notSent.push(`updateCustomFields: no action on ${name}'s listActions to write to`);
        continue;
      }
      const path = `/v0/actions/${encodeURIComponent(actionId)}/custom-fields`;
      const read = await send(
        side,
        { method: 'GET', path, key: side.target.key },
        ctx.timeoutMs,
        ctx.maxBytes,
      );
      const field = writableField(read.body);
      if (field === undefined)
        notSent.push(
          `updateCustomFields: action ${actionId} on ${name} has no custom field of a generable type`,
        );
      else fields.push({ side, actionId, field });
    }
    const [onMock, onLive] = fields;
    if (fields.length === 2 && onMock !== undefined && onLive !== undefined) {
      const patch = (f: typeof onMock): Outgoing => ({
        method: 'PATCH',
        path: `/v0/actions/${encodeURIComponent(f.actionId)}/custom-fields`,
        key: f.side.target.writeKey,
        json: patchBody(f.field, seed),
      });
      try {
        await exchange(ctx, 'updateCustomFields', patch(onMock), patch(onLive));
        sent += 1;
      } finally {
        for (const f of fields)
          await send(f.side, { ...patch(f), json: restoreBody(f.field) }, ctx.timeoutMs, ctx.maxBytes).catch(
            () => undefined,
          );
      }
    }
  }
  return sent;
}

function side(target: DiffTarget, maxRps: number | undefined, maxRequests: number): Side {
  return {
    target,
    limiter: new RateLimiter(maxRps ?? (isLoopback(target.baseUrl) ? 0 : 20)),
    budget: new RequestBudget(maxRequests),
  };
}

export async function runDiff(options: DiffOptions): Promise<DiffRun> {
  const comparison = new Comparison(pathMatcher(options.ignore ?? []));
  const maxRequests = options.maxRequests ?? 20_000;
  const ctx: RunContext = {
    mock: side(options.mock, options.maxRps, maxRequests),
    live: side(options.live, options.maxRps, maxRequests),
    timeoutMs: options.timeoutMs ?? 15_000,
    maxBytes: options.maxBodyBytes ?? 8 * 1024 * 1024,
    comparison,
  };
  const { requests, skipped: plannedSkips } = planReadRequests(options.seed);
  const skipped = [...plannedSkips];
  const notSent: string[] = [];
  const lists = new Map<string, { mock: unknown; live: unknown }>();
  let sent = 0;
  let writesSent = 0;
  const refused = { mock: 0, live: 0 };
  const unanswered = { mock: 0, live: 0 };
  const allowed = options.allowWrites === true;
  const prefix = options.prefix ?? 'cca-conform-diff-';
  try {
    for (const request of requests) {
      const source = request.pathFrom;
      const listed = source === undefined ? undefined : lists.get(source.operationId);
      const mockUrl = urlOf(request, source && firstField(listed?.mock, source.field));
      const liveUrl = urlOf(request, source && firstField(listed?.live, source.field));
      if (mockUrl === undefined || liveUrl === undefined) continue;
      const mock = await send(
        ctx.mock,
        { method: 'GET', path: mockUrl, key: options.mock.key },
        ctx.timeoutMs,
        ctx.maxBytes,
      );
      const liveOut: Outgoing = { method: 'GET', path: liveUrl, key: options.live.key };
      const live = await send(ctx.live, liveOut, ctx.timeoutMs, ctx.maxBytes);
      const again = await send(ctx.live, liveOut, ctx.timeoutMs, ctx.maxBytes);
      sent += 1;
      if (mock.status === 401 || mock.status === 403) refused.mock += 1;
      if (live.status === 401 || live.status === 403) refused.live += 1;
      if (mock.status === 0) unanswered.mock += 1;
      if (live.status === 0 || again.status === 0) unanswered.live += 1;
      if (request.query.length === 0 && !lists.has(request.operationId))
        lists.set(request.operationId, { mock: mock.body, live: live.body });
      comparison.compare({
        operationId: request.operationId,
        mockRequest: `GET ${mockUrl}`,
        liveRequest: `GET ${liveUrl}`,
        mock,
        live,
        again,
      });
    }
    if (allowed) {
      const actions = lists.get('listActions');
      writesSent = await runWrites(
        ctx,
        options.seed,
        prefix,
        { mock: firstField(actions?.mock, 'actionId'), live: firstField(actions?.live, 'actionId') },
        notSent,
      );
    }
  } catch (cause) {
    if (!(cause instanceof BudgetExhaustedError)) throw cause;
    skipped.push(`the rest of the run: ${cause.message}`);
  }
  const seen = new Set<string>();
  const unique = comparison.differences.filter((d) => !seen.has(d.key) && seen.add(d.key) !== undefined);
  return {
    seed: options.seed,
    requests: sent,
    differences: unique,
    volatile: comparison.volatile,
    skipped,
    refused,
    unanswered,
    writes: { allowed, ...(allowed ? { prefix } : {}), sent: writesSent, notSent },
  };
}
