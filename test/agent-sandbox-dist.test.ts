/**
 * The sandbox also runs from the compiled package: the package build turns `.ts` into `.js` keeping
 * the folder layout (`tsc` with `rewriteRelativeImportExtensions`), and then the worker must start
 * from `worker.js` without any TypeScript loader. This compiles mocks/agent/sandbox/ (and the engine's
 * `worker-entry.ts` it finds its worker with) the same way, file by file, into a scratch folder inside
 * node_modules (so its bare imports resolve) with the same layout, and runs a script.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { fakeRegistry, readerContext } from './agent-sandbox-support.ts';

type SandboxModule = typeof import('../mocks/agent/sandbox/index.ts');
type EntryModule = typeof import('../mocks/agent/sandbox/worker-entry.ts');

const root = fileURLToPath(new URL('..', import.meta.url));
const source = join(root, 'mocks', 'agent', 'sandbox');
const engineSource = join(root, 'mocks', 'engine');
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const scratch = mkdtempSync(join(cache, 'cca-kit-sandbox-dist-'));
const out = join(scratch, 'mocks', 'agent', 'sandbox');

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

function compileFile(from: string, to: string): void {
  const { outputText } = ts.transpileModule(readFileSync(from, 'utf8'), {
    fileName: from,
    compilerOptions: {
      // transpileModule cannot see package.json's "type": ESNext is the ESM that tsc emits here.
      module: ts.ModuleKind.ESNext,
      target: ts.ScriptTarget.ES2022,
      verbatimModuleSyntax: true,
      rewriteRelativeImportExtensions: true,
    },
  });
  writeFileSync(to, outputText);
}

function compile(): void {
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(source)) {
    if (!name.endsWith('.ts') || name.endsWith('.test.ts')) continue;
    compileFile(join(source, name), join(out, name.replace(/\.ts$/, '.js')));
  }
  mkdirSync(join(scratch, 'mocks', 'engine'), { recursive: true });
  compileFile(join(engineSource, 'worker-entry.ts'), join(scratch, 'mocks', 'engine', 'worker-entry.js'));
  writeFileSync(join(scratch, 'package.json'), '{ "type": "module" }\n');
}

describe('execute sandbox from compiled JavaScript', () => {
  it('starts worker.js directly (no tsx) and runs a script with a call', async () => {
    compile();
    const entry = (await import(pathToFileURL(join(out, 'worker-entry.js')).href)) as EntryModule;
    expect(entry.workerEntry()).toEqual({
      source: new URL(pathToFileURL(join(out, 'worker.js')).href),
      eval: false,
    });
    const sandboxModule = (await import(pathToFileURL(join(out, 'index.js')).href)) as SandboxModule;
    const sandbox = sandboxModule.createSandbox(fakeRegistry(), { poolSize: 1 });
    try {
      await sandbox.ready();
      const outcome = await sandbox.runScript(
        readerContext(),
        'const r = await call("echo", { id: "0012345678901234567890" }); console.log("compiled"); return r.input.id;',
      );
      if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
      expect(outcome.value.result).toBe('0012345678901234567890');
      expect(outcome.value.logs).toEqual([{ level: 'log', text: 'compiled' }]);
    } finally {
      await sandbox.close();
    }
  });
});
