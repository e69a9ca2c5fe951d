/**
 * The dashboard's HTTP routes on the node adapter, under the admin API's access rule (loopback, or
 * the admin token):
 *
 * - `GET /__mock/` asked for by a browser (`Accept: text/html`): the page; JSON clients still get
 *   the admin route index from the engine;
 * - `GET /__mock/dashboard/<file>`: the page's script modules and style sheet;
 * - `GET /__mock/journal.har[?filters]`: the journal as HAR, scrubbed as `cca-kit record` scrubs.
 *
 * Everything else under /__mock/ is the engine's admin API, which the page calls. The page's
 * Content-Security-Policy lets it load and call only this origin, run no inline script and no eval.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ADMIN_PREFIX, adminAccess } from '../../engine/admin/index.ts';
import { journalFilterOf } from '../../engine/admin/journal.ts';
import type { Engine } from '../../engine/engine.ts';
import { headersFromRecord } from '../../engine/exchange.ts';
import { journalOf } from '../../engine/journal/index.ts';
import { createDashboardAssets } from './assets.ts';

export const DASHBOARD_ASSET_PREFIX = `${ADMIN_PREFIX}dashboard/`;
export const JOURNAL_HAR_PATH = `${ADMIN_PREFIX}journal.har`;

/** Only this origin, no inline script or style, no eval, not framed, no form posts, no plugins. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const SECURITY_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
} as const;

export interface DashboardRoutes {
  /** Serves the request when it is the dashboard's; resolves false (touching nothing) otherwise. */
  serve(req: IncomingMessage, res: ServerResponse, origin: string): Promise<boolean>;
}

function send(
  res: ServerResponse,
  status: number,
  contentType: string,
  body: Buffer | string,
  headOnly: boolean,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': contentType,
    'content-length': typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    ...extra,
  });
  res.end(headOnly ? undefined : body);
}

function sendJsonError(res: ServerResponse, status: number, message: string, headOnly: boolean): void {
  send(
    res,
    status,
    'application/json; charset=utf-8',
    JSON.stringify({ success: false, error: message }),
    headOnly,
  );
}

function headersOf(req: IncomingMessage) {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') record[name] = value;
    else if (Array.isArray(value)) record[name] = value.join(', ');
  }
  return headersFromRecord(record);
}

/**
 * @example
 * const dashboard = createDashboardRoutes(engine);
 * if (await dashboard.serve(req, res, origin)) return;
 */
export function createDashboardRoutes(engine: Engine, version = '0.1.0'): DashboardRoutes {
  const assets = createDashboardAssets();
  return {
    async serve(req, res, origin) {
      const method = (req.method ?? 'GET').toUpperCase();
      if (method !== 'GET' && method !== 'HEAD') return false;
      const target = req.url ?? '/';
      const query = target.indexOf('?');
      const pathname = query === -1 ? target : target.slice(0, query);
      const page = pathname === ADMIN_PREFIX && /\btext\/html\b/.test(req.headers.accept ?? '');
      const asset = pathname.startsWith(DASHBOARD_ASSET_PREFIX);
      const har = pathname === JOURNAL_HAR_PATH;
      if (!page && !asset && !har) return false;
      const headOnly = method === 'HEAD';
      const access = adminAccess(
        { remoteAddress: req.socket.remoteAddress, headers: headersOf(req) },
        engine.options.adminToken,
      );
      if (!access.allowed) {
        sendJsonError(
          res,
          403,
          `The mock dashboard answers only loopback clients or requests carrying the admin token (X-Mock-Admin-Token): ${access.reason}`,
          headOnly,
        );
        return true;
      }
      if (har) {
        const journal = journalOf(engine.admin);
        if (journal === undefined) {
          sendJsonError(res, 404, 'This mock runs without a request journal', headOnly);
          return true;
        }
        let filter: ReturnType<typeof journalFilterOf>;
        try {
          filter = journalFilterOf(new URLSearchParams(query === -1 ? '' : target.slice(query + 1)));
        } catch (cause) {
          sendJsonError(res, 400, cause instanceof Error ? cause.message : String(cause), headOnly);
          return true;
        }
        // Loaded here: the recorder's scrubber is not needed by a session that never exports.
        const { journalHar } = await import('./har.ts');
        const out = journalHar(journal.entries(filter), origin, version);
        if (!out.ok) sendJsonError(res, 500, out.reason, headOnly);
        else
          send(res, 200, 'application/json; charset=utf-8', out.text, headOnly, {
            'content-disposition': 'attachment; filename="cca-kit-journal.har"',
          });
        return true;
      }
      const found = await assets(page ? 'index.html' : pathname.slice(DASHBOARD_ASSET_PREFIX.length));
      if (found === undefined) sendJsonError(res, 404, `No dashboard file at ${pathname}`, headOnly);
      else send(res, 200, found.contentType, found.body, headOnly);
      return true;
    },
  };
}
