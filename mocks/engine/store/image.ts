/**
 * The engine state as bytes, for a snapshot: `node:v8`'s structured serialisation (Maps, Sets, typed
 * arrays, shared references and cycles come back as they were), plus what it drops. v8 keeps no
 * prototype, so every class instance is given its prototype back; the engine's clock and reply signer
 * hold private state (and the signer a secret that must never be at rest), so they are not written:
 * the restored state gets the running engine's own. So do the key values the engine has seen
 * (`KeyValues`): the state holds keys by hash only, so the bytes hold no key a client could present.
 *
 * The capture walks the whole graph once (to refuse what it could not restore, and to find the few
 * objects that need more than v8 gives back); the image then lists those objects themselves, as shared
 * references v8 keeps (format 2): a restore touches only them, never the rest of the graph, which at a
 * million commands is millions of objects. An image of format 1 (a snapshot written before) lists them
 * by the order a walk of the graph meets them, and is restored by that walk. Format 3 is format 2 with
 * each moderation case's submission held as JSON text; an older image's cases are converted on restore.
 * A class this module does not know, or a function in the state, refuses the capture: a snapshot that
 * could not be restored exactly is never written. Node only.
 */
import { deserialize, serialize } from 'node:v8';
import { ActionTable } from '../../../fixtures/generate/table.ts';
import { DataBaseline } from '../data-file/data-baseline.ts';
import type { ModerationCase } from '../moderation/types.ts';
import { MetricsAccumulator, TagAccumulator } from '../records/analytics.ts';
import { LazyMap } from '../records/lazy-map.ts';
import { SortedIndex } from '../records/sorted-index.ts';
import type { EngineState } from '../state.ts';
import { SerialisedJson } from '../types.ts';
import { SNAPSHOT_FORMAT } from './snapshot.ts';
import type { EngineImage } from './types.ts';

/**
 * Classes whose instances are plain fields (no private state): their prototype is put back by name.
 * The names are written out, not read from `type.name`: a bundler may rename a class (esbuild makes
 * `class SortedIndex` with a static reference to itself `class _SortedIndex`), and an image written by
 * the CLI's bundle must restore in the library's modules (a compaction replica runs those) and back.
 */
const CLASSES: ReadonlyMap<string, object> = new Map<string, object>([
  ['ActionTable', ActionTable.prototype],
  ['SortedIndex', SortedIndex.prototype],
  ['DataBaseline', DataBaseline.prototype],
  ['MetricsAccumulator', MetricsAccumulator.prototype],
  ['TagAccumulator', TagAccumulator.prototype],
  ['SerialisedJson', SerialisedJson.prototype],
]);
const NAMES: ReadonlyMap<object, string> = new Map([...CLASSES].map(([name, proto]) => [proto, name]));

/** The class of `name` in an image; images the CLI's bundle wrote before names were fixed say `_Name`. */
const classNamed = (name: string): object | undefined =>
  CLASSES.get(name) ?? (name.startsWith('_') ? CLASSES.get(name.slice(1)) : undefined);
const PLAIN = new Set<unknown>([Object.prototype, Array.prototype, Map.prototype, Set.prototype, null]);

/** The engine parts a snapshot never holds, by the name an image gives them. */
type Opaque = 'clock' | 'signer' | 'keyValues';

/** Format 2: where an engine part stood (its holder, and the key or index it stood at). */
type Slot = readonly [holder: object, key: unknown, part: Opaque];

interface ImageV2 {
  readonly state: EngineState;
  /** The class instances of the state (shared references into it), and their class names. */
  readonly tagged: readonly object[];
  readonly names: readonly string[];
  readonly slots: readonly Slot[];
  readonly lastReal: number;
  readonly clockOffset: number;
}

/** Format 1: `[walk index, class name or @part]`. */
type Tag = readonly [index: number, name: string];

interface ImageV1 {
  readonly state: EngineState;
  readonly tags: readonly Tag[];
  readonly lastReal: number;
  readonly clockOffset: number;
}

