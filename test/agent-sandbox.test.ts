/**
 * The `execute` sandbox (spec 4.18): scripts run in QuickJS inside worker threads; `call`,
 * `spec` and `console` are the only bridges; every limit holds, including against loops inside
 * built-ins that QuickJS's interrupt check never sees; nothing of the host is reachable.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createExecuteTool,
  createSandbox,
  DEFAULT_SANDBOX_LIMITS,
  type ExecutionOutcome,
  type Sandbox,
  SandboxOptionError,
} from '../mocks/agent/sandbox/index.ts';
import { fakeRegistry, readerContext } from './agent-sandbox-support.ts';

/** The globals a script sees: QuickJS's standard built-ins plus `call`, `spec` and `console`. */
const DOCUMENTED_GLOBALS = [
  'Error',
  'EvalError',
  'RangeError',
  'ReferenceError',
  'SyntaxError',
  'TypeError',
  'URIError',
  'InternalError',
  'AggregateError',
  'Array',
  'Object',
  'Function',
  'Iterator',
  'parseInt',
  'parseFloat',
  'isNaN',
  'isFinite',
  'decodeURI',
  'decodeURIComponent',
  'encodeURI',
  'encodeURIComponent',
  'escape',
  'unescape',
  'Infinity',
  'NaN',
  'undefined',
  'eval',
  'Number',
  'Boolean',
  'String',
  'Math',
  'Reflect',
  'Symbol',
  'globalThis',
  'BigInt',
  'Date',
  'RegExp',
  'JSON',
  'Proxy',
  'Map',
  'Set',
  'WeakMap',
  'WeakSet',
  'ArrayBuffer',
  'SharedArrayBuffer',
  'Uint8ClampedArray',
  'Int8Array',
  'Uint8Array',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'BigInt64Array',
  'BigUint64Array',
  'Float16Array',
  'Float32Array',
  'Float64Array',
  'DataView',
  'Promise',
  'WeakRef',
  'FinalizationRegistry',
  'call',
  'spec',
  'console',
];

function value(outcome: ExecutionOutcome): unknown {
  if (!outcome.ok) throw new Error(`expected success, got ${JSON.stringify(outcome.failure)}`);
  return outcome.value.result;
}

function failureOf(outcome: ExecutionOutcome) {
  if (outcome.ok) throw new Error(`expected a failure, got ${JSON.stringify(outcome.value)}`);
  return outcome.failure;
}

let sandbox: Sandbox;
const registry = fakeRegistry();

beforeAll(async () => {
  sandbox = createSandbox(registry, { timeMs: 2000 });
  await sandbox.ready();
});
afterAll(async () => {
  await sandbox.close();
});

