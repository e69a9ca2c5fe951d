/**
 * Targeted faults: "the next 2 `getAction` calls answer 500", "drop the next submission", "answer 403
 * to this key once", "accept this case, then fail it". Deterministic (a fault answers exactly the
 * requests it matches, in the order they come, no randomness) and per engine; the engine clears them
 * at reset. The pipeline asks `match` just before the handler (the request is routed, its key
 * accepted, its input valid) and only while `armed`: with no fault set a request pays one boolean.
 */
import type { Operation } from '../../../src/contract/index.ts';
import { type FaultSpec, parseFault } from './input.ts';
import type { FaultRequest, FaultView } from './types.ts';

export interface Faults {
  /** True while some fault can still fire (the pipeline's only question when none is set). */
  readonly armed: boolean;
  /** Adds a fault after the others (the first added that matches answers); throws `FaultInputError`. */
  add(input: unknown): FaultView;
  /** Every fault, spent ones included, oldest first. */
  list(): readonly FaultView[];
  get(id: string): FaultView | undefined;
  /** Removes one fault; undefined when there is none by that id. */
  remove(id: string): FaultView | undefined;
  /** Removes every fault and restarts the ids at `f1` (the engine's reset calls it); returns how many. */
  clear(): number;
  /** The first live fault that matches the request, without counting it (see `fire`). */
  match(request: FaultRequest): FaultView | undefined;
  /** Counts one answer of the fault. */
  fire(id: string): void;
}

interface Held {
  readonly id: string;
  readonly spec: FaultSpec;
  fired: number;
}

/** Objects field by field (the request may hold more), everything else equal as JSON values are. */
function holds(actual: unknown, wanted: unknown): boolean {
  if (typeof wanted !== 'object' || wanted === null) return Object.is(actual, wanted);
  if (Array.isArray(wanted)) {
    return (
      Array.isArray(actual) &&
      actual.length === wanted.length &&
      wanted.every((item, i) => holds(actual[i], item))
    );
  }
  if (typeof actual !== 'object' || actual === null || Array.isArray(actual)) return false;
  const record = actual as Record<string, unknown>;
  return Object.entries(wanted).every(
    ([name, value]) => Object.hasOwn(record, name) && holds(record[name], value),
  );
}

const remainingOf = (held: Held): number | null =>
  held.spec.times === null ? null : Math.max(0, held.spec.times - held.fired);

function describe(spec: FaultSpec): string {
  const what = [
    spec.delayMs !== null ? `${spec.delayMs} ms late` : null,
    spec.status !== null ? String(spec.status) : null,
    spec.drop ? 'connection dropped' : null,
    spec.failCase ? `202, then the case fails (${spec.failureCode})` : null,
  ].filter((part): part is string => part !== null);
  const only = [
    spec.key === null ? null : `key ${spec.key.slice(0, 10)}…`,
    spec.path === null ? null : `path ${spec.path}`,
    spec.body === null ? null : `body ${JSON.stringify(spec.body)}`,
  ].filter((part): part is string => part !== null);
  const times = spec.times === null ? 'every time' : spec.times === 1 ? 'once' : `${spec.times} times`;
  return `${spec.operation}${only.length === 0 ? '' : ` (${only.join(', ')})`} → ${what.join(', ')}, ${times}`;
}

function viewOf(held: Held): FaultView {
  const { spec } = held;
  const remaining = remainingOf(held);
  return {
    id: held.id,
    operation: spec.operation,
    key: spec.key,
    path: spec.path,
    body: spec.body,
    status: spec.status,
    delayMs: spec.delayMs,
    drop: spec.drop,
    failCase: spec.failCase,
    failureCode: spec.failureCode,
    times: spec.times,
    fired: held.fired,
    remaining,
    description: describe(spec),
  };
}

/**
 * The cases a moderation submission's 202 accepted, which a `failCase` fault fails (not the
 * duplicates: those cases existed before).
 */
export function acceptedCases(result: { readonly status: number; readonly body: unknown }): string[] {
  if (result.status !== 202 || typeof result.body !== 'object' || result.body === null) return [];
  const body = result.body as { caseId?: unknown; status?: unknown; results?: unknown };
  const acks = Array.isArray(body.results) ? (body.results as (typeof body)[]) : [body];
  return acks.flatMap((ack) =>
    ack.status === 'accepted' && typeof ack.caseId === 'string' ? [ack.caseId] : [],
  );
}

/**
 * The faults of one engine, checked against its contract's operations.
 *
 * @example
 * const faults = createFaults(contract.operations);
 * faults.add({ operation: 'getAction', status: 500, times: 2 });
 */
export function createFaults(operations: ReadonlyMap<string, Operation>): Faults {
  let held: Held[] = [];
  let issued = 0;
  let live = 0;
  const isLive = (h: Held): boolean => h.spec.times === null || h.fired < h.spec.times;
  const recount = (): void => {
    live = held.filter(isLive).length;
  };
  const find = (id: string): Held | undefined => held.find((h) => h.id === id);

  return {
    get armed() {
      return live > 0;
    },
    add(input) {
      const spec = parseFault(input, operations);
      issued += 1;
      const fault: Held = { id: `f${issued}`, spec, fired: 0 };
      held.push(fault);
      recount();
      return viewOf(fault);
    },
    list: () => held.map(viewOf),
    get(id) {
      const found = find(id);
      return found === undefined ? undefined : viewOf(found);
    },
    remove(id) {
      const found = find(id);
      if (found === undefined) return undefined;
      held = held.filter((h) => h !== found);
      recount();
      return viewOf(found);
    },
    clear() {
      const count = held.length;
      held = [];
      issued = 0;
      live = 0;
      return count;
    },
    match(request) {
      for (const h of held) {
        const spec = h.spec;
        if (spec.operation !== request.operationId || !isLive(h)) continue;
        if (spec.key !== null && spec.key !== request.key) continue;
        if (spec.pathPattern !== null && !spec.pathPattern.test(request.pathname)) continue;
        if (spec.body !== null && !holds(request.body, spec.body)) continue;
        return viewOf(h);
      }
      return undefined;
    },
    fire(id) {
      const found = find(id);
      if (found === undefined || !isLive(found)) return;
      found.fired += 1;
      recount();
    },
  };
}
