import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { openApiParameters, templateShape } from './docs-parameters.ts';
import { noReplyOperation, noReplyRoute } from './no-reply.ts';
import { call, expectConforming, obj } from './support.ts';

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
      openApiObjectsComplete(doc);
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
      if (!(await pageLoadsDocument(ctx, ui.raw)))
        violate(
          'DOCS-SWAGGER-UI',
          'ui-does-not-load-document',
          'GET /docs is an HTML page, but neither it nor a same-origin script it loads names the OpenAPI document (/docs/json): it cannot show the contract',
        );
      return checks + 2;
    }),
};

/**
 * The fields OpenAPI 3.x requires of the objects a client reads first (an OpenAPI document in name
 * only is not one): `info` with `title` and `version`, and a `url` in each Server Object, which is
 * what a generated client takes as its base URL. `servers` itself is optional.
 */
function openApiObjectsComplete(doc: Record<string, unknown>): void {
  const info = doc['info'];
  const infoObject = typeof info === 'object' && info !== null && !Array.isArray(info);
  if (!infoObject || typeof obj(info)['title'] !== 'string' || typeof obj(info)['version'] !== 'string')
    violate(
      'DOCS-OPENAPI-JSON',
      'info-incomplete',
      `/docs/json: info must be an object with string title and version (OpenAPI 3.x), got ${JSON.stringify(info)}`,
    );
  const servers = doc['servers'];
  if (servers === undefined) return;
  if (!Array.isArray(servers)) {
    violate(
      'DOCS-OPENAPI-JSON',
      'servers-not-array',
      `/docs/json: servers is ${JSON.stringify(servers)}, not an array`,
    );
  }
  servers.forEach((server: unknown, i: number) => {
    if (typeof obj(server)['url'] !== 'string')
      violate(
        'DOCS-OPENAPI-JSON',
        'server-without-url',
        `/docs/json: servers[${i}] has no url (a Server Object requires one): ${JSON.stringify(server)}`,
      );
  });
}

/** A quoted string in page or script text that resolves, relative to /docs, to /docs/json. */
function namesDocument(text: string): boolean {
  for (const m of text.matchAll(/["'`]([^"'`\s<>]{0,200}json[^"'`\s<>]{0,50})["'`]/gi)) {
    try {
      if (new URL(m[1] ?? '', 'http://docs.invalid/docs').pathname.endsWith('/docs/json')) return true;
    } catch {
      // not a URL: not a reference to the document
    }
  }
  return false;
}

/**
 * The Swagger UI page does what the spec says (section 1: interactive Swagger UI of the contract)
 * only if it loads the document: its HTML, or one of the first same-origin scripts it loads, names
 * /docs/json. Scripts of another origin (a CDN's bundle) cannot name this deployment's document.
 */
async function pageLoadsDocument(ctx: LawContext, html: string): Promise<boolean> {
  if (namesDocument(html)) return true;
  const sources = [...html.matchAll(/<script[^>]*\ssrc=["']([^"']+)["']/gi)].map((m) => m[1] ?? '');
  for (const src of sources.slice(0, 6)) {
    const url = new URL(src, 'http://docs.invalid/docs');
    if (url.origin !== 'http://docs.invalid') continue;
    const res = await ctx.client.request({ method: 'GET', path: url.pathname, auth: 'none' });
    if (res.kind !== 'network' && res.status === 200 && namesDocument(res.raw)) return true;
  }
  return false;
}

export const docsLaws: readonly Law[] = [openApiDocument, openApiParameters, noReplyOperation, noReplyRoute];
