import { describe, expect, it } from 'vitest';
import { MockClock } from '../clock.ts';
import { exportDataFile } from '../data-file/export.ts';
import { createEngine } from '../index.ts';
import { LazyMap } from './lazy-map.ts';
import { orgData } from './state.ts';

describe('LazyMap', () => {
  it('builds a value once, at its first read, and keeps every key in its first place', () => {
    const built: string[] = [];
    const map = new LazyMap<string, number>(
      ['a', 'b', 'c'].map(
        (k, i) =>
          [
            k,
            () => {
              built.push(k);
              return i + 1;
            },
          ] as const,
      ),
    );
    expect(map.size).toBe(3);
    expect(map.has('b')).toBe(true);
    expect([...map.keys()]).toEqual(['a', 'b', 'c']);
    expect(built).toEqual([]);
    expect(map.get('c')).toBe(3);
    expect(map.get('c')).toBe(3);
    expect(built).toEqual(['c']);
    map.set('d', 4);
    expect([...map]).toEqual([
      ['a', 1],
      ['b', 2],
      ['c', 3],
      ['d', 4],
    ]);
    expect(built).toEqual(['c', 'a', 'b']);
    expect(map.pendingCount).toBe(0);
  });

  it('a key set or deleted before its first read is never built', () => {
    const map = new LazyMap<string, number>([
      ['a', () => 1],
      ['b', () => Number.NaN],
    ]);
    map.set('b', 2);
    map.delete('a');
    expect(map.get('a')).toBeUndefined();
    expect([...map.values()]).toEqual([2]);
    expect(map.pendingCount).toBe(0);
  });
});

describe('seeded organizations built at first use', () => {
  const start = Date.parse('2026-11-20T12:00:00Z');
  const engine = () => createEngine({ seed: 42, actions: 600, clock: new MockClock({ start }) });

  it('a fresh engine has generated no organization yet', () => {
    const orgs = engine().state.data.orgs;
    expect(orgs).toBeInstanceOf(LazyMap);
    expect((orgs as LazyMap<string, unknown>).pendingCount).toBe(orgs.size);
    expect(orgs.size).toBeGreaterThan(1);
  });

  it('the same data whichever organization is asked for first', () => {
    const ids = [...engine().state.data.orgs.keys()];
    const forward = engine();
    const backward = engine();
    for (const id of ids) orgData(forward.state.data, id);
    for (const id of [...ids].reverse()) orgData(backward.state.data, id);
    expect(JSON.stringify(exportDataFile(backward.state))).toBe(
      JSON.stringify(exportDataFile(forward.state)),
    );
    // Byte for byte, every column of the organization asked for first in one and last in the other.
    const bytes = (e: ReturnType<typeof engine>) =>
      Object.entries(orgData(e.state.data, ids.at(-1) ?? '').table).flatMap(([column, values]) =>
        ArrayBuffer.isView(values) ? [[column, Buffer.from(values.buffer).toString('base64')]] : [],
      );
    expect(bytes(backward)).toEqual(bytes(forward));
    expect(bytes(forward).length).toBeGreaterThan(10);
  });
});
