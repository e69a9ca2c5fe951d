/**
 * The README's shell commands name what exists: every `npm` command is one of npm's own or a script of
 * package.json, and every `cca-kit <subcommand>` is a subcommand whose usage text lists each flag the
 * line passes. Its ts/js blocks are run by test/docs-snippets.test.ts; together they cover every
 * command the README shows, so a renamed flag or script fails here instead of in a newcomer's shell.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commands } from '../src/cli/commands.ts';

const README = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const SCRIPTS = Object.keys(
  (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: object })
    .scripts,
);
const NPM_OWN = new Set(['ci', 'install', 'test', 'start', 'pack', 'publish']);

/** The lines of the README's sh and yaml blocks, comments cut, yaml's folded `>` lines joined. */
function commandLines(text: string): string[] {
  const lines: string[] = [];
  for (const match of text.matchAll(/^```(sh|bash|yaml)\n([\s\S]*?)^```/gm)) {
    const body = (match[2] ?? '').replace(/>\n((?:\s{10,}.*\n)+)/g, (_, folded: string) =>
      folded.replace(/\n\s*/g, ' '),
    );
    for (const line of body.split('\n')) {
      const code = line.replace(/\s#\s.*$/, '').trim();
      if (code !== '') lines.push(code);
    }
  }
  return lines;
}

/** Each `npm ...` and `cca-kit ...` invocation in a line (a line may chain two with `&&`). */
function invocations(line: string): string[][] {
  return line
    .split(/&&|;|\|/)
    .map((part) => part.trim().split(/\s+/))
    .map((words) => words.slice(words.findIndex((w) => w === 'npm' || w === 'cca-kit')))
    .filter((words) => words[0] === 'npm' || words[0] === 'cca-kit');
}

describe('the commands the README shows', () => {
  const lines = commandLines(README);
  const all = lines.flatMap(invocations);

  it('are found (the quick start and one per user)', () => {
    expect(all.map((words) => words.slice(0, 2).join(' '))).toEqual(
      expect.arrayContaining(['npm ci', 'npm test', 'npm start', 'cca-kit conform', 'cca-kit mock']),
    );
  });

  it('npm: its own commands or a script of package.json', () => {
    const unknown = all
      .filter((words) => words[0] === 'npm')
      .map((words) => (words[1] === 'run' ? (words[2] ?? '') : (words[1] ?? '')))
      .filter((name) => !NPM_OWN.has(name) && !SCRIPTS.includes(name));
    expect(unknown).toEqual([]);
  });

  it('cca-kit: a subcommand whose usage lists every flag passed', async () => {
    const problems: string[] = [];
    for (const words of all.filter((w) => w[0] === 'cca-kit')) {
      const entry = commands[words[1] ?? ''];
      if (entry === undefined) {
        problems.push(`${words.join(' ')}: no subcommand ${words[1]}`);
        continue;
      }
      const { usage } = await entry.load();
      for (const flag of words.filter((w) => w.startsWith('--')).map((w) => w.split('=')[0] ?? w)) {
        if (!new RegExp(`(^|\\s)${flag}(\\s|$|[ ,<\\[=])`, 'm').test(usage))
          problems.push(`${words.join(' ')}: cca-kit ${words[1]} has no ${flag}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
