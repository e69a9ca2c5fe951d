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

  // The return value is read under a byte budget, never as one unbounded JSON text: a value whose
  // JSON would not fit is walked into a preview (arrays cut by items, strings by characters, objects
  // by keys), so a large result costs at most the budget, deterministically, never the heap.
  const TOO_LARGE = {};
  const isArray = Array.isArray;
  const objectKeys = Object.keys;
  const charCode = uncurry(String.prototype.charCodeAt);
  const arrayPush = uncurry(Array.prototype.push);
  const MAX_CUTS = 20;

  const NON_ASCII = /[^\\u0000-\\u007f]/;
  const testText = uncurry(RegExp.prototype.test);

  function utf8Length(text) {
    if (!testText(NON_ASCII, text)) return text.length;
    let bytes = 0;
    for (let i = 0; i < text.length; i++) {
      const c = charCode(text, i);
      bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c < 0xdc00 ? 4 : c >= 0xdc00 && c < 0xe000 ? 0 : 3;
    }
    return bytes;
  }

  /** JSON text of value when it fits in max bytes (escapes counted as they come), else TOO_LARGE. */
  function capped(value, max) {
    let used = 0;
    const count = function (key, v) {
      used += typeof key === "string" ? key.length + 4 : 1;
      if (typeof v === "string") used += v.length + 2;
      else if (typeof v === "number" || typeof v === "boolean") used += 8;
      if (used > max) throw TOO_LARGE;
      return v;
    };
    let text;
    try {
      text = stringify(value, count);
    } catch (error) {
      if (error === TOO_LARGE) return TOO_LARGE;
      if (isLimit(error)) throw error;
      throw new TypeErrorCtor("The script's return value is not JSON: " + (error && error.message));
    }
    if (typeof text !== "string")
      throw new TypeErrorCtor("The script's return value is not JSON: a " + typeof value + " has no JSON form");
    return utf8Length(text) > max ? TOO_LARGE : text;
  }

  /** The size in bytes the full JSON would have (walked, not built; strings by their UTF-8 length). */
  function measure(value, depth) {
    if (value === null || typeof value !== "object") {
      if (typeof value === "string") return utf8Length(value) + 2;
      if (typeof value === "number") return value === value && value !== 1 / 0 && value !== -1 / 0 ? StringCtor(value).length : 4;
      if (typeof value === "boolean") return value ? 4 : 5;
      return 4;
    }
    if (depth > 64) return 2;
    if (typeof value.toJSON === "function") return measure(value.toJSON(), depth + 1);
    let size = 2;
    if (isArray(value)) {
      for (let i = 0; i < value.length; i++) size += measure(value[i], depth + 1) + (i === 0 ? 0 : 1);
      return size;
    }
    const keys = objectKeys(value);
    let shown = 0;
    for (let i = 0; i < keys.length; i++) {
      const v = value[keys[i]];
      if (v === undefined || typeof v === "function") continue;
      size += utf8Length(keys[i]) + 3 + measure(v, depth + 1) + (shown === 0 ? 0 : 1);
      shown++;
    }
    return size;
  }

  function pointerOf(path) {
    let text = "";
    for (let i = 0; i < path.length; i++) text += "/" + StringCtor(path[i]).split("~").join("~0").split("/").join("~1");
    return text;
  }

  /** A preview of value in at most budget.left bytes; records what was cut. */
  function preview(value, budget, path, cuts) {
    if (value !== null && typeof value === "object" && typeof value.toJSON === "function") value = value.toJSON();
    const whole = capped(value, budget.left);
    if (whole !== TOO_LARGE) {
      budget.left -= utf8Length(whole);
      return parse(whole);
    }
    if (typeof value === "string") {
      let keep = value.length < budget.left ? value.length : budget.left > 2 ? budget.left - 2 : 0;
      while (keep > 0 && utf8Length(sliceText(value, 0, keep)) + 2 > budget.left) keep = keep > 64 ? (keep * 0.7) | 0 : keep - 1;
      const kept = sliceText(value, 0, keep);
      budget.left -= utf8Length(kept) + 2;
      cuts.characters += value.length - keep;
      if (cuts.at.length < MAX_CUTS) arrayPush(cuts.at, { pointer: pointerOf(path), unit: "characters", kept: keep, total: value.length });
      return kept;
    }
    if (value === null || typeof value !== "object") return null;
    budget.left -= 2;
    if (isArray(value)) {
      const out = [];
      let i = 0;
      // Whole items only, after the first: a reader gets complete records and one count of the rest.
      for (; i < value.length && budget.left > 16; i++) {
        if (i > 0) {
          const item = value[i] !== null && typeof value[i] === "object" && typeof value[i].toJSON === "function" ? value[i].toJSON() : value[i];
          const whole = capped(item === undefined || typeof item === "function" ? null : item, budget.left - 1);
          if (whole === TOO_LARGE) break;
          budget.left -= utf8Length(whole) + 1;
          arrayPush(out, parse(whole));
          continue;
        }
        arrayPush(path, i);
        arrayPush(out, preview(value[i], budget, path, cuts));
        path.length -= 1;
      }
      if (i < value.length) {
        cuts.items += value.length - i;
        if (cuts.at.length < MAX_CUTS) arrayPush(cuts.at, { pointer: pointerOf(path), unit: "items", kept: i, total: value.length });
      }
      return out;
    }
    // Small members (a cursor, a count, a flag) are kept whole first, so a large member cannot push
    // them out; the large ones share what is left, in key order.
    const out = {};
    const keys = objectKeys(value);
    const small = {};
    let reserved = 0;
    for (let k = 0; k < keys.length; k++) {
      const v = value[keys[k]];
      if (v === undefined || typeof v === "function") continue;
      const whole = capped(v, 512);
      if (whole !== TOO_LARGE && reserved + whole.length + keys[k].length + 4 < budget.left / 2) {
        small[keys[k]] = whole;
        reserved += utf8Length(whole) + utf8Length(keys[k]) + 4;
      }
    }
    budget.left -= reserved;
    let dropped = 0;
    for (let k = 0; k < keys.length; k++) {
      const v = value[keys[k]];
      if (v === undefined || typeof v === "function") continue;
      if (small[keys[k]] !== undefined) {
        out[keys[k]] = parse(small[keys[k]]);
        continue;
      }
      if (budget.left <= 16 + keys[k].length) {
        dropped++;
        continue;
      }
      budget.left -= utf8Length(keys[k]) + 4;
      arrayPush(path, keys[k]);
      out[keys[k]] = preview(v, budget, path, cuts);
      path.length -= 1;
    }
    if (dropped > 0) {
      cuts.keys += dropped;
      if (cuts.at.length < MAX_CUTS) arrayPush(cuts.at, { pointer: pointerOf(path), unit: "keys", kept: keys.length - dropped, total: keys.length });
    }
    return out;
  }

  /**
   * The return value as JSON text within max bytes: { text, complete: true } when it fits, else the
   * text of a preview, with the full size and what was cut.
   */
  function finish(value, max) {
    const root = value === undefined ? null : value;
    const whole = capped(root, max);
    if (whole !== TOO_LARGE) return { complete: true, text: whole, size: utf8Length(whole) };
    const cuts = { items: 0, characters: 0, keys: 0, at: [] };
    // Room for the preview's own overhead: keep a margin so the cut text is within max.
    const budget = { left: max - 64 };
    const shown = preview(root, budget, [], cuts);
    const text = stringify(shown);
    return { complete: false, text: typeof text === "string" ? text : "null", size: measure(root, 0), cut: stringify(cuts) };
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
