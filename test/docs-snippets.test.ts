/**
 * What the docs show is what ships: every ts/js code block of the README and the docs/ pages, read from
 * the packed package installed into a fresh project (test/package/install.ts), is type-checked there by
 * `tsc` with the imports a user would copy (`cca-kit/...`, `msw/node`, the MCP client), and run with
 * plain node unless its fence says otherwise (test/package/snippets/extract.ts: `check`, `continued`,
 * `no-check <why>`). A doc that imports what the package does not export, or calls an API with the wrong
 * shape, fails here.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Installed, packAndInstall, ROOT, runIn } from './package/install.ts';
import { type Snippet, snippetsOf } from './package/snippets/extract.ts';
import { scaled } from './support/timeouts.ts';

const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
const VITEST = join(ROOT, 'node_modules/vitest/vitest.mjs');

/** A user's usual settings: strict, node's ESM resolution, node's and vitest's global types. */
const TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    lib: ['ES2023', 'DOM'],
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    skipLibCheck: true,
    allowJs: true,
    types: ['node', 'vitest/globals'],
    rootDir: 'snippets',
    outDir: 'out',
  },
  include: ['snippets'],
};

let installed: Installed | undefined;
const snippets: (Snippet & { readonly file: string })[] = [];
const extractionProblems: string[] = [];

beforeAll(async () => {
  installed = await packAndInstall();
  const project = installed.project;
  const shipped = join(project, 'node_modules/cca-kit');
  const pages = [
    'README.md',
    ...(await readdir(join(shipped, 'docs'))).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ];
  await mkdir(join(project, 'snippets'));
  for (const page of pages) {
    let found: Snippet[];
    try {
      found = snippetsOf(page, await readFile(join(shipped, page), 'utf8'));
    } catch (error) {
      extractionProblems.push(error instanceof Error ? error.message : String(error));
      continue;
    }
    for (const snippet of found) {
      const stem = snippet.origin.replace(/[/.:]/g, '-');
      // A block written as a vitest test file runs under vitest, which wants a test file's name.
      const file = `${stem}${usesVitest(snippet) ? '.test' : ''}.${snippet.language}`;
      snippets.push({ ...snippet, file });
      // `export {}` makes every block a module (top-level await, no clashing globals).
      if (snippet.mode !== 'no-check')
        await writeFile(join(project, 'snippets', file), `${snippet.code}\nexport {};\n`);
    }
  }
  await writeFile(join(project, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
  // What a page tells the user to install besides cca-kit and msw (vitest, openapi-fetch): this
  // repository's own copy, linked in. vitest also gives the blocks written for a test file its globals' types.
  const wanted = new Set(['vitest', ...snippets.flatMap((snippet) => importedPackages(snippet.code))]);
  for (const name of wanted) {
    const target = join(project, 'node_modules', name);
    if (existsSync(target) || !existsSync(join(ROOT, 'node_modules', name))) continue;
    await mkdir(dirname(target), { recursive: true });
    await symlink(join(ROOT, 'node_modules', name), target, 'dir');
  }
}, scaled(300_000));

afterAll(async () => {
  await installed?.remove();
});

const usesVitest = (snippet: Snippet): boolean => importedPackages(snippet.code).includes('vitest');

/** The packages a block imports (bare specifiers, `node:` left out). */
function importedPackages(code: string): string[] {
  return [...code.matchAll(/^\s*import\b[^;'"]*?['"]([^'"./][^'"]*)['"]/gm)]
    .map((match) => match[1] ?? '')
    .filter((specifier) => !specifier.startsWith('node:'))
    .map((specifier) =>
      specifier
        .split('/')
        .slice(0, specifier.startsWith('@') ? 2 : 1)
        .join('/'),
    );
}

function project(): string {
  if (installed === undefined) throw new Error('packing or installing the package failed (see beforeAll)');
  return installed.project;
}

describe('the code blocks of the README and docs/, against the installed package', () => {
  it('are each a program, a check-only block, a continuation, or no-check with a reason', () => {
    expect(extractionProblems).toEqual([]);
    expect(snippets.filter((s) => s.mode !== 'no-check').length).toBeGreaterThan(8);
    // Sparingly: most blocks run.
    const run = snippets.filter((s) => s.mode === 'run').length;
    expect(run).toBeGreaterThanOrEqual(snippets.filter((s) => s.mode === 'no-check').length);
  });

  it(
    'type-check with the imports a user would copy',
    async () => {
      const result = await runIn(project(), process.execPath, [TSC, '-p', 'tsconfig.json'], {
        timeoutMs: scaled(240_000),
      });
      const errors: Record<string, string[]> = {};
      for (const line of result.stdout.split('\n')) {
        const at = /^snippets\/([^(]+)\((\d+),\d+\): (error .*)$/.exec(line);
        // An error outside the snippets (the configuration, a package's types) is reported under tsc.
        const snippet = at === null ? undefined : snippets.find((s) => s.file === at[1]);
        const key = snippet?.origin ?? (at === null ? 'tsc' : (at[1] ?? ''));
        if (at === null && !/error TS/.test(line)) continue;
        errors[key] = [...(errors[key] ?? []), at === null ? line : `line ${at[2]}: ${at[3]}`];
      }
      expect(errors).toEqual({});
    },
    scaled(300_000),
  );

  it(
    'run to completion with plain node (a test file block: its tests pass under vitest)',
    async () => {
      const failed: Record<string, string> = {};
      for (const snippet of snippets.filter((s) => s.mode === 'run')) {
        const compiled = `out/${snippet.file.replace(/\.ts$/, '.js')}`;
        const result = usesVitest(snippet)
          ? await runIn(project(), process.execPath, [VITEST, 'run', compiled], {
              timeoutMs: scaled(120_000),
            })
          : await runIn(
              project(),
              process.execPath,
              [
                '--input-type=module',
                '-e',
                `await import(${JSON.stringify(`./${compiled}`)}); process.exit(0);`,
              ],
              { timeoutMs: scaled(60_000) },
            );
        if (result.code !== 0) {
          failed[snippet.origin] = `${result.stdout}\n${result.stderr}`
            .trim()
            .split('\n')
            .slice(0, 12)
            .join('\n');
        }
      }
      expect(failed).toEqual({});
    },
    scaled(300_000),
  );
});
