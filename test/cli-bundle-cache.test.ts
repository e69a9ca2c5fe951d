/**
 * The CLI's bundle cache (`bin/bundle-cache.js`): built when missing, reused while fresh, rebuilt when
 * an input changes, safe under concurrent first starts, and never in the way: `CCA_KIT_NO_BUNDLE=1`,
 * an unusable cache directory or a corrupt build all leave a working CLI (run through tsx).
 *
 * The CLI runs from a copy of the project (node_modules linked), so that edits made in the working
 * tree while the tests run cannot change what they observe, and a test can edit a source file; each
 * test keeps its cache in its own temporary directory (`CCA_KIT_CACHE_DIR`).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { changedInput, freshEntry, type InputRecord, recordInputs } from '../bin/bundle-cache.js';
import { ROOT } from './support/processes.ts';

interface Manifest {
  readonly root: string;
  readonly build: string;
  readonly entry: string;
  readonly inputs: InputRecord[];
}

/** What the CLI needs of the project, copied; node_modules is linked. */
const PROJECT_FILES = [
  'bin',
  'src',
  'mocks',
  'fixtures',
  'contract',
  'suites',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
];

let project: string;
let work: string;

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'cca-kit-project-'));
  for (const name of PROJECT_FILES) cpSync(join(ROOT, name), join(project, name), { recursive: true });
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

beforeEach(() => {
  work = mkdtempSync(join(tmpdir(), 'cca-kit-bundle-'));
});

afterEach(() => {
  rmSync(work, { recursive: true, force: true });
});

const readManifest = (cacheDir: string): Manifest =>
  JSON.parse(readFileSync(join(cacheDir, 'manifest.json'), 'utf8')) as Manifest;

const builds = (cacheDir: string): string[] =>
  readdirSync(cacheDir).filter((name) => name !== 'manifest.json' && !name.endsWith('.tmp'));

/**
 * Starts the copy's `cca-kit mock --port 0` with the given environment, waits for its banner, asks
 * its HTTP server for a Swagger UI file, stops it with SIGINT and returns its output and exit code.
 */