const isContainer = (value: unknown): value is object =>
  value !== null &&
  typeof value === 'object' &&
  !ArrayBuffer.isView(value) &&
  !(value instanceof ArrayBuffer) &&
  !(value instanceof Date);

/** What the running engine keeps and a snapshot never holds. */
function opaqueOf(image: EngineImage): ReadonlyMap<object, Opaque> {
  return new Map<object, Opaque>([
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
  const tagged: object[] = [];
  const names: string[] = [];
  const slots: Slot[] = [];
  const seen = new Set<object>();
  // Depth first with an explicit stack: a long chain never overflows the call stack.
  const stack: object[] = [];
  /** `value` met at `key` of `holder`: an engine part is noted where it stands, anything else visited. */
  const meet = (value: unknown, holder: object, key: unknown, place: 'slot' | 'member'): void => {
    if (typeof value === 'function') throw new Error('the state holds a function');
    if (!isContainer(value)) return;
    const part = opaque.get(value);
    if (part !== undefined) {
      // A Map key or a Set member cannot be put back in place: such a state is not written.
      if (place === 'member')
        throw new Error(`the state holds the engine's ${part} where a snapshot cannot put it back`);
      slots.push([holder, key, part]);
      return;
    }
    if (seen.has(value)) return;
    seen.add(value);
    stack.push(value);
  };
  const visit = (value: object): void => {
    const proto = Object.getPrototypeOf(value) as object | null;
    if (!PLAIN.has(proto) && !(value instanceof LazyMap)) {
      const type = NAMES.get(proto as object);
      if (type === undefined) {
        const named = (proto as { constructor?: { name?: string } }).constructor?.name ?? '?';
        throw new Error(`the state holds a ${named}, which a snapshot cannot restore`);
      }
      tagged.push(value);
      names.push(type);
    }
    // The seeded organizations (a LazyMap), built at first use: iterating it builds every one, so v8
    // writes a plain Map of them all (and a restored state holds that Map).
    if (value instanceof Map) {
      for (const [key, item] of value) {
        meet(key, value, key, 'member');
        meet(item, value, key, 'slot');
      }
    } else if (value instanceof Set) {
      for (const item of value) meet(item, value, item, 'member');
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i += 1) meet(value[i], value, i, 'slot');
    } else {
      const record = value as Record<string, unknown>;
      for (const key of Object.keys(record)) meet(record[key], value, key, 'slot');
    }
  };
  seen.add(image.state);
  stack.push(image.state);
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) visit(next);
  const written: ImageV2 = {
    state: image.state,
    tagged,
    names,
    slots,
    lastReal: image.lastReal,
    clockOffset: image.clockOffset,
  };
  return serialize(written);
}

const OLDER_KEYS =
  'the snapshot was written by an older cca-kit, which kept API keys by value: export the state with that version (GET /__mock/data), then start this one on a new state with --data and the export';

/**
 * Bytes from `captureImage` (of image format `format`, the snapshot header's) back as an image for
 * `running` (whose clock and signer it takes). Throws when the bytes do not decode to an image.
 */
export function restoreImage(
  bytes: Uint8Array,
  running: EngineImage,
  format: number = SNAPSHOT_FORMAT,
): EngineImage {
  const decoded = deserialize(bytes) as Partial<ImageV2 & ImageV1> | null;
  // An older version kept keys by value (`byKey`): such a state is not taken as this version's.
  if (!(decoded?.state?.keys?.byHash instanceof Map)) throw new Error(OLDER_KEYS);
  const parts: Record<Opaque, object> = {
    clock: running.clock,
    signer: running.state.replies.signer,
    keyValues: running.state.keys.values,
  };
  if (
    (format === 2 || format === 3) &&
    Array.isArray(decoded.tagged) &&
    Array.isArray(decoded.names) &&
    Array.isArray(decoded.slots)
  )
    restoreListed(decoded as ImageV2, parts);
  else if (format === 1 && Array.isArray(decoded.tags)) restoreWalked(decoded as ImageV1, parts);
  else throw new Error(`the image is not of format ${format}`);
  if (format < 3) submissionsAsText(decoded.state);
  return {
    state: decoded.state,
    clock: running.clock,
    lastReal: decoded.lastReal as number,
    clockOffset: decoded.clockOffset as number,
  };
}

