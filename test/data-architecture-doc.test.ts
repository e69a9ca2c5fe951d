/** docs/ARCHITECTURE.md names every `cca-kit` subcommand that src/cli/commands.ts registers. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commands } from '../src/cli/commands.ts';

function cliSection(): string {
  const doc = readFileSync(new URL('../docs/ARCHITECTURE.md', import.meta.url), 'utf8');
  const start = doc.indexOf('### CLI subcommands');
  if (start < 0) throw new Error('docs/ARCHITECTURE.md has no "### CLI subcommands" section');
  const end = doc.indexOf('\n## ', start);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe('docs/ARCHITECTURE.md: CLI subcommands', () => {
  it('lists each registered subcommand on its own line', () => {
    const lines = cliSection().split('\n');
    for (const name of Object.keys(commands)) {
      const mentions = lines.filter((line) => line.startsWith(`- \`cca-kit ${name}\``));
      expect(mentions, `subcommand ${name}`).toHaveLength(1);
    }
  });

  it('lists no subcommand that does not exist', () => {
    const listed = [...cliSection().matchAll(/^- `cca-kit ([a-z-]+)`/gm)].map((m) => m[1]);
    expect(listed.sort()).toEqual(Object.keys(commands).sort());
  });
});
