import { runExamples, violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { call } from './support.ts';

/** What a page asset of each kind must be served as for a browser to use it. */
const KINDS = [
  { kind: 'script', pattern: /<script[^>]*\ssrc=["']([^"']+)["']/gi, type: /javascript|ecmascript/i },
  {
    kind: 'stylesheet',
    pattern: /<link(?=[^>]*\srel=["']?stylesheet)[^>]*\shref=["']([^"']+)["']/gi,
    type: /text\/css/i,
  },
] as const;

/**
 * "Interactive Swagger UI at {base_url}/docs" (spec section 1): the page is interactive only if the
 * scripts and stylesheets it loads from the deployment are there. Each same-origin one answers 200,
 * with a content type a browser runs or applies (a browser refuses a script served as text/plain
 * under nosniff, and a stylesheet served as anything but text/css), and a body. Assets of another
 * origin (a CDN) are not the deployment's and are not fetched.
 */
export const swaggerUiAssets: Law = {
  id: 'docs.swagger-ui-assets',
  group: 'docs',
  title: 'The Swagger UI page at /docs can run: every same-origin script and stylesheet it loads is served',
  ruleIds: ['DOCS-SWAGGER-UI'],
  needs: { keys: [] },
  run: (ctx) =>
    runExamples(ctx, async () => {
      const ui = await call(ctx, 'getSwaggerUi', { auth: 'none', headers: { accept: 'text/html' } });
      // docs.openapi judges the page itself; without a page there are no assets to judge.
      if (ui.kind === 'network' || ui.status !== 200) return 0;
      let checks = 0;
      for (const { kind, pattern, type } of KINDS) {
        for (const m of ui.raw.matchAll(pattern)) {
          const url = new URL(m[1] ?? '', 'http://docs.invalid/docs');
          if (url.origin !== 'http://docs.invalid') continue;
          checks += 1;
          // Not callPath: an asset is not JSON, and must not be judged as an answer of the API.
          const res = await ctx.client.request({
            method: 'GET',
            path: `${url.pathname}${url.search}`,
            auth: 'none',
          });
          const where = `${kind} ${url.pathname}`;
          if (res.kind === 'network' || res.status !== 200)
            violate(
              'DOCS-SWAGGER-UI',
              `asset-status:${kind}:${res.status}`,
              `GET /docs loads the ${where}, which answered ${res.kind === 'network' ? 'no response' : res.status}: the page cannot run`,
            );
          const contentType = res.headers['content-type'] ?? '';
          if (!type.test(contentType))
            violate(
              'DOCS-SWAGGER-UI',
              `asset-type:${kind}`,
              `GET /docs loads the ${where}, served as ${contentType === '' ? '(no content type)' : contentType}: a browser does not use it as a ${kind}`,
            );
          if (res.raw.trim() === '')
            violate('DOCS-SWAGGER-UI', `asset-empty:${kind}`, `GET /docs loads the ${where}, which is empty`);
        }
      }
      return checks;
    }),
};
