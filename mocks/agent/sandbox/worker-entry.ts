/**
 * Where the worker's code is and how to start it, from source or from the compiled package: beside
 * this module there is either `worker.js` (compiled by `tsc`, started as-is) or only `worker.ts` (a
 * source checkout under vitest or tsx). A `.ts` worker needs tsx's loader inside the worker thread;
 * Node 20 ignores `--import` in a worker's `execArgv`, so a one-line bootstrap registers tsx's ESM
 * hooks in the worker (`tsx/esm/api` `register()`) and then imports `worker.ts`.
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

let cached: WorkerEntry | undefined;

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

export function workerEntry(): WorkerEntry {
  if (cached !== undefined) return cached;
  const compiled = new URL('./worker.js', import.meta.url);
  cached = existsSync(fileURLToPath(compiled))
    ? { source: compiled, eval: false }
    : { source: sourceBootstrap(new URL('./worker.ts', import.meta.url)), eval: true };
  return cached;
}
