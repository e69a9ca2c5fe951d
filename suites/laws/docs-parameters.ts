/**
 * The live OpenAPI document is the machine-readable contract (section 1) and the authority for
 * changes (9): a client generated from it must send what the service accepts. So where the document
 * states a query parameter's bound, default or values, they are the ones the spec gives (sections 4
 * and 8; the contract's parameter schemas carry exactly those). A document that leaves a keyword out
 * says nothing and is not judged; one that states another value describes another service.
 */
import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { resolveLocalRef } from '../../src/contract/operations.ts';
import { call, expectConforming, obj } from './support.ts';

/**
 * An OpenAPI path template with its parameter names blanked: `{id}` and `{actionId}` in the same place
 * describe the same URL, so `/docs/json` may name them as it likes (drift classifies a rename the same).
 */
export const templateShape = (template: string): string => template.replace(/\{[^}]*\}/g, '{}');

/** The keywords compared: those a spec sentence states for a query parameter. */
const STATED = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'maxLength',
  'default',
] as const;

type Obj = Record<string, unknown>;

/** The live document's query parameters of one operation, by name (path-item and operation level). */
function liveQueryParameters(doc: unknown, item: Obj, method: string): Map<string, Obj> {
  const op = obj(resolveLocalRef(doc, item[method]));
  const out = new Map<string, Obj>();
  for (const list of [item['parameters'], op['parameters']]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const p = obj(resolveLocalRef(doc, raw));
      if (p['in'] === 'query' && typeof p['name'] === 'string') out.set(p['name'], p);
    }
  }
  return out;
}

/** What the live schema states otherwise than the contract's, as `keyword: live (spec: value)`. */
function contradictions(spec: Obj, live: Obj): string[] {
  const out: string[] = [];
  for (const k of STATED) {
    if (spec[k] === undefined || live[k] === undefined) continue;
    if (JSON.stringify(live[k]) !== JSON.stringify(spec[k]))
      out.push(`${k} ${JSON.stringify(live[k])} (spec: ${JSON.stringify(spec[k])})`);
  }
  if (Array.isArray(spec['enum']) && Array.isArray(live['enum'])) {
    const missing = spec['enum'].filter((v) => !(live['enum'] as unknown[]).includes(v));
    if (missing.length > 0) out.push(`enum lacks ${missing.map((v) => JSON.stringify(v)).join(', ')}`);
  }
  return out;
}

export const openApiParameters: Law = {
  id: 'docs.openapi-parameters',
  group: 'docs',
  title:
    "the live OpenAPI document states the spec's bounds, defaults and values for every query parameter it describes",
  ruleIds: ['DOCS-OPENAPI-PARAMETERS-TRUE'],
  needs: { keys: [] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const res = await call(ctx, 'getOpenApiDocument', { auth: 'none' });
      const doc = obj(expectConforming(ctx, 'getOpenApiDocument', res, { status: 200 }).parsed);
      const items = new Map<string, Obj>();
      for (const [t, item] of Object.entries(obj(doc['paths'])))
        items.set(templateShape(t), { ...items.get(templateShape(t)), ...obj(resolveLocalRef(doc, item)) });
      let checks = 0;
      for (const op of ctx.contract.operations.values()) {
        const item = items.get(templateShape(op.pathTemplate));
        if (item === undefined) continue;
        const live = liveQueryParameters(doc, item, op.method.toLowerCase());
        for (const p of op.parameters) {
          if (p.in !== 'query' || typeof p.schema !== 'object') continue;
          const declared = live.get(p.name);
          if (declared === undefined) continue;
          checks += 1;
          const schema = obj(resolveLocalRef(doc, declared['schema']));
          const wrong = contradictions(p.schema as Obj, schema);
          if (wrong.length > 0)
            violate(
              'DOCS-OPENAPI-PARAMETERS-TRUE',
              `parameter:${op.operationId}:${p.name}`,
              `/docs/json declares ${op.method} ${op.pathTemplate} query parameter ${p.name} with ${wrong.join('; ')}: a client generated from it sends what the service refuses, or never sends what it accepts`,
            );
        }
      }
      return checks;
    }),
};
