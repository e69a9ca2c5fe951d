/**
 * Each limit of the `execute` sandbox holds, with a test that fails when its guard is removed:
 * the interrupt deadline (a plain loop), the worker-termination backstop (a loop inside a built-in
 * that never reaches QuickJS's interrupt check), QuickJS's memory limit, its stack limit, calls per
 * execution, script size, result and console size, and the pool's bound (busy). Other executions keep
 * being served while a bad one is stopped.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createSandbox,
  type ExecutionOutcome,
  type Sandbox,
  type SandboxOptions,
} from '../mocks/agent/sandbox/index.ts';
import { fakeRegistry, readerContext } from './agent-sandbox-support.ts';

const open: Sandbox[] = [];
async function sandboxWith(options: SandboxOptions): Promise<Sandbox> {
  const sandbox = createSandbox(fakeRegistry(), options);
  open.push(sandbox);
  await sandbox.ready();
  return sandbox;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
});

function failureOf(outcome: ExecutionOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value).slice(0, 300)}`);
  return outcome.failure;
}

const MiB = 1024 * 1024;
/** A naive substring search over 16 MiB: minutes of work inside one built-in, without an interrupt check. */
const BUILTIN_LOOP = 'return "a".repeat(2 ** 24).indexOf("a".repeat(2000) + "b");';

describe('execute limits: wall time', () => {
  it('an infinite loop stops at timeMs through the interrupt handler, the worker kept', async () => {
    const sandbox = await sandboxWith({ timeMs: 300, killGraceMs: 30_000, poolSize: 1 });
    const started = performance.now();
    const failure = failureOf(await sandbox.runScript(readerContext(), 'while (true) {}'));
    expect(failure).toMatchObject({
      kind: 'limit_exceeded',
      code: 'LIMIT_EXCEEDED',
      limit: 'time',
      value: 300,
    });
    // Before the kill backstop (300 + 30,000 ms) and without a termination: QuickJS's own deadline
    // stopped it.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(sandbox.stats().workersReplaced).toBe(0);
  });

  it('a loop inside a built-in (no interrupt check) is stopped by terminating the worker, which is replaced', async () => {
    // The deadline counts from the moment the run is posted. A short timeMs on a busy machine lets
    // the worker receive the run after its deadline, and the interrupt check then stops the script
    // before the built-in starts (no termination): 2 s leaves the worker ample time to begin.
    const sandbox = await sandboxWith({ timeMs: 2000, killGraceMs: 200, poolSize: 1 });
    const started = performance.now();
    const failure = failureOf(await sandbox.runScript(readerContext(), BUILTIN_LOOP));
    expect(failure).toMatchObject({ kind: 'limit_exceeded', limit: 'time', value: 2000 });
    // The built-in alone runs for minutes: an answer within a fraction of that is the backstop's.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(sandbox.stats().workersReplaced).toBe(1);
    // The replacement serves the next execution.
    await sandbox.ready();
    const next = await sandbox.runScript(readerContext(), 'return 1;');
    expect(next.ok && next.value.result).toBe(1);
  });

  it('catastrophic regex backtracking stops at timeMs', async () => {
    const sandbox = await sandboxWith({ timeMs: 200, poolSize: 1 });
    const failure = failureOf(
      await sandbox.runScript(readerContext(), 'return /(a+)+$/.test("a".repeat(40) + "b");'),
    );
    expect(failure).toMatchObject({ kind: 'limit_exceeded', limit: 'time' });
  });

  it('time spent waiting for call answers counts: a slow operation cannot hold the execution past timeMs', async () => {
    const sandbox = await sandboxWith({ timeMs: 1000, poolSize: 1 });
    const started = performance.now();
    const failure = failureOf(
      await sandbox.runScript(readerContext(), 'await call("slow", { ms: 20_000 });'),
    );
    expect(failure).toMatchObject({ kind: 'limit_exceeded', limit: 'time', value: 1000 });
    // Long before the operation would have answered.
    expect(performance.now() - started).toBeLessThan(15_000);
    expect(failure.execution.calls).toEqual({
      total: 1,
      byOperation: [{ operationId: 'slow', ok: 0, failed: 0, unanswered: 1 }],
      failed: [],
      failedNotListed: 0,
    });
  });

  it('other executions keep being served while a bad one is being killed', async () => {
    // The bad script holds its worker for 5 s, long enough for five quick ones on a busy machine.
    const sandbox = await sandboxWith({ timeMs: 5000, killGraceMs: 200, poolSize: 2 });
    let badDone = false;
    const bad = sandbox.runScript(readerContext(), BUILTIN_LOOP).then((outcome) => {
      badDone = true;
      return outcome;
    });
    for (let i = 0; i < 5; i++) {
      const outcome = await sandbox.runScript(
        readerContext(),
        `return (await call("echo", { i: ${i} })).input.i;`,
      );
      expect(outcome.ok && outcome.value.result).toBe(i);
    }
    // Every quick script completed while the bad one was still running, not after it.
    expect(badDone).toBe(false);
    expect(failureOf(await bad)).toMatchObject({ kind: 'limit_exceeded', limit: 'time' });
  });
});

