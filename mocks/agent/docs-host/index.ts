/**
 * The documentation host (spec 4.18 rule 5): `/llms.txt` (an index in the llms.txt format: a title, a
 * summary, then a list of Markdown links), `/llms-full.txt` (every page in one text) and each page as
 * Markdown, on the mock's own origin, without a key (documentation, not organization data: the
 * `{docs_url}` of the spec is a separate host in production). Pages are built once per agent server
 * from the contracts, so they never drift from what the server serves.
 */
import type { AgentContract } from '../../../src/contract/agent.ts';
import type { ToolSet } from '../server/tool-set.ts';
import { buildPages, type DocPage } from './pages.ts';

export interface DocsHost {
  readonly pages: readonly DocPage[];
  readonly llmsTxt: string;
  readonly llmsFullTxt: string;
  /** Answers GET/HEAD of /llms.txt, /llms-full.txt and the pages; null for any other path. */
  handle(request: Request): Response | null;
}

export const LLMS_TXT_PATH = '/llms.txt';
export const LLMS_FULL_TXT_PATH = '/llms-full.txt';

const link = (page: DocPage): string => `- [${page.title}](${page.path}): ${page.summary}`;

function renderIndex(pages: readonly DocPage[]): string {
  return [
    '# cca-kit: Customer-Conversation Analytics Service (mock)',
    '',
    '> A REST API (`/v0`, key in `X-API-Key`) and an agent interface (MCP at `/mcp`: list_skills, read_skill, read_skill_file, execute, prepare_reply, review_reply, open_reply) over one engine. Replies an agent prepares are sent only after a human confirms them.',
    '',
    'Start with "Start here", then the tools your key may use. Inside `execute`, `spec()` lists the operations at run time; the schemas below are the same data. llms-full.txt is the Docs section in one text; the Optional pages are longer reference.',
    '',
    '## Docs',
    '',
    ...pages.filter((page) => page.optional !== true).map(link),
    '',
    '## Optional',
    '',
    ...pages.filter((page) => page.optional === true).map(link),
    '- [OpenAPI JSON](/docs/json): the machine-readable REST contract',
    '',
  ].join('\n');
}

/** The Docs section in one text, sized for a model's context (the Optional pages are left out). */
function renderFull(pages: readonly DocPage[]): string {
  return pages
    .filter((page) => page.optional !== true)
    .map((page) => `<!-- ${page.path} -->\n${page.markdown.trimEnd()}\n`)
    .join('\n');
}

function textResponse(body: string, contentType: string, head: boolean): Response {
  const bytes = new TextEncoder().encode(body);
  return new Response(head ? null : bytes, {
    status: 200,
    headers: {
      'content-type': contentType,
      'content-length': String(bytes.byteLength),
      'cache-control': 'no-cache',
    },
  });
}

/**
 * Builds the host for a contract and the tools actually served.
 *
 * @example
 * const docs = createDocsHost({ contract: agentContract(), tools });
 * docs.handle(new Request('http://127.0.0.1:4010/llms.txt')); // 200 text/plain
 */
export function createDocsHost(sources: { contract: AgentContract; tools: ToolSet }): DocsHost {
  const pages = buildPages(sources);
  const byPath = new Map(pages.map((page) => [page.path, page]));
  const llmsTxt = renderIndex(pages);
  const llmsFullTxt = renderFull(pages);
  return {
    pages,
    llmsTxt,
    llmsFullTxt,
    handle(request) {
      const { pathname } = new URL(request.url);
      const page = byPath.get(pathname);
      const known = pathname === LLMS_TXT_PATH || pathname === LLMS_FULL_TXT_PATH || page !== undefined;
      if (!known) return null;
      if (request.method !== 'GET' && request.method !== 'HEAD')
        return new Response(
          JSON.stringify({ success: false, error: `Method ${request.method} is not allowed here` }),
          {
            status: 405,
            headers: { allow: 'GET, HEAD', 'content-type': 'application/json; charset=utf-8' },
          },
        );
      const head = request.method === 'HEAD';
      if (pathname === LLMS_TXT_PATH) return textResponse(llmsTxt, 'text/plain; charset=utf-8', head);
      if (pathname === LLMS_FULL_TXT_PATH)
        return textResponse(llmsFullTxt, 'text/plain; charset=utf-8', head);
      return textResponse((page as DocPage).markdown, 'text/markdown; charset=utf-8', head);
    },
  };
}
