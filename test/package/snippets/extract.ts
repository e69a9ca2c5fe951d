/**
 * The code blocks of the README and docs/ pages, as the docs-snippets test checks them. A block fenced
 * ```ts or ```js (also typescript, javascript, mjs) is a program a user would copy: type-checked and run
 * against the installed package. A word after the language says otherwise, sparingly:
 *
 * - `check`: type-checked, not run (it needs a live deployment, a mock on a fixed port, or a test
 *   runner's globals such as `expect`);
 * - `continued`: the rest of the page's previous block (checked, and run, together with it);
 * - `no-check <why>`: not a Node program against the package (a script for the agent's `execute` tool,
 *   code that lives inside this repository); the reason is required.
 *
 * A block that is a JSON sample (it starts with `{` or `[`) should be fenced `json`/`jsonc`; one fenced
 * js/ts is reported, not guessed at.
 */
export type SnippetMode = 'run' | 'check' | 'no-check';

export interface Snippet {
  /** `README.md:150`: the page and the line of the opening fence. */
  readonly origin: string;
  readonly language: 'ts' | 'js';
  readonly mode: SnippetMode;
  /** For `no-check`, why. */
  readonly reason?: string;
  readonly code: string;
}

const FENCE = /^```(ts|typescript|tsx|js|javascript|mjs)(?:[ \t]+([^\n]*))?\n([\s\S]*?)^```[ \t]*$/gm;

/** The page's snippets, `continued` blocks folded into the one before. Throws on a block it cannot classify. */
export function snippetsOf(page: string, text: string): Snippet[] {
  const snippets: Snippet[] = [];
  for (const match of text.matchAll(FENCE)) {
    const [, language = '', info = '', code = ''] = match;
    const origin = `${page}:${text.slice(0, match.index).split('\n').length}`;
    const words = info.trim();
    const lang = /^(ts|typescript|tsx)$/.test(language) ? 'ts' : 'js';
    if (/^\s*[{[]/.test(code)) {
      throw new Error(`${origin}: a JSON sample fenced as ${language}; fence it json or jsonc`);
    }
    if (words === 'continued') {
      const previous = snippets.pop();
      if (previous === undefined) throw new Error(`${origin}: "continued" with no block before it`);
      snippets.push({ ...previous, code: `${previous.code}\n${code}` });
    } else if (words.startsWith('no-check')) {
      const reason = words.slice('no-check'.length).replace(/^[:\s]+/, '');
      if (reason === '') throw new Error(`${origin}: "no-check" needs a reason after it`);
      snippets.push({ origin, language: lang, mode: 'no-check', reason, code });
    } else if (words === 'check' || words === '') {
      snippets.push({ origin, language: lang, mode: words === 'check' ? 'check' : 'run', code });
    } else {
      throw new Error(`${origin}: unknown snippet marker "${words}" (check, continued, no-check <why>)`);
    }
  }
  return snippets;
}
