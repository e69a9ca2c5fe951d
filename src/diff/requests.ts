/**
 * The read requests `cca-kit diff` sends to both targets: every GET operation of the contract under /v0,
 * once bare and once with a seeded choice of its optional query parameters (values from the contract's
 * examples). Path parameters come from each target's own list answer (ids differ between deployments).
 */
import { contractDocument } from '../contract/load.ts';
import { isRecord } from '../drift/walk.ts';

export interface PlannedRequest {
  readonly operationId: string;
  /** Path template, `/v0/action/{id}`. */
  readonly route: string;
  readonly query: readonly (readonly [string, string])[];
  /** Path parameter filled from the first item of another operation's `data` on the same target. */
  readonly pathFrom?: { readonly param: string; readonly operationId: string; readonly field: string };
}

/** Where a path parameter's value comes from, per operation (the rest are not requested; see docs/drift.md). */
const PATH_SOURCES: Readonly<Record<string, { param: string; operationId: string; field: string }>> = {
  getAction: { param: 'id', operationId: 'listActions', field: 'actionId' },
  getCustomFields: { param: 'actionId', operationId: 'listActions', field: 'actionId' },
  getAgent: { param: 'id', operationId: 'listAgents', field: 'agentId' },
};

/** mulberry32: a small seeded generator, so a seed reproduces the same requests. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function exampleValues(param: Record<string, unknown>): string[] {
  const examples = param['examples'];
  if (!isRecord(examples)) return [];
  return Object.values(examples)
    .map((e) => (isRecord(e) ? e['value'] : undefined))
    .filter((v) => v !== undefined)
    .map((v) => (typeof v === 'string' ? v : JSON.stringify(v)));
}

export interface Planned {
  readonly requests: readonly PlannedRequest[];
  /** Read operations not requested, with why. */
  readonly skipped: readonly string[];
}

export function planReadRequests(seed: number): Planned {
  const random = seeded(seed);
  const requests: PlannedRequest[] = [];
  const skipped: string[] = [];
  for (const [route, item] of Object.entries(contractDocument.paths ?? {})) {
    const op = isRecord(item) ? item['get'] : undefined;
    if (!route.startsWith('/v0/') || !isRecord(op) || typeof op['operationId'] !== 'string') continue;
    const operationId = op['operationId'];
    const raw: unknown = op['parameters'];
    const params: Record<string, unknown>[] = (Array.isArray(raw) ? raw : []).filter(isRecord);
    const pathParam = params.find((p) => p['in'] === 'path');
    const source = PATH_SOURCES[operationId];
    if (pathParam !== undefined && source === undefined) {
      skipped.push(`${operationId}: no source for path parameter ${String(pathParam['name'])}`);
      continue;
    }
    const base = { operationId, route, ...(source === undefined ? {} : { pathFrom: source }) };
    requests.push({ ...base, query: [] });
    const chosen: [string, string][] = [];
    for (const p of params) {
      if (p['in'] !== 'query' || typeof p['name'] !== 'string') continue;
      const values = exampleValues(p);
      if (values.length === 0 || random() < 0.5) continue;
      chosen.push([p['name'], values[Math.floor(random() * values.length)] as string]);
    }
    if (chosen.length > 0) requests.push({ ...base, query: chosen });
  }
  return { requests, skipped };
}
