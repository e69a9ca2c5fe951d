/**
 * The documentation index of 4.18 rule 5: `{docs_url}/llms.txt`, `{docs_url}/llms-full.txt` and the
 * Markdown variant of every page `llms.txt` lists. `{docs_url}` is the agent endpoint's origin.
 */
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { endpointOrigin } from '../../src/conformance/kit/mcp/endpoint.ts';
import { agentExamples } from './support.ts';

const GROUP = 'agent';

async function getText(ctx: LawContext, path: string): Promise<{ status: number; text: string }> {
  const res = await ctx.mcp.client.request({
    method: 'GET',
    path,
    auth: 'none',
    headers: { accept: 'text/plain, text/markdown, */*' },
  });
  return { status: res.status, text: res.raw };
}

/** The same-origin links of an llms.txt, as paths (its pages' Markdown variants and other resources). */
export function markdownLinks(text: string, origin: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    const href = m[1] ?? '';
    let url: URL;
    try {
      url = new URL(href, `${origin}/`);
    } catch {
      continue;
    }
    if (url.origin !== origin) continue;
    out.add(url.pathname + url.search);
  }
  return [...out];
}

const llms: Law = {
  id: 'agent.docs.llms-index',
  group: GROUP,
  title: '/llms.txt and /llms-full.txt answer text; every page llms.txt lists has a Markdown variant',
  ruleIds: ['AGENT-MCP-DOCS-LLMS-TXT', 'AGENT-MCP-DOCS-LLMS-FULL-TXT', 'AGENT-MCP-DOCS-MARKDOWN-VARIANTS'],
  needs: { keys: [] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      const index = await getText(ctx, '/llms.txt');
      if (index.status !== 200 || index.text.trim() === '')
        violate(
          'AGENT-MCP-DOCS-LLMS-TXT',
          'llms-txt',
          `/llms.txt answered ${index.status} (${index.text.length} bytes)`,
        );
      const full = await getText(ctx, '/llms-full.txt');
      if (full.status !== 200 || full.text.length <= index.text.length / 2)
        violate(
          'AGENT-MCP-DOCS-LLMS-FULL-TXT',
          'llms-full-txt',
          `/llms-full.txt answered ${full.status} (${full.text.length} bytes)`,
        );
      const pages = markdownLinks(index.text, endpointOrigin(ctx.mcp));
      if (pages.length === 0)
        violate('AGENT-MCP-DOCS-MARKDOWN-VARIANTS', 'no-pages', '/llms.txt lists no page of its own origin');
      for (const page of pages) {
        const res = await getText(ctx, page);
        if (res.status !== 200 || res.text.trim() === '')
          violate(
            'AGENT-MCP-DOCS-MARKDOWN-VARIANTS',
            'page-missing',
            `${page}, listed by /llms.txt, answered ${res.status}`,
            { page },
          );
      }
      return 2 + pages.length;
    }),
};

export const docsLaws: readonly Law[] = [llms];