describe('execute: scripts, call, spec, console', () => {
  it('runs the script as an async function body: return and top-level await', async () => {
    const outcome = await sandbox.runScript(
      readerContext(),
      'const r = await call("echo", { a: 1 }); return r.input.a + 1;',
    );
    expect(value(outcome)).toBe(2);
  });

  it('reports console lines, calls and the limits in the envelope', async () => {
    const outcome = await sandbox.runScript(
      readerContext(),
      'console.log("hello", { n: 1 }); console.warn(42); await call("echo", {}); return null;',
    );
    if (!outcome.ok) throw new Error(JSON.stringify(outcome.failure));
    expect(outcome.value.logs).toEqual([
      { level: 'log', text: 'hello {"n":1}' },
      { level: 'warn', text: '42' },
    ]);
    expect(outcome.value.calls).toEqual({
      total: 1,
      byOperation: [{ operationId: 'echo', ok: 1, failed: 0, unanswered: 0 }],
      failed: [],
      failedNotListed: 0,
    });
    expect(outcome.value.limits.timeMs).toBe(2000);
    expect(outcome.value.truncated).toEqual({ result: null, logs: null });
  });

  it('a failed call throws an Error naming the operation and the field, with the failure as data', async () => {
    const outcome = await sandbox.runScript(
      readerContext(),
      `try { await call("fail.field", { limit: 1000 }); } catch (e) {
         return { isError: e instanceof Error, message: e.message, code: e.code, kind: e.kind, field: e.field, op: e.operationId };
       }`,
    );
    expect(value(outcome)).toEqual({
      isError: true,
      message: "call('fail.field') failed: INVALID_INPUT at /limit: limit must be at most 100",
      code: 'INVALID_INPUT',
      kind: 'invalid_input',
      field: '/limit',
      op: 'fail.field',
    });
  });

  it('AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE: an uncaught call failure keeps its kind, naming the operation and the line, with the calls so far reported', async () => {
    const failure = failureOf(
      await sandbox.runScript(readerContext(), 'console.log("before");\nawait call("write.thing", {});'),
    );
    expect(failure).toMatchObject({
      kind: 'forbidden',
      missingScope: 'write',
      operationId: 'write.thing',
      line: 2,
    });
    expect(failure.message).toContain("call('write.thing') failed: FORBIDDEN (missing scope write)");
    expect(failure.message).toContain('line 2');
    expect(failure.execution.logs).toEqual([{ level: 'log', text: 'before' }]);
    expect(failure.execution.calls.failed).toMatchObject([
      {
        index: 0,
        operationId: 'write.thing',
        ok: false,
        failure: { kind: 'forbidden', missingScope: 'write' },
      },
    ]);
  });

  it('a thrown error is a script_error with its line', async () => {
    const failure = failureOf(await sandbox.runScript(readerContext(), 'const a = 1;\n\nnull.foo;'));
    expect(failure).toMatchObject({ kind: 'script_error', code: 'SCRIPT_ERROR' });
    expect(failure.message).toMatch(/^TypeError: .*\(line 3\)$/);
    const syntax = failureOf(await sandbox.runScript(readerContext(), 'let x = ;'));
    expect(syntax.message).toMatch(/^SyntaxError: .*\(line 1\)$/);
  });

  it('spec() lists the catalog; spec(id) gives the schemas; an unknown id throws naming it', async () => {
    expect(value(await sandbox.runScript(readerContext(), 'return spec();'))).toEqual(registry.list());
    expect(value(await sandbox.runScript(readerContext(), 'return spec("echo");'))).toEqual(
      registry.spec('echo'),
    );
    const failure = failureOf(await sandbox.runScript(readerContext(), 'spec("nope");'));
    expect(failure.message).toContain("spec('nope'): no such operation");
  });

  it('values cross as JSON: a BigInt or cyclic value is a clear error, in a call input and as the result', async () => {
    const bigInput = failureOf(await sandbox.runScript(readerContext(), 'await call("echo", { n: 1n });'));
    expect(bigInput.message).toContain("The input of call('echo') is not JSON");
    const cyclic = failureOf(await sandbox.runScript(readerContext(), 'const a = {}; a.self = a; return a;'));
    expect(cyclic.message).toContain("The script's return value is not JSON");
    const big = failureOf(await sandbox.runScript(readerContext(), 'return 10n;'));
    expect(big.message).toContain("The script's return value is not JSON");
    const fn = failureOf(await sandbox.runScript(readerContext(), 'return () => 1;'));
    expect(fn.message).toContain('has no JSON form');
    expect(value(await sandbox.runScript(readerContext(), 'const x = 1;'))).toBeNull();
  });

  it('identifiers survive byte for byte through call and return (above 2^53, leading zeros, spaces, Unicode)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.bigInt({ min: 2n ** 53n, max: 2n ** 70n }).map((n) => n.toString()),
          fc.stringMatching(/^0{1,5}[0-9]{1,20}$/),
          fc.string({ unit: 'grapheme', maxLength: 12 }),
          fc.string({ unit: 'binary', maxLength: 12 }),
        ),
        async (id) => {
          const outcome = await sandbox.runScript(
            readerContext(),
            `const r = await call("echo", { id: ${JSON.stringify(id)} }); return r.input.id;`,
          );
          expect(value(outcome)).toBe(id);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('any JSON value returned comes out equal (copy out)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.json({ maxDepth: 3 }), async (text) => {
        // Parsed inside the sandbox (a literal would treat a "__proto__" key differently); copied out as
        // JSON, so -0 comes out as 0, as JSON.stringify writes it.
        const outcome = await sandbox.runScript(
          readerContext(),
          `return JSON.parse(${JSON.stringify(text)});`,
        );
        expect(value(outcome)).toEqual(JSON.parse(JSON.stringify(JSON.parse(text))));
      }),
      { numRuns: 100 },
    );
  });

  it('a script awaiting something nothing can settle fails at once (no timers exist)', async () => {
    // Its own failure, not the time limit's: the script did not wait for the deadline.
    const failure = failureOf(await sandbox.runScript(readerContext(), 'await new Promise(() => {});'));
    expect(failure.message).toContain('nothing can settle');
    expect(failure.kind).not.toBe('limit_exceeded');
  });

  it('the execute tool refuses arguments without a string script, naming the field', async () => {
    const tool = createExecuteTool(registry, { poolSize: 1 });
    try {
      const outcome = await tool.handle(readerContext(), { script: 42 });
      expect(outcome).toMatchObject({ ok: false, failure: { kind: 'invalid_input', field: '/script' } });
      expect(tool.name).toBe('execute');
      expect(value(await tool.handle(readerContext(), { script: 'return 7' }))).toBe(7);
    } finally {
      await tool.close();
    }
  });

  it('rejects a bad option at construction, naming it', () => {
    expect(() => createSandbox(registry, { timeMs: -1 })).toThrow(SandboxOptionError);
    expect(() => createSandbox(registry, { calls: 1.5 })).toThrow(/"calls" must be an integer/);
    expect(DEFAULT_SANDBOX_LIMITS.timeMs).toBe(5000);
  });
});

