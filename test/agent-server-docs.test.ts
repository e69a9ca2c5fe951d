/**
 * The documentation host on the mock's origin (spec 4.18 rule 5): /llms.txt, /llms-full.txt and a
 * Markdown variant of every page llms.txt links, generated from the contracts, the rules catalog and
 * docs/agent-interface.md, and kept in step with them by these tests.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withoutExtensions, withoutMaintainerNotes } from '../mocks/agent/docs-host/pages.ts';
import { createOperationRegistry } from '../mocks/agent/operations/index.ts';
import { loadSkills } from '../mocks/agent/skills/index.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { rules } from '../src/contract/rules.ts';

const GUIDE = fileURLToPath(new URL('../docs/agent-interface.md', import.meta.url));

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ seed: 42, actions: 50 });
});

afterAll(async () => {
  await mock.close();
});

/** The Markdown links of llms.txt: `- [title](path): summary`. */
function links(llms: string): string[] {
  return [...llms.matchAll(/^- \[[^\]]+\]\(([^)]+)\)/gm)].map((m) => m[1] ?? '');
}

describe('documentation host', () => {
  it('AGENT-MCP-DOCS-LLMS-TXT: /llms.txt answers 200 text without a key, in the llms.txt shape', async () => {
    const response = await fetch(`${mock.url}/llms.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await response.text();
    expect(text).toMatch(/^# .+\n\n> .+/);
    expect(links(text).length).toBeGreaterThanOrEqual(4);
  });

  it('AGENT-MCP-DOCS-MARKDOWN-VARIANTS: every page llms.txt links answers 200 Markdown', async () => {
    const text = await (await fetch(`${mock.url}/llms.txt`)).text();
    for (const path of links(text)) {
      const response = await fetch(new URL(path, mock.url));
      expect(response.status, path).toBe(200);
      if (path.endsWith('.md')) {
        expect(response.headers.get('content-type'), path).toMatch(/^text\/markdown/);
        expect((await response.text()).startsWith('# '), path).toBe(true);
      }
    }
  });

  it('AGENT-MCP-DOCS-LLMS-FULL-TXT: /llms-full.txt holds every page of the Docs section, within 60 KB', async () => {
    const full = await (await fetch(`${mock.url}/llms-full.txt`)).text();
    const pages = mock.agent?.agent.docs.pages ?? [];
    expect(pages.filter((p) => p.optional !== true).length).toBeGreaterThan(3);
    for (const page of pages) {
      if (page.optional === true) expect(full).not.toContain(page.markdown.trimEnd());
      else expect(full).toContain(page.markdown.trimEnd());
    }
    // A model's context budget: the whole Docs section in one read.
    expect(new TextEncoder().encode(full).byteLength).toBeLessThanOrEqual(60 * 1024);
  });

  it('served pages leave maintainer notes in the repository: no x-spec-gap, no repository paths', async () => {
    for (const page of mock.agent?.agent.docs.pages ?? []) {
      const text = await (await fetch(new URL(page.path, mock.url))).text();
      expect(text, page.path).not.toMatch(/x-spec-gap/);
      expect(text, page.path).not.toMatch(/`(?:mocks|src|test|suites|contract)\/[^`]*`/);
    }
  });

  it('kept in step: every served tool, operation of the catalog, skill and AGENT-MCP rule is documented', async () => {
    const tools = await (await fetch(`${mock.url}/agent/docs/tools.md`)).text();
    for (const tool of mock.agent?.agent.tools.served ?? []) {
      expect(tools).toContain(`## ${tool.declaration.name}`);
      expect(tools).toContain(JSON.stringify(withoutExtensions(tool.inputSchema), null, 2));
    }
    const operations = await (await fetch(`${mock.url}/agent/docs/operations.md`)).text();
    for (const op of createOperationRegistry().list()) expect(operations).toContain(`## ${op.id}`);
    const skills = await (await fetch(`${mock.url}/agent/docs/skills.md`)).text();
    for (const skill of loadSkills()) {
      expect(skills).toContain(`## ${skill.name}: ${skill.title}`);
      for (const file of skill.files) expect(skills).toContain(`\`${file.path}\``);
    }
    const rulesPage = await (await fetch(`${mock.url}/agent/docs/rules.md`)).text();
    for (const rule of rules.filter((r) => r.id.startsWith('AGENT-MCP-') && r.retired !== true))
      expect(rulesPage).toContain(`## ${rule.id}`);
    if (existsSync(GUIDE)) {
      const guide = await fetch(`${mock.url}/agent/docs/agent-interface.md`);
      // Served as written, less what it marks for this repository's maintainers and its repository notes.
      const forAgents = withoutMaintainerNotes(
        readFileSync(GUIDE, 'utf8').replace(/<!-- maintainers -->[\s\S]*?<!-- \/maintainers -->\n?/g, ''),
      );
      expect(await guide.text()).toBe(forAgents);
    }
  });

  it('refuses other methods with 405 and unknown agent pages with 404, never a 5xx', async () => {
    const post = await fetch(`${mock.url}/llms.txt`, { method: 'POST', body: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
    const head = await fetch(`${mock.url}/llms.txt`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const missing = await fetch(`${mock.url}/agent/docs/../../etc/passwd.md`);
    expect(missing.status).toBe(404);
    const unknown = await fetch(`${mock.url}/agent/nothing-here`);
    expect(unknown.status).toBe(404);
  });
});