/**
 * Formats 1 and 2 kept each moderation case's submission as an object: the case is made again with the
 * JSON text this version keeps (the text `JSON.stringify` wrote of the same object at intake), in both
 * maps that hold it (by caseId, by externalId), each in its place.
 */
function submissionsAsText(state: EngineState): void {
  const { byCaseId, organizations } = state.moderation;
  const converted = new Map<object, ModerationCase>();
  for (const [caseId, found] of byCaseId) {
    const { submission, ...rest } = found as unknown as Omit<ModerationCase, 'submissionJson'> & {
      readonly submission?: unknown;
    };
    if (submission === undefined) throw new Error(`moderation case ${caseId} has no submission`);
    const made: ModerationCase = {
      caseId: rest.caseId,
      organizationId: rest.organizationId,
      externalId: rest.externalId,
      submissionJson: JSON.stringify(submission),
      canonical: rest.canonical,
      fingerprint: rest.fingerprint,
      acceptedAt: rest.acceptedAt,
      evaluations: rest.evaluations,
    };
    converted.set(found, made);
    byCaseId.set(caseId, made);
  }
  for (const slot of organizations.values())
    for (const [externalId, found] of slot.byExternalId) {
      const made = converted.get(found);
      if (made !== undefined) slot.byExternalId.set(externalId, made);
    }
}

/** Formats 2 and 3: the listed objects get their prototype, the listed slots the running engine's parts. */
function restoreListed(decoded: ImageV2, parts: Record<Opaque, object>): void {
  const { tagged, names, slots } = decoded;
  if (tagged.length !== names.length) throw new Error('the image does not match its class list');
  for (let i = 0; i < tagged.length; i += 1) {
    const name = names[i] as string;
    const proto = classNamed(name);
    if (proto === undefined) throw new Error(`unknown class ${name}`);
    Object.setPrototypeOf(tagged[i], proto);
  }
  for (const [holder, key, part] of slots) {
    const replacement = parts[part];
    if (replacement === undefined) throw new Error(`unknown engine part @${String(part)}`);
    if (holder instanceof Map) holder.set(key, replacement);
    else (holder as Record<string | number, unknown>)[key as string | number] = replacement;
  }
}

/**
 * Format 1: objects met in a fixed order (keys, elements, Map entries, Set values), the same as the
 * capture's walk; the tags name the index of each class instance and engine part.
 */
function restoreWalked(decoded: ImageV1, parts: Record<Opaque, object>): void {
  const tags = decoded.tags;
  let next = 0;
  walkV1(decoded.state, (value, index) => {
    const tag = tags[next];
    if (tag === undefined || tag[0] !== index) return undefined;
    next += 1;
    const name = tag[1];
    if (name.startsWith('@')) {
      const replacement = parts[name.slice(1) as Opaque];
      if (replacement === undefined) throw new Error(`unknown engine part ${name}`);
      return replacement;
    }
    const proto = classNamed(name);
    if (proto === undefined) throw new Error(`unknown class ${name}`);
    Object.setPrototypeOf(value, proto);
    return undefined;
  });
  if (next !== tags.length) throw new Error('the image does not match its class list');
}

/** The walk of format 1, as its capture made it (an engine part replaced wherever it is met). */
function walkV1(root: unknown, visit: (value: object, index: number) => object | undefined): unknown {
  const seen = new Map<object, object>();
  let count = 0;
  const step = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    const known = seen.get(value);
    if (known !== undefined) return known;
    if (!isContainer(value)) {
      seen.set(value, value);
      return value;
    }
    const verdict = visit(value, count++);
    if (verdict !== undefined) {
      seen.set(value, verdict);
      return verdict;
    }
    seen.set(value, value);
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
