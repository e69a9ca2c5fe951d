/**
 * The house: the engine (`mocks/engine/`) is the core and never imports an adapter (`mocks/http/`,
 * `mocks/msw/`) or the agent slice (`mocks/agent/`), directly or through a chain of engine modules.
 * Reply requests and saved searches are engine slices (`mocks/engine/replies/`,
 * `mocks/engine/saved-searches/`); the agent interface is tools, sandbox and transport over them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENGINE = join(ROOT, 'mocks', 'engine');
const FORBIDDEN = ['mocks/agent/', 'mocks/http/', 'mocks/msw/'];

function sourcesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourcesUnder(path);
    return /\.(ts|js|mjs)$/.test(entry.name) ? [path] : [];
  });
}

/** Every module specifier a file imports or re-exports, static or dynamic (type-only ones too). */
function specifiersOf(source: string): string[] {
  const out: string[] = [];
  const patterns = [
    /\b(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]/g,
    /\bimport\s*['"]([^'"]+)['"]/g,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const m of source.matchAll(pattern)) out.push(m[1] ?? '');
  return out;
}

/** Repository-relative target of a relative specifier, or null for a package. */
function targetOf(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return relative(ROOT, resolve(dirname(file), specifier))
    .split('\\')
    .join('/');
}

describe('import graph of the mock', () => {
  it('no file under mocks/engine imports mocks/agent, mocks/http or mocks/msw', () => {
    const offending: string[] = [];
    const files = sourcesUnder(ENGINE);
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        const target = targetOf(file, specifier);
        if (target !== null && FORBIDDEN.some((prefix) => target.startsWith(prefix)))
          offending.push(`${relative(ROOT, file)} imports ${target}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('the scanner sees every import form (static, type-only, re-export, side effect, dynamic)', () => {
    const source = [
      "import { a } from '../agent/x.ts';",
      "import type { B } from '../http/y.ts';",
      "export { c } from '../msw/z.ts';",
      "import '../agent/side.ts';",
      "const m = await import('../agent/lazy.ts');",
      'import {\n  d,\n  e,\n} from "../agent/multi.ts";',
    ].join('\n');
    expect(specifiersOf(source).sort()).toEqual(
      [
        '../agent/x.ts',
        '../http/y.ts',
        '../msw/z.ts',
        '../agent/side.ts',
        '../agent/lazy.ts',
        '../agent/multi.ts',
      ].sort(),
    );
  });

  it('the replies and saved-search slices are engine slices the agent builds on', () => {
    for (const slice of ['replies', 'saved-searches']) {
      const files = sourcesUnder(join(ENGINE, slice)).map((f) => relative(ENGINE, f));
      expect(files).toContain(`${slice}/index.ts`);
      expect(files).toContain(`${slice}/state.ts`);
    }
    const agentFiles = sourcesUnder(join(ROOT, 'mocks', 'agent')).map((f) => relative(ROOT, f));
    for (const moved of ['model.ts', 'machine.ts', 'state.ts', 'tokens.ts'])
      expect(agentFiles).not.toContain(`mocks/agent/replies/${moved}`);
    expect(agentFiles).not.toContain('mocks/agent/operations/saved-search-state.ts');
  });
});
