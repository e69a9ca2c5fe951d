/**
 * Before any law runs: is the base URL this API at all (one request to `/docs/json`, no key
 * needed)? Is each key of the environment accepted where it should be? Is there an agent interface?
 * So that a typo in the URL, a rotated key or a missing MCP endpoint ends in one clear line instead
 * of every law failing.
 */
import { ConformanceClient } from '../client/client.ts';
import { type Auth, KEY_ENV, KEY_ROLES, type KeyRole, type Keys, type RequestSpec } from '../client/types.ts';
import type { Contract } from '../contract/contract.ts';
import type { McpEndpoint } from './kit/mcp/endpoint.ts';
import { initializeRequest, postRaw, type RawAnswer } from './kit/mcp/raw.ts';
import { poolTransport } from './transport.ts';

export type Preflight = { readonly ok: true } | { readonly ok: false; readonly problem: string };

function excerpt(raw: string): string {
  const flat = raw.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}...` : flat;
}

/**
 * Checks that `GET {baseUrl}/docs/json` answers an OpenAPI document describing at least one `/v0`
 * path of the contract. A deployment whose document differs in details still passes: the laws judge
 * those; this only stops runs against something that is not this API.
 *
 * @example
 * ```ts
 * const pre = await preflight('http://127.0.0.1:4010', contract);
 * if (!pre.ok) console.error(pre.problem);
 * ```
 */
export async function preflight(baseUrl: string, contract: Contract, timeoutMs = 15_000): Promise<Preflight> {
  const client = new ConformanceClient({
    baseUrl,
    keys: {},
    timeoutMs,
    transport: poolTransport(baseUrl, 1),
  });
  const tried = `GET ${baseUrl.replace(/\/+$/, '')}/docs/json`;
  try {
    const res = await client.request({ method: 'GET', path: '/docs/json', auth: 'none' });
    if (res.kind === 'network')
      return { ok: false, problem: `${tried}: no answer (${res.error.code}: ${res.error.message})` };
    if (res.status !== 200)
      return {
        ok: false,
        problem: `${tried}: answered ${res.status}, not the OpenAPI document: ${excerpt(res.raw)}`,
      };
    const doc: unknown = res.ok ? res.body : undefined;
    if (res.jsonError !== undefined || typeof doc !== 'object' || doc === null || Array.isArray(doc))
      return {
        ok: false,
        problem: `${tried}: answered 200 ${res.headers['content-type'] ?? '(no content-type)'} that is not a JSON object: ${excerpt(res.raw)}`,
      };
    const record = doc as Record<string, unknown>;
    if (typeof record['openapi'] !== 'string')
      return {
        ok: false,
        problem: `${tried}: answered JSON without an "openapi" version: not an OpenAPI document`,
      };
    const paths = record['paths'];
    const live = typeof paths === 'object' && paths !== null ? Object.keys(paths) : [];
    const ours = [...contract.operations.values()]
      .filter((op) => op.requiredScope !== null)
      .map((op) => op.pathTemplate);
    if (!ours.some((path) => live.includes(path)))
      return {
        ok: false,
        problem: `${tried}: an OpenAPI document of another API (none of its ${live.length} paths is a /v0 path of this one, e.g. ${ours[0] ?? '/v0/action/list'})`,
      };
    return { ok: true };
  } finally {
    await client.close();
  }
}

/** The group of the agent-interface laws (`--skip agent`). */
export const AGENT_GROUP = 'agent';

/** A key the environment gave that the target refused. */
export interface RefusedKey {
  /** The environment variable, e.g. `CCA_READ_KEY`. */
  readonly variable: string;
  readonly status: number;
  /** The request tried, e.g. `GET /v0/action/list?pageSize=1`. */
  readonly tried: string;
}

/**
 * Where each role's key must be accepted, without leaving a trace: a read, or a write that cannot
 * take effect (an empty custom-field PATCH on an action that does not exist, an empty ingestion
 * batch). Expired and revoked keys are bad on purpose and are not tried.
 */
const KEY_PROBES: Readonly<Partial<Record<KeyRole, RequestSpec>>> = {
  read: { method: 'GET', path: '/v0/action/list', query: { pageSize: 1 }, auth: 'read' },
  readWrite: { method: 'GET', path: '/v0/action/list', query: { pageSize: 1 }, auth: 'readWrite' },
  otherOrgRead: { method: 'GET', path: '/v0/action/list', query: { pageSize: 1 }, auth: 'otherOrgRead' },
  write: {
    method: 'PATCH',
    path: '/v0/actions/cca-conform-preflight-no-such-action/custom-fields',
    json: { fields: [] },
    auth: 'write',
  },
  otherOrgWrite: {
    method: 'PATCH',
    path: '/v0/actions/cca-conform-preflight-no-such-action/custom-fields',
    json: { fields: [] },
    auth: 'otherOrgWrite',
  },
  noModerationWrite: {
    method: 'PATCH',
    path: '/v0/actions/cca-conform-preflight-no-such-action/custom-fields',
    json: { fields: [] },
    auth: 'noModerationWrite',
  },
  ingest: { method: 'POST', path: '/v0/ingest/records', json: {}, auth: 'ingest' },
};

/**
 * Tries each key of the environment once on a route it should be accepted on; a 401 there means
 * the key itself is wrong (rotated, mistyped, another environment's), which would otherwise show
 * up as dozens of deployment failures.
 *
 * @example
 * ```ts
 * const refused = await preflightKeys('http://127.0.0.1:4010', { read: process.env.CCA_READ_KEY });
 * for (const r of refused) console.error(`${r.variable} refused: ${r.status}`);
 * ```
 */
export async function preflightKeys(baseUrl: string, keys: Keys, timeoutMs = 15_000): Promise<RefusedKey[]> {
  const client = new ConformanceClient({ baseUrl, keys, timeoutMs, transport: poolTransport(baseUrl, 1) });
  const refused: RefusedKey[] = [];
  try {
    for (const role of KEY_ROLES) {
      const probe = KEY_PROBES[role];
      if (probe === undefined || !client.hasKey(role)) continue;
      const res = await client.request(probe);
      if (res.kind === 'http' && res.status === 401) {
        const query =
          probe.query === undefined
            ? ''
            : `?${new URLSearchParams(Object.entries(probe.query).map(([k, v]) => [k, String(v)]))}`;
        refused.push({
          variable: KEY_ENV[role],
          status: res.status,
          tried: `${probe.method} ${probe.path}${query}`,
        });
      }
    }
  } finally {
    await client.close();
  }
  return refused;
}

/** Statuses that say nothing serves the agent interface at that address. */
const ABSENT_STATUSES = new Set([404, 405, 410, 501]);

/**
 * Probes the agent interface once with an MCP `initialize`: returns why it is absent (one line
 * suggesting `--mcp-url` or `--skip agent`), or undefined when something answers as MCP (the laws
 * judge how well). A session the probe opened is closed again.
 *
 * @example
 * ```ts
 * const absent = await probeMcp({ url: 'http://127.0.0.1:4010/mcp', client }, keys);
 * if (absent !== undefined) console.error(absent);
 * ```
 */
export async function probeMcp(endpoint: McpEndpoint, keys: Keys): Promise<string | undefined> {
  const role = (['read', 'readWrite', 'write', 'ingest'] as const).find((r) => {
    const key = keys[r];
    return key !== undefined && key !== '';
  });
  const auth: Auth = role ?? 'none';
  const hint = `pass --mcp-url URL (its agent interface) or --skip agent`;
  let answer: RawAnswer;
  try {
    answer = await postRaw(endpoint, auth, initializeRequest(endpoint));
  } catch (error) {
    return `agent interface NOT CHECKED: ${endpoint.url} could not be probed (${error instanceof Error ? error.message : String(error)}); ${hint}`;
  }
  if (answer.status === 0) return `agent interface NOT CHECKED: no answer from ${endpoint.url}; ${hint}`;
  if (ABSENT_STATUSES.has(answer.status))
    return `agent interface NOT CHECKED: ${endpoint.url} answered ${answer.status} to an MCP initialize; ${hint}`;
  if (answer.status >= 200 && answer.status < 300 && answer.messages.length === 0)
    return `agent interface NOT CHECKED: ${endpoint.url} answered ${answer.status} without a JSON-RPC message (not an MCP endpoint); ${hint}`;
  if (answer.sessionId !== undefined) {
    // Leave no session behind: a server may refuse DELETE (405), which is fine.
    await postRaw(endpoint, auth, undefined, { method: 'DELETE', sessionId: answer.sessionId }).catch(
      () => undefined,
    );
  }
  return undefined;
}

/**
 * Is the target still answering? One `GET /docs/json` without a key and a short time-out: asked
 * after a request got no answer, to tell a dropped connection from a target that went away.
 *
 * @example
 * ```ts
 * if (!(await stillAnswers('http://127.0.0.1:4010'))) console.error('the target stopped answering');
 * ```
 */
export async function stillAnswers(baseUrl: string, timeoutMs = 5000): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl.replace(/\/+$/, '')}/docs/json`, {
      signal: AbortSignal.timeout(Math.min(timeoutMs, 5000)),
    });
    await res.arrayBuffer();
    return true;
  } catch {
    return false;
  }
}
