/**
 * The JavaScript evaluated in each fresh QuickJS context before the script: it defines the globals a
 * script sees (`call`, `spec`, `console`) on top of three host functions it receives as arguments and
 * keeps in its closure, so the script can neither see nor replace them. It captures the built-ins it
 * relies on before any script runs; a script that later tampers with `JSON` or `Promise` only breaks
 * its own results, never the host, which checks every value it reads back.
 *
 * Evaluating it yields a function `(hostCall, hostLog, hostSpec, logMax)` that returns
 * `{ settle, finish, callFailureOf }`, used by the host to resolve `call` promises, to read the return
 * value and to tell an uncaught `call` failure (which keeps its kind) from any other thrown value.
 */
export const PRELUDE_SOURCE = `(function (hostCall, hostLog, hostSpec, logMax) {
  "use strict";
  const parse = JSON.parse;
  const stringify = JSON.stringify;
  const uncurry = Function.prototype.bind.bind(Function.prototype.call);
  const sliceText = uncurry(String.prototype.slice);
  const mapGet = uncurry(Map.prototype.get);
  const mapSet = uncurry(Map.prototype.set);
  const mapDelete = uncurry(Map.prototype.delete);
  const PromiseCtor = Promise;
  const ErrorCtor = Error;
  const TypeErrorCtor = TypeError;
  const StringCtor = String;
  // QuickJS throws InternalError for its limits (out of memory, interrupted, stack overflow): those
  // pass through every wrapper below, so the host reports the limit, not a script error.
  const InternalErrorCtor = typeof InternalError === "function" ? InternalError : null;
  const execText = uncurry(RegExp.prototype.exec);
  const SCRIPT_LINE = /script\\.js:(\\d+)/;
  const weakHas = uncurry(WeakSet.prototype.has);
  const weakAdd = uncurry(WeakSet.prototype.add);
  const callErrors = new WeakSet();
  const pending = new Map();

  function isLimit(error) {
    return InternalErrorCtor !== null && error instanceof InternalErrorCtor;
  }

  /** The script line that called the current function (from a fresh stack; null when not known). */
  function callerLine() {
    const stack = new ErrorCtor().stack;
    const match = typeof stack === "string" ? execText(SCRIPT_LINE, stack) : null;
    return match === null ? null : +match[1];
  }

  function toJson(value, what) {
    let text;
    try {
      text = stringify(value);
    } catch (error) {
      if (isLimit(error)) throw error;
      throw new TypeErrorCtor(what + " is not JSON: " + (error && error.message));
    }
    if (typeof text !== "string") throw new TypeErrorCtor(what + " is not JSON: a " + typeof value + " has no JSON form");
    return text;
  }

  function call(operationId, input) {
    return new PromiseCtor(function (resolve, reject) {
      if (typeof operationId !== "string")
        throw new TypeErrorCtor("call(operationId, input): operationId must be a string, got " + typeof operationId);
      const json = toJson(input === undefined ? {} : input, "The input of call('" + operationId + "')");
      const id = hostCall(operationId, json);
      mapSet(pending, id, { resolve: resolve, reject: reject, operationId: operationId, line: callerLine() });
    });
  }

  function spec(operationId) {
    if (operationId !== undefined && typeof operationId !== "string")
      throw new TypeErrorCtor("spec(operationId?): operationId must be a string, got " + typeof operationId);
    return parse(hostSpec(operationId));
  }

  function format(value) {
    if (typeof value === "string") return value;
    try {
      const text = stringify(value);
      if (typeof text === "string") return text;
    } catch (error) {}
    try {
      return StringCtor(value);
    } catch (error) {
      return "[unprintable " + typeof value + "]";
    }
  }

  function logger(level) {
    return function () {
      let text = "";
      for (let i = 0; i < arguments.length; i++) text += (i === 0 ? "" : " ") + format(arguments[i]);
      hostLog(level, text.length > logMax ? sliceText(text, 0, logMax) : text, text.length);
    };
  }

  function settle(id, ok, payload, message) {
    const entry = mapGet(pending, id);
    if (entry === undefined) return;
    mapDelete(pending, id);
    if (ok) {
      entry.resolve(parse(payload));
      return;
    }
    const failure = parse(payload);
    const error = new ErrorCtor(message);
    for (const key in failure) if (key !== "message") error[key] = failure[key];
    error.operationId = entry.operationId;
    error.line = entry.line;
    error.failure = failure;
    weakAdd(callErrors, error);
    entry.reject(error);
  }

  /** The JSON of {failure, operationId, line} when error is a failed call's Error, else "". */
  function callFailureOf(error) {
    if (typeof error !== "object" || error === null || !weakHas(callErrors, error)) return "";
    return stringify({ failure: error.failure, operationId: error.operationId, line: error.line });
  }

  function finish(value, max) {
    const text = toJson(value === undefined ? null : value, "The script's return value");
    return { size: text.length, text: text.length > max ? sliceText(text, 0, max) : text };
  }

  globalThis.call = call;
  globalThis.spec = spec;
  globalThis.console = { log: logger("log"), info: logger("info"), warn: logger("warn"), error: logger("error") };
  return { settle: settle, finish: finish, callFailureOf: callFailureOf };
})`;

/** The file name QuickJS reports for the script's own lines (error stacks, syntax errors). */
export const SCRIPT_FILE = 'script.js';

/**
 * The script body runs as the body of an async function, so `return` and `await` work at its top
 * level. The header shares the script's first line, so QuickJS's line numbers are the script's own.
 */
export function wrapScript(script: string): string {
  return `(async function () {${script}\n})`;
}
