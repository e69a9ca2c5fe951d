/**
 * A sandbox worker thread: loads the QuickJS WebAssembly module once (into a WebAssembly memory with a
 * hard maximum), warms it up, then runs one execution at a time for the pool (pool.ts). Each execution
 * gets a fresh QuickJS runtime and context (run-script.ts); only plain data crosses to the main thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import * as releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';
import type { Catalog, FromWorker, ToWorker, WorkerSetup } from './protocol.ts';
import { type RunHost, runScript } from './run-script.ts';

type SettleMessage = Extract<ToWorker, { type: 'settle' }>;
type RunMessage = Extract<ToWorker, { type: 'run' }>;

const WASM_PAGE = 65536;
const WARM_UP_RUNS = 12;
const WARM_UP_SCRIPT =
  'const page = await call("warm.up", { limit: 1 }); console.log("warm", page); spec(); return [1, "two", { three: page }];';
const WARM_UP_LIMITS = {
  timeMs: 5000,
  calls: 10,
  scriptBytes: 1024,
  resultBytes: 1024,
  logLines: 10,
  logBytes: 1024,
} as const;

/**
 * The variant package declares CommonJS types (its default export typed as `module.exports.default`)
 * while Node loads its ESM build (a true default export); this reads either shape.
 */
function releaseSyncVariant(): QuickJSSyncVariant {
  const imported: unknown = releaseSync.default;
  const inner =
    typeof imported === 'object' && imported !== null && 'default' in imported ? imported.default : imported;
  return inner as QuickJSSyncVariant;
}
const INITIAL_PAGES = 256;

const port = parentPort;
if (port === null)
  throw new Error('mocks/agent/sandbox/worker.ts runs only as a worker thread (see pool.ts)');
const setup = workerData as WorkerSetup;

function post(message: FromWorker): void {
  port?.postMessage(message);
}

/** `call` answers of the current run, and the loop waiting for them. */
let currentRunId = 0;
let settles: SettleMessage[] = [];
let wake: (() => void) | null = null;
let queue: Promise<void> = Promise.resolve();

function nextSettle(deadline: number): Promise<SettleMessage | null> {
  const ready = settles.shift();
  if (ready !== undefined) return Promise.resolve(ready);
  return new Promise((resolve) => {
    const timer = setTimeout(
      () => {
        wake = null;
        resolve(null);
      },
      Math.max(0, deadline - Date.now()),
    );
    wake = () => {
      clearTimeout(timer);
      wake = null;
      resolve(settles.shift() ?? null);
    };
  });
}

async function run(module: QuickJSWASMModule, catalog: Catalog, message: RunMessage): Promise<void> {
  currentRunId = message.runId;
  settles = [];
  const runId = message.runId;
  const host: RunHost = {
    call: (callId, operationId, inputJson) => post({ type: 'call', runId, callId, operationId, inputJson }),
    log: (level, text) => post({ type: 'log', runId, level, text }),
    nextSettle,
  };
  try {
    const output = await runScript(module, catalog, message, host);
    post({ type: 'done', runId, end: output.end, truncated: output.truncated, recycle: output.recycle });
  } catch (error) {
    // runScript answers every way a script ends; a throw here is a sandbox bug: answer it and let the
    // pool replace this worker rather than leave the execution waiting.
    const failure = {
      kind: 'script_error',
      code: 'SCRIPT_ERROR',
      message: `SandboxError: the sandbox failed: ${error instanceof Error ? error.message : String(error)}`,
    } as const;
    post({
      type: 'done',
      runId,
      end: { ok: false, failure },
      truncated: { result: null, logs: null },
      recycle: true,
    });
  }
}

async function boot(): Promise<QuickJSWASMModule> {
  const wasmMemory = new WebAssembly.Memory({
    initial: INITIAL_PAGES,
    maximum: Math.max(INITIAL_PAGES, Math.ceil(setup.wasmMaxBytes / WASM_PAGE)),
  });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(releaseSyncVariant(), { wasmMemory }));
  // The first executions of a fresh isolate are slow (V8 compiles the glue and tiers up the
  // WebAssembly code); pay that before `ready`, through every path a script takes (call, console,
  // result), so the first real execution runs at full speed.
  const answers: SettleMessage[] = [];
  const warm: RunHost = {
    call: (callId) =>
      answers.push({ type: 'settle', runId: 0, callId, outcome: { ok: true, json: '{"items":[]}' } }),
    log: () => undefined,
    nextSettle: async () => answers.shift() ?? null,
  };
  for (let i = 0; i < WARM_UP_RUNS; i++) {
    await runScript(
      module,
      setup.catalog,
      {
        script: WARM_UP_SCRIPT,
        limits: {
          ...WARM_UP_LIMITS,
          memoryBytes: setup.limits.memoryBytes,
          stackBytes: setup.limits.stackBytes,
        },
        deadline: Date.now() + 5000,
      },
      warm,
    );
  }
  return module;
}

try {
  const module = await boot();
  port.on('message', (message: ToWorker) => {
    if (message.type === 'settle') {
      if (message.runId !== currentRunId) return;
      settles.push(message);
      wake?.();
      return;
    }
    queue = queue.then(() => run(module, setup.catalog, message));
  });
  post({ type: 'ready' });
} catch (error) {
  post({ type: 'boot-failed', message: error instanceof Error ? error.message : String(error) });
}