describe('execute: no host object leaks in', () => {
  it('globalThis holds only the documented globals', async () => {
    const names = value(
      await sandbox.runScript(readerContext(), 'return Object.getOwnPropertyNames(globalThis);'),
    );
    expect(names).toEqual(DOCUMENTED_GLOBALS);
  });

  it('no process, require, fetch, timers, module loading or host functions', async () => {
    const probe = value(
      await sandbox.runScript(
        readerContext(),
        `const kinds = {};
         for (const name of ['process', 'require', 'module', 'fetch', 'setTimeout', 'setInterval', 'setImmediate',
                             'queueMicrotask', 'Buffer', 'WebAssembly', 'hostCall', 'hostLog', 'hostSpec', 'std', 'os'])
           kinds[name] = typeof globalThis[name];
         let imported;
         try { await import('node:fs'); imported = 'loaded'; } catch (e) { imported = String(e); }
         return { kinds, imported };`,
      ),
    ) as { kinds: Record<string, string>; imported: string };
    for (const [name, kind] of Object.entries(probe.kinds)) expect([name, kind]).toEqual([name, 'undefined']);
    expect(probe.imported).toMatch(/could not load module/);
  });

  it('Function, constructor and prototype tricks reach only the sandbox', async () => {
    const probe = value(
      await sandbox.runScript(
        readerContext(),
        `const attempts = [
           () => call.constructor('return typeof process')(),
           () => spec.constructor('return typeof require')(),
           () => console.log.constructor('return typeof fetch')(),
           () => (async () => {}).constructor('return typeof process')().constructor.name,
           () => this === undefined ? 'undefined this' : this.constructor.constructor('return typeof process')(),
           () => Object.getPrototypeOf(call).constructor('return this')() === globalThis,
           () => Reflect.ownKeys(call).join(),
           () => Function('return typeof globalThis.process')(),
           () => eval('typeof process'),
         ];
         return attempts.map((f) => { try { return f(); } catch (e) { return 'threw ' + e.name; } });`,
      ),
    );
    expect(probe).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'Promise',
      'undefined',
      true,
      'length,name,prototype',
      'undefined',
      'undefined',
    ]);
  });

  it('a fresh context per execution: globals set by one script are gone in the next', async () => {
    await sandbox.runScript(
      readerContext(),
      'globalThis.leak = 1; Object.prototype.polluted = 2; JSON.parse = null;',
    );
    const next = value(
      await sandbox.runScript(
        readerContext(),
        'return [typeof leak, typeof ({}).polluted, typeof JSON.parse];',
      ),
    );
    expect(next).toEqual(['undefined', 'undefined', 'function']);
  });
});
