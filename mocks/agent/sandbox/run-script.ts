/**
 * One execution inside a worker: a fresh QuickJS runtime and context, the prelude's globals, the
 * script as an async function body, then a small event loop that runs QuickJS's pending jobs and
 * feeds it `call` results from the main thread until the script's promise settles, a limit stops it,
 * or it waits for something that can never arrive.
 *
 * Limits enforced here: time (the interrupt handler's deadline, and the wait for call results),
 * memory (the runtime's malloc limit), stack (QuickJS's stack check), calls, console and result size.
 * The main thread backs the time and memory limits by terminating the worker (pool.ts).
 */
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten-core';
import type { AgentFailure } from '../types.ts';
import type { LogLevel, ResultCut, Truncations } from './envelope.ts';
import { limitFailure, scriptFailure, uncaughtCallFailure } from './failures.ts';
import type { ExecutionLimits } from './limits.ts';
import { LogBudget } from './log-budget.ts';
import { PRELUDE_SOURCE, SCRIPT_FILE, wrapScript } from './prelude.ts';
import type { Catalog, RunEnd, ToWorker } from './protocol.ts';
import { describeThrown, type Thrown } from './thrown.ts';

type SettleMessage = Extract<ToWorker, { type: 'settle' }>;

/** What an execution needs from the thread it runs on. */
export interface RunHost {
  call(callId: number, operationId: string, inputJson: string): void;
  log(level: LogLevel, text: string): void;
  /** The next `call` answer of this run, or null once `deadline` (epoch ms) has passed. */
  nextSettle(deadline: number): Promise<SettleMessage | null>;
}

export interface RunRequest {
  readonly script: string;
  readonly limits: ExecutionLimits;
  readonly deadline: number;
}

export interface RunOutput {
  readonly end: RunEnd;
  readonly truncated: Truncations;
  readonly recycle: boolean;
}

/** The longest operation id and call input a script may pass (both are copied out of QuickJS). */
const MAX_OPERATION_ID_CHARS = 200;
const MAX_CALL_INPUT_CHARS = 1024 * 1024;

const LOG_LEVELS: readonly LogLevel[] = ['log', 'info', 'warn', 'error'];

/** Mutable state of one run, shared by the host functions and the loop. */
interface RunState {
  abort: AgentFailure | null;
  callsMade: number;
  nextCallId: number;
  readonly pendingCalls: Set<number>;
}

function stringLength(ctx: QuickJSContext, handle: QuickJSHandle): number {
  const length = ctx.getProp(handle, 'length');
  try {
    return ctx.getNumber(length);
  } finally {
    length.dispose();
  }
}

/** Reads a string the script passed to a host function, refusing anything longer than `max`. */
function readString(ctx: QuickJSContext, handle: QuickJSHandle, what: string, max: number): string {
  if (ctx.typeof(handle) !== 'string') throw new TypeError(`${what} must be a string`);
  if (stringLength(ctx, handle) > max) throw new RangeError(`${what} is longer than ${max} characters`);
  return ctx.getString(handle);
}

function classify(thrown: Thrown, state: RunState, limits: ExecutionLimits, script = ''): AgentFailure {
  if (state.abort !== null) return state.abort;
  // QuickJS throws null when it runs out of memory again while building the "out of memory" error; a
  // script with no `throw` of its own cannot have thrown it.
  if (thrown.nullValue === true && !/\bthrow\b/.test(script))
    return limitFailure('memory', limits.memoryBytes);
  if (thrown.name === 'InternalError') {
    if (thrown.message === 'interrupted') return limitFailure('time', limits.timeMs);
    // 'out of memory', 'out of memory in regexp execution'...
    if (thrown.message.startsWith('out of memory')) return limitFailure('memory', limits.memoryBytes);
    if (thrown.message === 'stack overflow') return limitFailure('stack', limits.stackBytes);
  }
  return scriptFailure(thrown);
}