describe('execute limits: memory and stack', () => {
  it('allocation past memoryBytes fails with limit memory (QuickJS runtime limit)', async () => {
    const sandbox = await sandboxWith({ memoryBytes: 16 * MiB, poolSize: 1 });
    // 24 MiB fits the worker's WebAssembly headroom (16 + 32 MiB): only QuickJS's own limit refuses it.
    const failure = failureOf(
      await sandbox.runScript(readerContext(), 'return "x".repeat(24 * 1024 * 1024).length;'),
    );
    expect(failure).toMatchObject({ kind: 'limit_exceeded', limit: 'memory', value: 16 * MiB });
    const bomb = failureOf(
      await sandbox.runScript(
        readerContext(),
        'const a = []; for (;;) a.push(new Array(10000).fill(a.length));',
      ),
    );
    expect(bomb).toMatchObject({ kind: 'limit_exceeded', limit: 'memory' });
    const after = await sandbox.runScript(readerContext(), 'return "still serving";');
    expect(after.ok && after.value.result).toBe('still serving');
  });

  it('deep recursion fails with limit stack at stackBytes', async () => {
    const recurse = 'function f(n) { return n === 0 ? 0 : f(n - 1) + 1; } return f(1500);';
    const small = await sandboxWith({ stackBytes: 64 * 1024, poolSize: 1 });
    expect(failureOf(await small.runScript(readerContext(), recurse))).toMatchObject({
      kind: 'limit_exceeded',
      limit: 'stack',
      value: 64 * 1024,
    });
    // The same depth fits the default stack: the limit above is the option, not an accident.
    const normal = await sandboxWith({ poolSize: 1 });
    const ok = await normal.runScript(readerContext(), recurse);
    expect(ok.ok && ok.value.result).toBe(1500);
    const unbounded = failureOf(
      await normal.runScript(readerContext(), 'function f() { return f() + 1; } return f();'),
    );
    expect(unbounded).toMatchObject({ kind: 'limit_exceeded', limit: 'stack' });
  });
});

