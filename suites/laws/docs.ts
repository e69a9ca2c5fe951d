import { runExamples, violate } from '../../src/conformance/check.ts';
import type { Law } from '../../src/conformance/law.ts';
import { noReplyOperation, noReplyRoute } from './no-reply.ts';
import { call, expectConforming, obj } from './support.ts';

/**
 * An OpenAPI path template with its parameter names blanked: `{id}` and `{actionId}` in the same place
 * describe the same URL, so `/docs/json` may name them as it likes (drift classifies a rename the same).
 */
export const templateShape = (template: string): string => template.replace(/\{[^}]*\}/g, '{}');

export const openApiDocument: Law = {
  id: 'docs.openapi',
  group: 'docs',
  title: 'OpenAPI JSON at /docs/json describes every /v0 operation of the contract; Swagger UI at /docs',
  ruleIds: [
    'DOCS-OPENAPI-JSON',
    'DOCS-OPENAPI-COVERS-REST',
    'DOCS-SWAGGER-UI',
    'VER-V0-PREFIX',
    'VER-BREAKING-NEW-PREFIX',
    'VER-NEW-ENDPOINTS-TOLERATED',
    'VER-LIVE-OPENAPI-AUTHORITY',
    'MOCK-DOCS-WITHOUT-KEY',
  ],
  needs: { keys: [] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const res = await call(ctx, 'getOpenApiDocument', { auth: 'none' });
      const ok = expectConforming(ctx, 'getOpenApiDocument', res, {
        status: 200,
        statusRule: 'DOCS-OPENAPI-JSON',
      });
      const doc = obj(ok.parsed);
      if (typeof doc['openapi'] !== 'string')
        violate('DOCS-OPENAPI-JSON', 'not-openapi', '/docs/json has no "openapi" version field');
      // Items of one shape merge: a document may split the methods of one URL over two spellings.
      const livePaths = new Map<string, Record<string, unknown>>();
      for (const [t, item] of Object.entries(obj(doc['paths'])))
        livePaths.set(templateShape(t), { ...livePaths.get(templateShape(t)), ...obj(item) });
      let checks = 1;
      for (const op of ctx.contract.operations.values()) {
        if (op.requiredScope === null) continue;
        checks += 1;
        if (!op.pathTemplate.startsWith('/v0/'))
          violate('VER-V0-PREFIX', 'contract-prefix', `${op.operationId} is not under /v0/`);
        const item = obj(livePaths.get(templateShape(op.pathTemplate)));
        if (!(op.method.toLowerCase() in item)) {
          violate(
            'DOCS-OPENAPI-COVERS-REST',
            `missing:${op.operationId}`,
            `/docs/json does not describe ${op.method} ${op.pathTemplate} (${op.operationId})`,
          );
        }
      }
      const ui = await call(ctx, 'getSwaggerUi', { auth: 'none', headers: { accept: 'text/html' } });
      if (ui.kind === 'network' || ui.status !== 200)
        violate('DOCS-SWAGGER-UI', `ui-status:${ui.status}`, `GET /docs answered ${ui.status}`);
      if (!/html/i.test(ui.headers['content-type'] ?? ''))
        violate(
          'DOCS-SWAGGER-UI',
          'ui-not-html',
          `GET /docs content-type ${ui.headers['content-type'] ?? '(none)'}`,
        );
      return checks + 1;
    }),
};

export const docsLaws: readonly Law[] = [openApiDocument, noReplyOperation, noReplyRoute];