async function runMock(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const { CCA_KIT_NO_BUNDLE: _ignored, ...inherited } = process.env;
  const child: ChildProcess = spawn(
    process.execPath,
    [join(project, 'bin', 'cca-kit.js'), 'mock', '--port', '0', '--host', '127.0.0.1'],
    { cwd: project, env: { ...inherited, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const deadline = Date.now() + 60_000;
    let url: string | undefined;
    while (url === undefined && Date.now() < deadline && child.exitCode === null) {
      url = /listening on (http:\/\/[^\s]+)/.exec(output)?.[1];
      if (url === undefined) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    if (url === undefined) throw new Error(`the CLI did not start:\n${output}`);
    // Swagger UI's files are found relative to the source module (import.meta.url), also from a
    // bundle kept outside the project.
    const asset = await fetch(`${url}/docs/swagger-ui.css`);
    await asset.arrayBuffer();
    output += `\nswagger-ui.css: ${asset.status}\n`;
  } finally {
    child.kill('SIGINT');
  }
  return { code: await exited, output };
}

describe('the CLI bundle cache', () => {
  const fresh = (cacheDir: string) => freshEntry(cacheDir, `${project}${sep}`);

  it('builds the bundle on the first start, then reuses it while its inputs are unchanged', async () => {
    const cacheDir = join(work, 'cache');
    const first = await runMock({ CCA_KIT_CACHE_DIR: cacheDir });
    expect(first.code).toBe(0);
    expect(first.output).toContain('swagger-ui.css: 200');
    const manifest = readManifest(cacheDir);
    expect(manifest.root).toBe(`${project}${sep}`);
    expect(fresh(cacheDir)).toBe(join(cacheDir, manifest.build, manifest.entry));
    const recorded = manifest.inputs.map(([path]) => path);
    expect(recorded).toEqual(
      expect.arrayContaining(['src/cli/main.ts', 'contract/openapi.json', 'package-lock.json']),
    );
    expect(recorded.some((path) => path.endsWith('node_modules/ajv/package.json'))).toBe(true);
    // The validators of contract/openapi.json, compiled ahead of time beside the bundle.
    expect(recorded).toContain('src/contract/validator-schemas.ts');
    expect(readdirSync(join(cacheDir, manifest.build, 'validators')).length).toBeGreaterThan(100);

    const second = await runMock({ CCA_KIT_CACHE_DIR: cacheDir });
    expect(second.code).toBe(0);
    expect(second.output).toContain('swagger-ui.css: 200');
    expect(readManifest(cacheDir).build).toBe(manifest.build);
    expect(builds(cacheDir)).toEqual([manifest.build]);
  });

  it('editing a source file makes the next start build a new bundle, which has the edit', async () => {
    const cacheDir = join(work, 'cache');
    await runMock({ CCA_KIT_CACHE_DIR: cacheDir });
    const before = readManifest(cacheDir);
    const edited = join(project, 'src', 'cli', 'mock-command.ts');
    const original = readFileSync(edited, 'utf8');
    try {
      writeFileSync(edited, original.replace("'Press Ctrl+C to stop.'", "'Press Ctrl+C to stop (edited).'"));
      expect(fresh(cacheDir)).toBeUndefined();
      const run = await runMock({ CCA_KIT_CACHE_DIR: cacheDir });
      expect(run.code).toBe(0);
      expect(run.output).toContain('Press Ctrl+C to stop (edited).');
      const after = readManifest(cacheDir);
      expect(after.build).not.toBe(before.build);
      expect(fresh(cacheDir)).toBe(join(cacheDir, after.build, after.entry));
    } finally {
      writeFileSync(edited, original);
    }
  });

  it('two concurrent first starts both come up, and leave one complete current build', async () => {
    const cacheDir = join(work, 'cache');
    const runs = await Promise.all([
      runMock({ CCA_KIT_CACHE_DIR: cacheDir }),
      runMock({ CCA_KIT_CACHE_DIR: cacheDir }),
    ]);
    for (const run of runs) {
      expect(run.code).toBe(0);
      expect(run.output).toContain('swagger-ui.css: 200');
    }
    expect(fresh(cacheDir)).toBeDefined();
    expect(readdirSync(cacheDir).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });

  it('CCA_KIT_NO_BUNDLE=1 runs the sources through tsx and leaves the cache alone', async () => {
    const cacheDir = join(work, 'cache');
    const run = await runMock({ CCA_KIT_CACHE_DIR: cacheDir, CCA_KIT_NO_BUNDLE: '1' });
    expect(run.code).toBe(0);
    expect(run.output).toContain('swagger-ui.css: 200');
    expect(existsSync(cacheDir)).toBe(false);
  });

  it('falls back to tsx when the cache directory cannot be created', async () => {
    const blocker = join(work, 'a-file');
    writeFileSync(blocker, 'not a directory');
    const run = await runMock({ CCA_KIT_CACHE_DIR: join(blocker, 'cache') });
    expect(run.code).toBe(0);
    expect(run.output).toContain('swagger-ui.css: 200');
  });

  it('falls back to tsx on a corrupt build, and forgets it so the next start rebuilds', async () => {
    const cacheDir = join(work, 'cache');
    await runMock({ CCA_KIT_CACHE_DIR: cacheDir });
    const corrupt = readManifest(cacheDir);
    writeFileSync(join(cacheDir, corrupt.build, corrupt.entry), 'export const main = (;\n');

    const fallback = await runMock({ CCA_KIT_CACHE_DIR: cacheDir });
    expect(fallback.code).toBe(0);
    expect(fallback.output).toContain('swagger-ui.css: 200');
    expect(existsSync(join(cacheDir, 'manifest.json'))).toBe(false);

    await runMock({ CCA_KIT_CACHE_DIR: cacheDir });
    expect(readManifest(cacheDir).build).not.toBe(corrupt.build);
    expect(fresh(cacheDir)).toBeDefined();
  });
});

describe('freshness of the recorded inputs', () => {
  it('a touched file (same size, new mtime), a resized file and a new file each count as changed', () => {
    writeFileSync(join(work, 'a.ts'), 'export const a = 1;\n');
    writeFileSync(join(work, 'b.ts'), 'export const b = 2;\n');
    const recorded = recordInputs(['a.ts', 'b.ts', 'c.ts'], work);
    expect(recorded[2]).toEqual(['c.ts', -1, 0]);
    expect(changedInput(recorded, work)).toBeUndefined();

    const { atime, mtime } = statSync(join(work, 'a.ts'));
    utimesSync(join(work, 'a.ts'), atime, new Date(mtime.getTime() + 2000));
    expect(changedInput(recorded, work)).toBe('a.ts');

    writeFileSync(join(work, 'b.ts'), 'export const b = 22;\n');
    expect(changedInput(recorded.slice(1), work)).toBe('b.ts');
    expect(changedInput(recordInputs(['a.ts', 'b.ts', 'c.ts'], work), work)).toBeUndefined();

    writeFileSync(join(work, 'c.ts'), 'export const c = 3;\n');
    expect(changedInput(recorded.slice(2), work)).toBe('c.ts');
  });

  it('a build is fresh only with its manifest, its entry file and the checkout it was built for', () => {
    const root = join(work, 'checkout');
    const cacheDir = join(work, 'cache');
    mkdirSync(root);
    mkdirSync(join(cacheDir, 'b1'), { recursive: true });
    writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
    expect(freshEntry(cacheDir, root)).toBeUndefined();

    const manifest = { root, build: 'b1', entry: 'main.js', inputs: recordInputs(['a.ts'], root) };
    writeFileSync(join(cacheDir, 'manifest.json'), JSON.stringify(manifest));
    expect(freshEntry(cacheDir, root)).toBeUndefined();
    writeFileSync(join(cacheDir, 'b1', 'main.js'), 'export const main = () => 0;\n');
    expect(freshEntry(cacheDir, root)).toBe(join(cacheDir, 'b1', 'main.js'));
    expect(freshEntry(cacheDir, join(work, 'moved'))).toBeUndefined();

    writeFileSync(join(cacheDir, 'manifest.json'), '{"root":');
    expect(freshEntry(cacheDir, root)).toBeUndefined();
  });
});