describe('execute limits: calls, sizes, pool', () => {
  it('the call past `calls` stops the script, even if it catches the error', async () => {
    const sandbox = await sandboxWith({ calls: 5, poolSize: 1 });
    const failure = failureOf(
      await sandbox.runScript(
        readerContext(),
        'for (let i = 0; i < 1000; i++) { try { await call("echo", { i }); } catch (e) {} } return "escaped";',
      ),
    );
    expect(failure).toMatchObject({ kind: 'limit_exceeded', limit: 'calls', value: 5 });
    expect(failure.execution.calls).toMatchObject({
      total: 5,
      byOperation: [{ operationId: 'echo', ok: 5 }],
    });
    // Stopped inside the worker (the main thread's termination is only the backstop).
    expect(sandbox.stats().workersReplaced).toBe(0);
    // A flood without await is stopped the same way.
    const flood = failureOf(await sandbox.runScript(readerContext(), 'for (;;) call("echo", {});'));
    expect(flood).toMatchObject({ kind: 'limit_exceeded', limit: 'calls', value: 5 });
  });

  it('a script over scriptBytes is refused before it runs', async () => {
    const sandbox = await sandboxWith({ scriptBytes: 1024, poolSize: 1 });
    const failure = failureOf(
      await sandbox.runScript(readerContext(), `return ${JSON.stringify('é'.repeat(600))};`),
    );
    expect(failure).toMatchObject({ kind: 'limit_exceeded', limit: 'script_size', value: 1024 });
  });

  it('AGENT-MCP-TRUNCATED-REPORTS-LIMIT: a return value over resultBytes comes back as a valid-JSON preview within it, the limit and the cut reported', async () => {
    const sandbox = await sandboxWith({ resultBytes: 1000, poolSize: 1 });
    const outcome = await sandbox.runScript(readerContext(), 'return { big: "é".repeat(3000) };');
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
    expect(outcome.value.truncated.result).toMatchObject({ limit: 1000, unit: 'bytes', size: 6010 });
    const preview = outcome.value.result as { big: string };
    expect(Buffer.byteLength(JSON.stringify(preview))).toBeLessThanOrEqual(1000);
    expect(preview.big).toMatch(/^é+$/);
    expect(outcome.value.truncated.result?.cut).toMatchObject({
      characters: 3000 - preview.big.length,
      at: [{ pointer: '/big', unit: 'characters', kept: preview.big.length, total: 3000 }],
    });
    const items = await sandbox.runScript(
      readerContext(),
      'return Array.from({ length: 500 }, (_, i) => ({ i }));',
    );
    if (!items.ok) throw new Error(JSON.stringify(items.failure));
    const kept = items.value.result as { i: number }[];
    expect(kept.map((x) => x.i)).toEqual(kept.map((_, i) => i));
    expect(items.value.truncated.result?.cut).toMatchObject({
      items: 500 - kept.length,
      at: [{ pointer: '', unit: 'items' }],
    });
    const huge = await sandbox.runScript(readerContext(), 'return "x".repeat(8 * 1024 * 1024);');
    if (!huge.ok) throw new Error(JSON.stringify(huge.failure).slice(0, 400));
    expect(huge.value.truncated.result?.limit).toBe(1000);
  });

  it('console output over logLines / logBytes is cut and the limit reported', async () => {
    const sandbox = await sandboxWith({ logLines: 10, logBytes: 100, poolSize: 1 });
    const lines = await sandbox.runScript(
      readerContext(),
      'for (let i = 0; i < 50; i++) console.log(i); return 1;',
    );
    if (!lines.ok) throw new Error(JSON.stringify(lines.failure));
    expect(lines.value.logs).toHaveLength(10);
    expect(lines.value.truncated.logs).toEqual({ limit: 10, unit: 'lines', dropped: 40 });
    const bytes = await sandbox.runScript(
      readerContext(),
      'console.log("y".repeat(10 * 1024 * 1024)); console.log("z"); return 2;',
    );
    if (!bytes.ok) throw new Error(JSON.stringify(bytes.failure));
    expect(bytes.value.logs.map((l) => l.text.length)).toEqual([100]);
    expect(bytes.value.truncated.logs).toEqual({ limit: 100, unit: 'bytes', dropped: 2 });
  });

  it('past poolSize + queueLength an execution is refused busy with retryAfterMs', async () => {
    const sandbox = await sandboxWith({ poolSize: 1, queueLength: 1, timeMs: 300, busyRetryAfterMs: 750 });
    const first = sandbox.runScript(readerContext(), 'while (true) {}');
    const second = sandbox.runScript(readerContext(), 'return 2;');
    const refused = failureOf(await sandbox.runScript(readerContext(), 'return 3;'));
    expect(refused).toMatchObject({ kind: 'busy', code: 'BUSY', retryAfterMs: 750 });
    expect(failureOf(await first)).toMatchObject({ limit: 'time' });
    const queued = await second;
    expect(queued.ok && queued.value.result).toBe(2);
  });

  it('an aborted request stops its execution and frees the worker', async () => {
    const sandbox = await sandboxWith({ poolSize: 1, timeMs: 10_000 });
    const controller = new AbortController();
    const running = sandbox.runScript(readerContext(controller.signal), BUILTIN_LOOP);
    setTimeout(() => controller.abort(), 100);
    const failure = failureOf(await running);
    expect(failure.message).toContain('cancelled');
    const next = await sandbox.runScript(readerContext(), 'return "free";');
    expect(next.ok && next.value.result).toBe('free');
  });
});
