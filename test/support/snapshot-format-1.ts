/**
 * The image of snapshot format 1, as cca-kit wrote it before format 2 (kept frozen here, never used by
 * the mock): the state with its class instances and engine parts named by the order a walk of the
 * graph meets them. Tests write it to prove a snapshot of the previous format still loads.
 */
import { serialize } from 'node:v8';
import { LazyMap } from '../../mocks/engine/records/lazy-map.ts';
import type { EngineImage } from '../../mocks/engine/store/types.ts';

const PLAIN = new Set<unknown>([Object.prototype, Array.prototype, Map.prototype, Set.prototype, null]);

type Tag = readonly [index: number, name: string];

/** Objects met in a fixed order (keys, elements, Map entries, Set values), as format 1 walked them. */
function walk(root: unknown, visit: (value: object, index: number) => 'leaf' | undefined): void {
  const seen = new Set<object>();
  let count = 0;
  const step = (value: unknown): void => {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer || value instanceof Date) return;
    if (visit(value, count++) === 'leaf') return;
    if (value instanceof Map) {
      for (const [key, item] of value) {
        step(key);
        step(item);
      }
    } else if (value instanceof Set) for (const item of value) step(item);
    else if (Array.isArray(value)) for (const item of value) step(item);
    else for (const key of Object.keys(value)) step((value as Record<string, unknown>)[key]);
  };
  step(root);
}

/** `image` as the bytes of a format-1 snapshot image. */
export function captureImageFormat1(image: EngineImage): Buffer {
  const opaque = new Map<object, string>([
    [image.clock, 'clock'],
    [image.state.replies.signer, 'signer'],
    [image.state.keys.values, 'keyValues'],
  ]);
  const tags: Tag[] = [];
  walk(image.state, (value, index) => {
    const name = opaque.get(value);
    if (name !== undefined) {
      tags.push([index, `@${name}`]);
      return 'leaf';
    }
    const proto = Object.getPrototypeOf(value) as object | null;
    if (PLAIN.has(proto) || value instanceof LazyMap) return undefined;
    tags.push([index, (proto as { constructor: { name: string } }).constructor.name]);
    return undefined;
  });
  return serialize({ state: image.state, tags, lastReal: image.lastReal, clockOffset: image.clockOffset });
}
