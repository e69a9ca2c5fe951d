/**
 * The pool of sandbox workers on the main thread: a bounded number of warm workers, a bounded queue
 * (one more execution is refused with `busy`), and the backstops QuickJS cannot provide by itself:
 *
 * - wall time: a worker still running `killGraceMs` past `timeMs` (stuck in a built-in that never
 *   reaches the interrupt check) is terminated and replaced;
 * - memory: each worker has a V8 heap limit (`resourceLimits`); a worker that dies of it is reported as
 *   `limit_exceeded` memory and replaced (the WebAssembly memory has its own hard maximum, worker.ts);
 * - calls: a worker that posts more calls than allowed is terminated.
 *
 * `call` answers are computed here, where the engine and the registry live, and posted back.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { AgentContext, AgentFailure, OperationRegistry, Outcome } from '../types.ts';
import {
  type ExecuteCall,
  type ExecuteFailure,
  type ExecuteLog,
  type ExecuteResult,
  type ExecutionReport,
  emptyReport,
  type ResultCut,
  type ResumeHint,
  summariseCalls,
  type Truncations,
} from './envelope.ts';
import { busyFailure, describeCallFailure, limitFailure, scriptFailure } from './failures.ts';
import { type ExecutionLimits, executionLimits, type SandboxLimits } from './limits.ts';
import type { Catalog, FromWorker, RunEnd, ToWorker, WorkerSetup } from './protocol.ts';
import { type AnsweredPage, asPage, findResume } from './resume.ts';
import { workerEntry } from './worker-entry.ts';

/** What an execution answers: the envelope, or a failure that carries the report so far. */
export type ExecutionOutcome =
  | { readonly ok: true; readonly value: ExecuteResult }
  | { readonly ok: false; readonly failure: ExecuteFailure };

/** Counters for tests, benchmarks and operators. */
export interface PoolStats {
  readonly workersStarted: number;
  /** Workers terminated and replaced (a time or memory backstop, a crash, a suspect state). */
  readonly workersReplaced: number;
  readonly running: number;
  readonly queued: number;
}

interface Job {
  readonly ctx: AgentContext;
  readonly script: string;
  readonly limits: ExecutionLimits;
  readonly resolve: (outcome: ExecutionOutcome) => void;
  readonly onAbort: () => void;
}

interface Running {
  readonly runId: number;
  readonly job: Job;
  readonly startedAt: number;
  readonly logs: ExecuteLog[];
  readonly calls: ExecuteCall[];
  readonly killTimer: NodeJS.Timeout;
  /** The pages the calls answered: where a cut export resumes is found among them (resume.ts). */
  readonly pages: AnsweredPage[];
}

interface Slot {
  worker: Worker;
  state: 'booting' | 'idle' | 'busy' | 'dead';
  running: Running | null;
  bootError: string | null;
}

const MiB = 1024 * 1024;

function cancelled(): AgentFailure {
  return scriptFailure({
    name: 'Error',
    message: 'The execution was cancelled: the client went away or the server is stopping',
    line: null,
  });
}

/** The report of a cut return value: its size, what the preview left out, and how to resume. */
function resultTruncation(
  limits: ExecutionLimits,
  size: number,
  cut: ResultCut,
  resume: ResumeHint | null,
): NonNullable<Truncations['result']> {
  const left = [
    cut.items > 0 ? `${cut.items} array items` : '',
    cut.characters > 0 ? `${cut.characters} characters of strings` : '',
    cut.keys > 0 ? `${cut.keys} object keys` : '',
  ].filter((part) => part !== '');
  const how =
    resume === null
      ? 'No cursor names the first item left out: return one page per execute (a limit and its nextCursor), then run execute again with that cursor.'
      : `To continue, call ${resume.operationId} with truncated.result.resume.input: its cursor starts at the first item this preview left out.`;
  return {
    limit: limits.resultBytes,
    unit: 'bytes',
    size,
    cut,
    resume,
    message: `The return value's JSON is ${size} bytes, over the ${limits.resultBytes}-byte limit: result is a preview without ${left.join(', ') || 'some content'} (see cut.at). ${how}`,
  };
}

