/**
 * The engine state as bytes, for a snapshot: `node:v8`'s structured serialisation (Maps, Sets, typed
 * arrays, shared references and cycles come back as they were), plus what it drops. v8 keeps no
 * prototype, so every class instance is listed by the order a walk of the graph meets it and given its
 * prototype back; the engine's clock and reply signer hold private state (and the signer a secret that
 * must never be at rest), so they are not written: the restored state gets the running engine's own.
 * So do the key values the engine has seen (`KeyValues`): the state holds keys by hash only, so the
 * bytes hold no key a client could present.
 * A class this module does not know, or a function in the state, refuses the capture: a snapshot that
 * could not be restored exactly is never written. Node only.
 */
import { deserialize, serialize } from 'node:v8';
import { ActionTable } from '../../../fixtures/generate/table.ts';
import { DataBaseline } from '../data-file/data-baseline.ts';
import { MetricsAccumulator, TagAccumulator } from '../records/analytics.ts';
import { LazyMap } from '../records/lazy-map.ts';
import { SortedIndex } from '../records/sorted-index.ts';
import type { EngineState } from '../state.ts';
import { SerialisedJson } from '../types.ts';
import type { EngineImage } from './types.ts';

/** Classes whose instances are plain fields (no private state): their prototype is put back by name. */
const CLASSES: ReadonlyMap<string, object> = new Map(
  [ActionTable, SortedIndex, DataBaseline, MetricsAccumulator, TagAccumulator, SerialisedJson].map((type) => [
    type.name,
    type.prototype as object,
  ]),
);
const PLAIN = new Set<unknown>([Object.prototype, Array.prototype, Map.prototype, Set.prototype, null]);

type Tag = readonly [index: number, name: string];

/** Objects met in a fixed order (keys, elements, Map entries, Set values): the same on both sides. */
function walk(root: unknown, visit: (value: object, index: number) => object | 'leaf' | undefined): unknown {
  const seen = new Map<object, object>();
  let count = 0;
  const step = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') {
      if (typeof value === 'function') throw new Error('the state holds a function');
      return value;
    }
    const known = seen.get(value);
    if (known !== undefined) return known;
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date) {
      seen.set(value, value);
      return value;
    }
    const verdict = visit(value, count++);
    if (verdict !== undefined && verdict !== 'leaf') {
      seen.set(value, verdict);
      return verdict;
    }
    seen.set(value, value);
    if (verdict === 'leaf') return value;
    if (value instanceof Map) {
      for (const [key, item] of value) {
        step(key);
        const next = step(item);
        if (next !== item) value.set(key, next);
      }
    } else if (value instanceof Set) {
      for (const item of value) step(item);
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) {
        const item = value[i];
        const next = step(item);
        if (next !== item) value[i] = next;
      }
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) {
        const item = record[key];
        const next = step(item);
        if (next !== item) record[key] = next;
      }
    }
    return value;
  };
  return step(root);
}

/** What the running engine keeps and a snapshot never holds. */
function opaqueOf(image: EngineImage): ReadonlyMap<object, string> {
  return new Map<object, string>([
    [image.clock, 'clock'],
    [image.state.replies.signer, 'signer'],
    [image.state.keys.values, 'keyValues'],
  ]);
}

/**
 * The engine's state, clock offset and last applied real time as bytes.
 *
 * @example
 * const bytes = captureImage(engineImage.take()); // keys by hash: no key value in the bytes
 */
export function captureImage(image: EngineImage): Buffer {
  const opaque = opaqueOf(image);
  const tags: Tag[] = [];
  walk(image.state, (value, index) => {
    const name = opaque.get(value);
    if (name !== undefined) {
      tags.push([index, `@${name}`]);
      return 'leaf';
    }
    const proto = Object.getPrototypeOf(value) as object | null;
    if (PLAIN.has(proto)) return undefined;
    // The seeded organizations, built at first use: the walk iterates it, which builds every one, so v8
    // writes a plain Map of them all (and a restored state holds that Map).
    if (value instanceof LazyMap) return undefined;
    const type = (proto as { constructor?: { name?: string } }).constructor?.name ?? '?';
    if (CLASSES.get(type) !== proto)
      throw new Error(`the state holds a ${type}, which a snapshot cannot restore`);
    tags.push([index, type]);
    return undefined;
  });
  return serialize({
    state: image.state,
    tags,
    lastReal: image.lastReal,
    clockOffset: image.clockOffset,
  });
}

/**
 * Bytes from `captureImage` back as an image for `running` (whose clock and signer it takes).
 * Throws when the bytes do not decode to an image.
 */
export function restoreImage(bytes: Uint8Array, running: EngineImage): EngineImage {
  const decoded = deserialize(bytes) as {
    state: EngineState;
    tags: Tag[];
    lastReal: number;
    clockOffset: number;
  };
  // An older version kept keys by value (`byKey`): such a state is not taken as this version's.
  if (!(decoded.state?.keys?.byHash instanceof Map))
    throw new Error(
      'the snapshot was written by an older cca-kit, which kept API keys by value: export the state with that version (GET /__mock/data), then start this one on a new state with --data and the export',
    );
  const opaque: Record<string, object> = {
    clock: running.clock,
    signer: running.state.replies.signer,
    keyValues: running.state.keys.values,
  };
  let next = 0;
  walk(decoded.state, (value, index) => {
    const tag = decoded.tags[next];
    if (tag === undefined || tag[0] !== index) return undefined;
    next += 1;
    const name = tag[1];
    if (name.startsWith('@')) {
      const replacement = opaque[name.slice(1)];
      if (replacement === undefined) throw new Error(`unknown engine part ${name}`);
      return replacement;
    }
    const proto = CLASSES.get(name);
    if (proto === undefined) throw new Error(`unknown class ${name}`);
    Object.setPrototypeOf(value, proto);
    return undefined;
  });
  if (next !== decoded.tags.length) throw new Error('the image does not match its class list');
  return {
    state: decoded.state,
    clock: running.clock,
    lastReal: decoded.lastReal,
    clockOffset: decoded.clockOffset,
  };
}
