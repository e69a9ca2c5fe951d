/**
 * Where a worker thread's code is and how to start it, from source or from the compiled package:
 * beside the module that asks there is either `NAME.js` (compiled by `tsc`, started as-is) or only
 * `NAME.ts` (a source checkout under vitest or tsx). A `.ts` worker needs tsx's loader inside the
 * worker thread; Node 20 ignores `--import` in a worker's `execArgv`, so a one-line bootstrap
 * registers tsx's ESM hooks in the worker (`tsx/esm/api` `register()`) and then imports `NAME.ts`.
 * A bootstrap that fails posts `{ type: 'boot-failed', message }`. Node only.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The first argument of `new Worker(...)` and whether it is code to evaluate. */
export interface WorkerEntry {
  readonly source: URL | string;
  readonly eval: boolean;
}

function sourceBootstrap(workerUrl: URL): string {
  // Resolved from this package, not from the process's working directory. `tsx/esm/api` is the
  // import-condition entry of tsx's exports map ("./esm/api" -> dist/esm/api/index.mjs).
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const api = pathToFileURL(join(tsxRoot, 'dist', 'esm', 'api', 'index.mjs')).href;
  return [
    `import(${JSON.stringify(api)})`,
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl.href)}); })`,
    `.catch((error) => require('node:worker_threads').parentPort.postMessage({ type: 'boot-failed', message: String(error && error.message) }));`,
  ].join('');
}

/**
 * The entry of the worker compiled as `compiled` (beside its caller) or, where that is missing, of its
 * source `source`. Each caller writes both `new URL('./NAME.js', import.meta.url)` out itself: that is
 * how bundlers and the package's dependency walk find a worker's module.
 *
 * @example
 * const entry = workerEntryBeside(new URL('./worker.js', import.meta.url), new URL('./worker.ts', import.meta.url));
 * new Worker(entry.source, { eval: entry.eval });
 */
export function workerEntryBeside(compiled: URL, source: URL): WorkerEntry {
  return existsSync(fileURLToPath(compiled))
    ? { source: compiled, eval: false }
    : { source: sourceBootstrap(source), eval: true };
}