/** Runs one script to its end. Never throws: every way it can end is a `RunOutput`. */
export async function runScript(
  module: QuickJSWASMModule,
  catalog: Catalog,
  request: RunRequest,
  host: RunHost,
): Promise<RunOutput> {
  const { limits, deadline } = request;
  const logs = new LogBudget(limits.logLines, limits.logBytes);
  const state: RunState = { abort: null, callsMade: 0, nextCallId: 1, pendingCalls: new Set() };
  const output = (end: RunEnd, recycle = false): RunOutput => ({
    end,
    // The result's truncation is reported by the pool, which knows the calls (where to resume).
    truncated: { result: null, logs: logs.truncation() },
    recycle,
  });

  const runtime = module.newRuntime();
  runtime.setMemoryLimit(limits.memoryBytes);
  runtime.setMaxStackSize(limits.stackBytes);
  runtime.setInterruptHandler(() => state.abort !== null || Date.now() > deadline);
  const ctx = runtime.newContext();
  const handles: QuickJSHandle[] = [];
  const keep = (handle: QuickJSHandle): QuickJSHandle => {
    handles.push(handle);
    return handle;
  };

  let result: RunOutput;
  try {
    result = await drive();
  } catch (error) {
    // A host-side exception inside QuickJS's calls (V8's own stack overflowing under deep wasm
    // recursion, a trap): the module's state is suspect, so the worker is replaced afterwards.
    const stack = error instanceof RangeError && /call stack/i.test(error.message);
    const memory = error instanceof Error && /out of memory|memory access out of bounds/i.test(error.message);
    const failure = stack
      ? limitFailure('stack', limits.stackBytes)
      : memory
        ? limitFailure('memory', limits.memoryBytes)
        : scriptFailure({
            name: 'SandboxError',
            message: `The sandbox failed: ${String(error)}`,
            line: null,
          });
    return output({ ok: false, failure: state.abort ?? failure }, true);
  }
  let recycle = result.recycle;
  try {
    for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
    ctx.dispose();
    runtime.dispose();
  } catch {
    recycle = true;
  }
  return { ...result, recycle };

  async function drive(): Promise<RunOutput> {
    const api = install();
    if (!api.ok) return output({ ok: false, failure: api.failure });
    const compiled = ctx.evalCode(wrapScript(request.script), SCRIPT_FILE);
    if ('error' in compiled && compiled.error !== undefined) {
      return output({ ok: false, failure: classify(take(compiled.error), state, limits, request.script) });
    }
    const fn = keep(compiled.value);
    const started = ctx.callFunction(fn, ctx.undefined);
    if (started.error !== undefined)
      return output({ ok: false, failure: classify(take(started.error), state, limits, request.script) });
    const promise = keep(started.value);

    for (;;) {
      const jobs = runtime.executePendingJobs();
      if (jobs.error !== undefined)
        return output({ ok: false, failure: classify(take(jobs.error), state, limits, request.script) });
      if (state.abort !== null) return output({ ok: false, failure: state.abort });
      const settled = ctx.getPromiseState(promise);
      if (settled.type === 'fulfilled') {
        if (!settled.notAPromise) keep(settled.value);
        return output(finish(api.finish, settled.value));
      }
      if (settled.type === 'rejected') return output({ ok: false, failure: rejection(api, settled.error) });
      if (state.pendingCalls.size === 0)
        return output({
          ok: false,
          failure: scriptFailure({
            name: 'Error',
            message:
              'The script awaits a promise that nothing can settle: only call() answers arrive from outside (there are no timers)',
            line: null,
          }),
        });
      const message = await host.nextSettle(deadline);
      if (message === null) return output({ ok: false, failure: limitFailure('time', limits.timeMs) });
      const applied = settle(api.settle, message);
      if (applied !== null) return output({ ok: false, failure: applied });
    }
  }

  /**
   * Why the script's promise was rejected: an uncaught `call` failure keeps its kind, field and the
   * script line of the call; anything else is classified (a limit, or a script error). Frees `handle`.
   */
  function rejection(api: { readonly callFailureOf: QuickJSHandle }, handle: QuickJSHandle): AgentFailure {
    if (state.abort === null) {
      const asked = ctx.callFunction(api.callFailureOf, ctx.undefined, handle);
      if (asked.error === undefined) {
        const json = ctx.typeof(asked.value) === 'string' ? ctx.getString(asked.value) : '';
        asked.value.dispose();
        const uncaught = json === '' ? null : uncaughtCallFailure(json);
        if (uncaught !== null) {
          handle.dispose();
          return uncaught;
        }
      } else {
        const thrown = take(asked.error);
        const failure = classify(thrown, state, limits, request.script);
        if (failure.kind === 'limit_exceeded') {
          handle.dispose();
          return failure;
        }
      }
    }
    return classify(take(handle), state, limits, request.script);
  }

  /** Describes a thrown QuickJS value and frees it. */
  function take(handle: QuickJSHandle): Thrown {
    try {
      return describeThrown(ctx, handle);
    } finally {
      handle.dispose();
    }
  }

  function install():
    | { ok: true; settle: QuickJSHandle; finish: QuickJSHandle; callFailureOf: QuickJSHandle }
    | { ok: false; failure: AgentFailure } {
    const hostCall = keep(
      ctx.newFunction('hostCall', (idHandle, inputHandle) => {
        if (state.callsMade >= limits.calls) {
          state.abort = limitFailure('calls', limits.calls);
          throw new RangeError(state.abort.message);
        }
        const operationId = readString(
          ctx,
          idHandle,
          'call(operationId, input): operationId',
          MAX_OPERATION_ID_CHARS,
        );
        const inputJson = readString(
          ctx,
          inputHandle,
          `The input of call('${operationId}')`,
          MAX_CALL_INPUT_CHARS,
        );
        state.callsMade += 1;
        const callId = state.nextCallId++;
        state.pendingCalls.add(callId);
        host.call(callId, operationId, inputJson);
        return ctx.newNumber(callId);
      }),
    );
    const hostLog = keep(
      ctx.newFunction('hostLog', (levelHandle, textHandle, lengthHandle) => {
        const level = ctx.typeof(levelHandle) === 'string' ? ctx.getString(levelHandle) : 'log';
        const text = readString(ctx, textHandle, 'console text', limits.logBytes);
        const fullLength = ctx.typeof(lengthHandle) === 'number' ? ctx.getNumber(lengthHandle) : text.length;
        const kept = logs.admit(text, fullLength);
        if (kept !== null) host.log(LOG_LEVELS.find((l) => l === level) ?? 'log', kept);
      }),
    );
    const hostSpec = keep(
      ctx.newFunction('hostSpec', (idHandle) => {
        if (ctx.typeof(idHandle) === 'undefined') return ctx.newString(JSON.stringify(catalog.list));
        const id = readString(ctx, idHandle, 'spec(operationId): operationId', MAX_OPERATION_ID_CHARS);
        const found = Object.hasOwn(catalog.specs, id) ? catalog.specs[id] : undefined;
        if (found === undefined)
          throw new Error(
            `spec('${id}'): no such operation; spec() lists them (${catalog.list.map((o) => o.id).join(', ')})`,
          );
        return ctx.newString(JSON.stringify(found));
      }),
    );
    const prelude = ctx.evalCode(PRELUDE_SOURCE, 'sandbox-prelude.js');
    if (prelude.error !== undefined)
      return { ok: false, failure: classify(take(prelude.error), state, limits, request.script) };
    const factory = keep(prelude.value);
    const made = ctx.callFunction(
      factory,
      ctx.undefined,
      hostCall,
      hostLog,
      hostSpec,
      keep(ctx.newNumber(limits.logBytes)),
    );
    if (made.error !== undefined)
      return { ok: false, failure: classify(take(made.error), state, limits, request.script) };
    const api = keep(made.value);
    return {
      ok: true,
      settle: keep(ctx.getProp(api, 'settle')),
      finish: keep(ctx.getProp(api, 'finish')),
      callFailureOf: keep(ctx.getProp(api, 'callFailureOf')),
    };
  }

  /** Hands one `call` answer to the script; a failure here (memory, time) ends the run. */
  function settle(settleFn: QuickJSHandle, message: SettleMessage): AgentFailure | null {
    state.pendingCalls.delete(message.callId);
    const { outcome } = message;
    const args = [
      ctx.newNumber(message.callId),
      outcome.ok ? ctx.true : ctx.false,
      ctx.newString(outcome.ok ? outcome.json : JSON.stringify(outcome.failure)),
      ctx.newString(outcome.ok ? '' : outcome.message),
    ];
    try {
      const done = ctx.callFunction(settleFn, ctx.undefined, ...args);
      if (done.error !== undefined) {
        const thrown = take(done.error);
        const failure = classify(thrown, state, limits, request.script);
        return failure.kind === 'limit_exceeded' ? failure : null;
      }
      done.value.dispose();
      return null;
    } finally {
      for (const arg of args) if (arg.alive) arg.dispose();
    }
  }

  /**
   * Reads the return value as JSON within `resultBytes`: the whole value, or a preview of it (built
   * inside QuickJS under the same budget, so a large value never costs more than the budget here).
   */
  function finish(finishFn: QuickJSHandle, value: QuickJSHandle): RunEnd {
    const made = ctx.callFunction(finishFn, ctx.undefined, value, keep(ctx.newNumber(limits.resultBytes)));
    if (made.error !== undefined)
      return { ok: false, failure: classify(take(made.error), state, limits, request.script) };
    const record = keep(made.value);
    const read = (name: string): QuickJSHandle => keep(ctx.getProp(record, name));
    const sizeHandle = read('size');
    const textHandle = read('text');
    const cutHandle = read('cut');
    const unreadable = {
      ok: false,
      failure: scriptFailure({ name: 'Error', message: 'The return value could not be read', line: null }),
    } as const;
    if (ctx.typeof(sizeHandle) !== 'number' || ctx.typeof(textHandle) !== 'string') return unreadable;
    const text = ctx.getString(textHandle);
    const size = ctx.getNumber(sizeHandle);
    if (ctx.typeof(cutHandle) !== 'string') {
      if (Buffer.byteLength(text) > limits.resultBytes) return unreadable;
      return { ok: true, resultJson: text, size, cut: null };
    }
    const cut = JSON.parse(ctx.getString(cutHandle)) as ResultCut;
    // The preview is built to fit; a preview that does not (a bug) is answered as null, still cut.
    const fits = Buffer.byteLength(text) <= limits.resultBytes;
    return { ok: true, resultJson: fits ? text : 'null', size, cut };
  }
}
