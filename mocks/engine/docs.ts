/**
 * The two documentation routes of the contract: `GET /docs/json` (the contract with `servers` pointing
 * at the origin the client used) and `GET /docs` (the Swagger UI page). The page's assets
 * (`/docs/swagger-ui.css`, `/docs/swagger-ui-bundle.js`...) are files, served by the HTTP adapter.
 */
import type { OpenAPIV3_1 } from 'openapi-types';

export const DOCS_OPERATIONS = { json: 'getOpenApiDocument', html: 'getSwaggerUi' } as const;

export interface DocsResponder {
  /** The contract as JSON text with `servers: [{ url: origin }]`, serialised once per origin. */
  json(origin: string): string;
  /** The Swagger UI HTML page. */
  html(): string;
}

/** Origins remembered at most; garbage Host headers must not grow memory without bound. */
const MAX_CACHED_ORIGINS = 32;

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/**
 * @param assetsBase where the Swagger UI files are served (`/docs/` by the HTTP adapter; a CDN URL
 * for MSW in a browser).
 */
export function createDocs(document: OpenAPIV3_1.Document, assetsBase = '/docs/'): DocsResponder {
  const cache = new Map<string, string>();
  return {
    json(origin) {
      const cached = cache.get(origin);
      if (cached !== undefined) return cached;
      if (cache.size >= MAX_CACHED_ORIGINS) cache.clear();
      const text = JSON.stringify({
        ...document,
        servers: [{ url: origin, description: 'this cca-kit mock' }],
      });
      cache.set(origin, text);
      return text;
    },
    html: () => swaggerUiPage(document.info.title, assetsBase),
  };
}

/**
 * The Swagger UI page, built at each request for it: a page is asked for rarely and costs a few
 * microseconds, and a page built when the engine starts would be built before any law asks for it,
 * where the mutation bench's per-law coverage cannot see which law reads it.
 */
function swaggerUiPage(contractTitle: string, assetsBase: string): string {
  const title = escapeHtml(`${contractTitle} (cca-kit mock)`);
  const base = escapeHtml(assetsBase.endsWith('/') ? assetsBase : `${assetsBase}/`);
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="stylesheet" href="${base}swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${base}swagger-ui-bundle.js"></script>
<script src="${base}swagger-ui-standalone-preset.js"></script>
<script>
window.ui = SwaggerUIBundle({
  url: new URL('/docs/json', window.location.href).href,
  dom_id: '#swagger-ui',
  deepLinking: true,
  persistAuthorization: true,
  tryItOutEnabled: true,
  displayOperationId: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  layout: 'StandaloneLayout',
});
</script>
</body>
</html>
`;
  return page;
}