export class SandboxPool {
  readonly #registry: OperationRegistry;
  readonly #limits: SandboxLimits;
  readonly #setup: WorkerSetup;
  readonly #slots: Slot[] = [];
  readonly #queue: Job[] = [];
  readonly #readyWaiters: (() => void)[] = [];
  #nextRunId = 1;
  #started = 0;
  #replaced = 0;
  #closed = false;

  constructor(registry: OperationRegistry, catalog: Catalog, limits: SandboxLimits) {
    this.#registry = registry;
    this.#limits = limits;
    this.#setup = {
      catalog,
      wasmMaxBytes: limits.memoryBytes + limits.wasmHeadroomBytes,
      limits: executionLimits(limits),
    };
    for (let i = 0; i < limits.poolSize; i++) {
      const slot: Slot = { worker: this.#spawn(), state: 'booting', running: null, bootError: null };
      this.#slots.push(slot);
      this.#listen(slot);
    }
  }

  /** Resolves once no worker is booting (every worker is ready, or failed to start). */
  ready(): Promise<void> {
    if (!this.#slots.some((s) => s.state === 'booting')) return Promise.resolve();
    return new Promise((resolve) => this.#readyWaiters.push(resolve));
  }

  stats(): PoolStats {
    return {
      workersStarted: this.#started,
      workersReplaced: this.#replaced,
      running: this.#slots.filter((s) => s.running !== null).length,
      queued: this.#queue.length,
    };
  }

  /** Runs one script: waits for a worker (or is refused `busy`), then answers its outcome. */
  run(ctx: AgentContext, script: string): Promise<ExecutionOutcome> {
    const limits = executionLimits(this.#limits);
    const refuse = (failure: AgentFailure): Promise<ExecutionOutcome> =>
      Promise.resolve({ ok: false, failure: { ...failure, execution: emptyReport(limits) } });
    if (this.#closed)
      return refuse(scriptFailure({ name: 'Error', message: 'The sandbox is closed', line: null }));
    if (Buffer.byteLength(script) > limits.scriptBytes)
      return refuse(limitFailure('script_size', limits.scriptBytes));
    if (ctx.signal.aborted) return refuse(cancelled());
    const running = this.#slots.filter((s) => s.running !== null).length;
    if (running + this.#queue.length >= this.#limits.poolSize + this.#limits.queueLength)
      return refuse(busyFailure(this.#limits.busyRetryAfterMs, running, this.#queue.length));
    // Workers that failed to start get one new attempt per execution, never a restart loop.
    if (this.#slots.every((s) => s.state === 'dead')) for (const slot of this.#slots) this.#replace(slot);

    return new Promise((resolve) => {
      const job: Job = {
        ctx,
        script,
        limits,
        resolve: (outcome) => {
          ctx.signal.removeEventListener('abort', job.onAbort);
          resolve(outcome);
        },
        onAbort: () => {
          const queued = this.#queue.indexOf(job);
          if (queued >= 0) {
            this.#queue.splice(queued, 1);
            job.resolve({ ok: false, failure: { ...cancelled(), execution: emptyReport(limits) } });
            return;
          }
          const slot = this.#slots.find((s) => s.running?.job === job);
          if (slot !== undefined) this.#stop(slot, cancelled());
        },
      };
      ctx.signal.addEventListener('abort', job.onAbort, { once: true });
      this.#queue.push(job);
      this.#pump();
    });
  }

  /** Stops every worker; queued and running executions answer a failure. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const closing = scriptFailure({ name: 'Error', message: 'The sandbox is closed', line: null });
    for (const job of this.#queue.splice(0))
      job.resolve({ ok: false, failure: { ...closing, execution: emptyReport(job.limits) } });
    await Promise.all(
      this.#slots.map(async (slot) => {
        if (slot.running !== null) this.#complete(slot, { ok: false, failure: closing }, null);
        slot.state = 'dead';
        await slot.worker.terminate();
      }),
    );
    for (const wake of this.#readyWaiters.splice(0)) wake();
  }

  #spawn(): Worker {
    const entry = workerEntry();
    this.#started += 1;
    const worker = new Worker(entry.source, {
      eval: entry.eval,
      workerData: this.#setup,
      resourceLimits: {
        maxOldGenerationSizeMb: this.#limits.workerHeapMb,
        // QuickJS's recursion runs on the worker's native stack too; keep it well above QuickJS's own
        // stack limit so QuickJS's check fires first (measured: about 4x is needed).
        stackSizeMb: Math.max(4, Math.ceil((8 * this.#limits.stackBytes) / MiB)),
      },
    });
    // Referenced while it boots or runs (a caller awaiting it keeps the process alive); an idle
    // worker does not keep the process alive by itself.
    return worker;
  }

  #listen(slot: Slot): void {
    const worker = slot.worker;
    worker.on('message', (message: FromWorker) => {
      if (slot.worker === worker) this.#onMessage(slot, message);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      if (slot.worker !== worker) return;
      const failure =
        error.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? limitFailure('memory', this.#limits.memoryBytes)
          : scriptFailure({
              name: 'SandboxError',
              message: `The sandbox worker failed: ${error.message}`,
              line: null,
            });
      if (slot.state === 'booting') this.#bootFailed(slot, error.message);
      else this.#stop(slot, failure);
    });
    worker.on('exit', (code) => {
      if (slot.worker !== worker || this.#closed) return;
      if (slot.state === 'booting')
        this.#bootFailed(slot, `the worker exited with code ${code} while starting`);
      else
        this.#stop(
          slot,
          scriptFailure({
            name: 'SandboxError',
            message: `The sandbox worker stopped (exit code ${code})`,
            line: null,
          }),
        );
    });
  }

  #onMessage(slot: Slot, message: FromWorker): void {
    switch (message.type) {
      case 'ready':
        slot.state = 'idle';
        slot.worker.unref();
        slot.bootError = null;
        this.#booted();
        this.#pump();
        return;
      case 'boot-failed':
        this.#bootFailed(slot, message.message);
        return;
      case 'log': {
        const running = slot.running;
        if (running?.runId === message.runId && running.logs.length < running.job.limits.logLines)
          running.logs.push({ level: message.level, text: message.text });
        return;
      }
      case 'call':
        if (slot.running?.runId === message.runId) void this.#serveCall(slot, slot.running, message);
        return;
      case 'done':
        if (slot.running?.runId !== message.runId) return;
        this.#complete(slot, message.end, message.truncated);
        if (message.recycle) this.#replace(slot);
        else {
          slot.state = 'idle';
          slot.worker.unref();
        }
        this.#pump();
        return;
    }
  }

  async #serveCall(
    slot: Slot,
    running: Running,
    message: Extract<FromWorker, { type: 'call' }>,
  ): Promise<void> {
    const { operationId, callId } = message;
    const index = running.calls.length;
    running.calls.push({ operationId, ok: false, ms: null });
    if (running.calls.length > running.job.limits.calls) {
      this.#stop(slot, limitFailure('calls', running.job.limits.calls));
      return;
    }
    const t0 = performance.now();
    let outcome: Outcome<unknown>;
    try {
      outcome = await this.#registry.call(running.job.ctx, operationId, JSON.parse(message.inputJson));
    } catch (error) {
      // A registry must answer failures as data; a throw is a mock bug, still answered to the script.
      outcome = {
        ok: false,
        failure: scriptFailure({
          name: 'Error',
          message: `Operation ${operationId} failed inside the mock: ${error instanceof Error ? error.message : String(error)}`,
          line: null,
        }),
      };
    }
    const ms = Math.round((performance.now() - t0) * 1000) / 1000;
    if (slot.running !== running) return;
    let settle: Extract<ToWorker, { type: 'settle' }>['outcome'];
    if (outcome.ok) {
      running.calls[index] = { operationId, ok: true, ms };
      settle = { ok: true, json: JSON.stringify(outcome.value) ?? 'null' };
      const page = asPage(operationId, JSON.parse(message.inputJson), outcome.value);
      if (page !== null) running.pages.push(page);
    } else {
      running.calls[index] = { operationId, ok: false, ms, failure: outcome.failure };
      settle = {
        ok: false,
        failure: outcome.failure,
        message: describeCallFailure(operationId, outcome.failure),
      };
    }
    const reply: ToWorker = { type: 'settle', runId: running.runId, callId, outcome: settle };
    slot.worker.postMessage(reply);
  }

  #pump(): void {
    if (this.#closed) return;
    for (const slot of this.#slots) {
      if (this.#queue.length === 0) return;
      if (slot.state === 'dead' && slot.running === null) this.#replace(slot);
      if (slot.state !== 'idle') continue;
      const job = this.#queue.shift();
      if (job !== undefined) this.#start(slot, job);
    }
  }

  #start(slot: Slot, job: Job): void {
    const runId = this.#nextRunId++;
    const { timeMs } = job.limits;
    const killTimer = setTimeout(
      () => this.#stop(slot, limitFailure('time', timeMs)),
      timeMs + this.#limits.killGraceMs,
    );
    slot.state = 'busy';
    slot.worker.ref();
    slot.running = {
      runId,
      job,
      startedAt: performance.now(),
      logs: [],
      calls: [],
      killTimer,
      pages: [],
    };
    const message: ToWorker = {
      type: 'run',
      runId,
      script: job.script,
      limits: job.limits,
      deadline: Date.now() + timeMs,
    };
    slot.worker.postMessage(message);
  }

  /** Ends the slot's execution (if any) with `failure`, then terminates and replaces its worker. */
  #stop(slot: Slot, failure: AgentFailure): void {
    if (slot.running !== null) this.#complete(slot, { ok: false, failure }, null);
    if (this.#closed) return;
    this.#replace(slot);
    this.#pump();
  }

  #replace(slot: Slot): void {
    const old = slot.worker;
    void old.terminate();
    if (this.#closed) return;
    this.#replaced += 1;
    slot.worker = this.#spawn();
    slot.state = 'booting';
    this.#listen(slot);
  }

  #complete(slot: Slot, end: RunEnd, truncated: Truncations | null): void {
    const running = slot.running;
    if (running === null) return;
    slot.running = null;
    clearTimeout(running.killTimer);
    const limits = running.job.limits;
    const report: ExecutionReport = {
      logs: running.logs,
      calls: summariseCalls(running.calls),
      truncated: {
        result:
          end.ok && end.cut !== null
            ? resultTruncation(
                limits,
                end.size,
                end.cut,
                findResume(
                  this.#registry,
                  running.job.ctx,
                  running.pages,
                  JSON.parse(end.resultJson),
                  end.cut,
                ),
              )
            : null,
        logs: truncated?.logs ?? null,
      },
      limits,
      durationMs: Math.round((performance.now() - running.startedAt) * 1000) / 1000,
    };
    if (end.ok) {
      running.job.resolve({ ok: true, value: { result: JSON.parse(end.resultJson), ...report } });
    } else {
      running.job.resolve({ ok: false, failure: { ...end.failure, execution: report } });
    }
  }

  /** A worker that cannot start is not restarted in a loop: its slot is dead until the next execution. */
  #bootFailed(slot: Slot, reason: string): void {
    slot.bootError = reason;
    slot.state = 'dead';
    void slot.worker.terminate();
    this.#booted();
    this.#failIfNoWorker();
  }

  #booted(): void {
    if (this.#slots.some((s) => s.state === 'booting')) return;
    for (const wake of this.#readyWaiters.splice(0)) wake();
  }

  #failIfNoWorker(): void {
    if (!this.#slots.every((s) => s.state === 'dead')) return;
    const failure = scriptFailure({
      name: 'Error',
      message: `The sandbox could not start: ${this.#slots[0]?.bootError ?? 'no worker'}`,
      line: null,
    });
    for (const job of this.#queue.splice(0))
      job.resolve({ ok: false, failure: { ...failure, execution: emptyReport(job.limits) } });
  }
}
