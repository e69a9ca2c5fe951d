/**
 * A docs host an agent can rely on (spec 4.18 rule 5): every link of /llms.txt and of every page it
 * reaches answers, on the mock's own origin. Links are read from the Markdown (`[text](target)`) and
 * as bare URLs; relative ones resolve against the page they are on; other origins are not followed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';

let mock: MockServer;

beforeAll(async () => {
  mock = await startMockServer({ seed: 42, port: 0 });
});

afterAll(async () => {
  await mock.close();
});

/** Every link target of a Markdown or text page. */
function linksOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) out.push(m[1] ?? '');
  for (const m of text.matchAll(/https?:\/\/[^\s)>\]`"']+/g)) out.push(m[0]);
  return out;
}

describe('the docs host', () => {
  it('AGENT-MCP-DOCS-LLMS-TXT, AGENT-MCP-DOCS-MARKDOWN-VARIANTS: every link from /llms.txt and from every served page answers', async () => {
    const origin = new URL(mock.url).origin;
    const seen = new Map<string, number>();
    const broken: string[] = [];
    const queue: { url: string; from: string }[] = [{ url: `${origin}/llms.txt`, from: '(start)' }];
    while (queue.length > 0) {
      const next = queue.shift();
      if (next === undefined) break;
      const response = await fetch(next.url);
      const text = await response.text();
      seen.set(next.url, response.status);
      if (response.status !== 200) {
        broken.push(`${next.url} (linked from ${next.from}): ${response.status}`);
        continue;
      }
      const type = response.headers.get('content-type') ?? '';
      if (!/markdown|text\/plain/.test(type) && !/\.(md|txt)$/.test(new URL(next.url).pathname)) continue;
      for (const link of linksOf(text)) {
        if (link.startsWith('#') || link.startsWith('mailto:')) continue;
        let target: URL;
        try {
          target = new URL(link, next.url);
        } catch {
          broken.push(`${link} (linked from ${next.url}): not a URL`);
          continue;
        }
        if (target.origin !== origin) continue;
        target.hash = '';
        const url = target.href;
        if (seen.has(url) || queue.some((q) => q.url === url)) continue;
        queue.push({ url, from: next.url });
      }
    }
    expect(broken).toEqual([]);
    // The guide, the reply lifecycle and the confirmation page are among them, each a page of its own
    // (agent-replies.md answered 404 before).
    expect(seen.get(`${origin}/agent/docs/agent-interface.md`)).toBe(200);
    expect(seen.get(`${origin}/agent/docs/agent-replies.md`)).toBe(200);
    expect(seen.get(`${origin}/agent/docs/agent-confirmation.md`)).toBe(200);
    expect(seen.size).toBeGreaterThan(5);
    // The served guide speaks to an agent developer: no test files, no SDK version history.
    for (const page of ['agent-interface.md', 'agent-replies.md', 'agent-confirmation.md']) {
      const text = await (await fetch(`${origin}/agent/docs/${page}`)).text();
      expect(text, page).not.toMatch(/\.test\.ts|Why the 2\.x SDK|maintainers -->/);
    }
  });
});
