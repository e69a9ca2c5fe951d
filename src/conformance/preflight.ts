/**
 * Before any law runs: is the base URL this API at all? One request to `/docs/json` (no key needed),
 * so that a typo in the URL or a wrong host ends in one clear line instead of every law failing.
 */
import { ConformanceClient } from '../client/client.ts';
import type { Contract } from '../contract/contract.ts';
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
