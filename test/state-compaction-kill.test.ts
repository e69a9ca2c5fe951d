/**
 * A `--state-file` store killed at every step of a compaction loses nothing acknowledged. The kill is
 * simulated where it can be placed exactly: the store's file-system calls go through a trap that,
 * from the write that triggers a compaction on, lets the first `k` changes to the disk happen and
 * then none (a `kill -9` leaves what the process wrote, page cache included, and nothing after; the
 * write it was in may be cut half-way). For every `k` up to the end of the compaction, the files are
 * then opened again, by the real file system, and must hold every write that was answered.
 */
import type * as Fs from 'node:fs';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { openStateFile } from '../mocks/engine/store/file.ts';
import { createPersistentEngine } from '../mocks/engine/store/open.ts';

const trap = vi.hoisted(() => ({
  /** Counting changes to the disk from the moment it is armed. */
  armed: false,
  /** The change at which the process dies (it does not happen, or only half of a write). */
  killAt: Number.POSITIVE_INFINITY,
  changes: 0,
  dead: false,
  /** Names of the changes counted, for a failure's message. */
  seen: [] as string[],
}));

vi.mock('node:fs', async (importOriginal) => {
  const real = await importOriginal<typeof Fs>();
  const { promisify } = await import('node:util');
  const CHANGES = new Set([
    'openSync',
    'writeSync',
    'fsyncSync',
    'fdatasyncSync',
    'renameSync',
    'rmSync',
    'ftruncateSync',
    'write',
    'fdatasync',
    // The compaction beside the writes (background-compaction.ts) uses the callback API.
    'open',
    'fsync',
    'rename',
    'rm',
  ]);
  /** Whether the call runs, is the one the process dies in, or comes after its death. */
  const fate = (name: string, args: readonly unknown[]): 'runs' | 'dies' | 'dead' => {
    if (trap.dead) return 'dead';
    const opensForReading =
      (name === 'openSync' || name === 'open') && (args[1] === undefined || args[1] === 'r');
    if (!trap.armed || !CHANGES.has(name) || opensForReading) return 'runs';
    trap.seen.push(name);
    if (trap.changes++ < trap.killAt) return 'runs';
    trap.dead = true;
    return 'dies';
  };
  const allowed = (name: string, args: readonly unknown[]): boolean => fate(name, args) === 'runs';
  const killed = (): Error => new Error('killed (simulated kill -9)');
  const sync =
    <A extends unknown[], R>(name: string, fn: (...args: A) => R) =>
    (...args: A): R => {
      const now = fate(name, args);
      if (now === 'runs') return fn(...args);
      // The write the kill lands in may be cut: half of its bytes reach the file.
      if (now === 'dies' && name === 'writeSync') {
        const [fd, data, offset, length] = args as unknown as [number, string | Uint8Array, unknown, unknown];
        const bytes = typeof data === 'string' ? Buffer.from(data) : data;
        const from = typeof data !== 'string' && typeof offset === 'number' ? offset : 0;
        const size = typeof data !== 'string' && typeof length === 'number' ? length : bytes.length - from;
        real.writeSync(fd, bytes, from, Math.floor(size / 2));
      }
      throw killed();
    };
  // A dead process's callbacks never come: what waited on them is never answered.
  const writeAsync = promisify(real.write);
  const write = Object.assign(
    (...args: unknown[]) => {
      if (allowed('write', args)) (real.write as (...a: unknown[]) => void)(...args);
    },
    {
      [promisify.custom]: (...args: Parameters<typeof writeAsync>) =>
        allowed('write', args) ? writeAsync(...args) : new Promise(() => undefined),
    },
  );
  const fdatasync = (fd: number, callback: (error: Error | null) => void): void => {
    if (allowed('fdatasync', [fd])) real.fdatasync(fd, callback);
  };
  /** A call of the callback API: run, or (dead) never called back. */
  const later =
    (name: string, fn: (...args: never[]) => void) =>
    (...args: unknown[]): void => {
      if (allowed(name, args)) (fn as (...a: unknown[]) => void)(...args);
    };
  const wrapped = {
    ...real,
    openSync: sync('openSync', real.openSync),
    writeSync: sync('writeSync', real.writeSync),
    fsyncSync: sync('fsyncSync', real.fsyncSync),
    fdatasyncSync: sync('fdatasyncSync', real.fdatasyncSync),
    renameSync: sync('renameSync', real.renameSync),
    rmSync: sync('rmSync', real.rmSync),
    ftruncateSync: sync('ftruncateSync', real.ftruncateSync),
    readSync: sync('readSync', real.readSync),
    closeSync: sync('closeSync', real.closeSync),
    write,
    fdatasync,
    open: later('open', real.open),
    fsync: later('fsync', real.fsync),
    rename: later('rename', real.rename),
    rm: later('rm', real.rm),
    close: later('close', real.close),
  };
  return { ...wrapped, default: wrapped };
});

const dir = mkdtempSync(join(tmpdir(), 'cca-compaction-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EVERY = 4;

function open(file: string) {
  return createPersistentEngine({ seed: 7, actions: 20 }, (describe, proposal) =>
    openStateFile(file, describe, proposal, { snapshotEvery: EVERY }),
  );
}

/**
 * A log with two compactions behind it (a snapshot and the one before, the log cut at it), then
 * writes until the process dies at change `killAt` of the third compaction (or never, when
 * Infinity). Resolves the names of the keys whose creation was answered, and the changes counted.
 */
async function run(
  file: string,
  killAt: number,
): Promise<{ acknowledged: string[]; changes: string[]; died: boolean }> {
  Object.assign(trap, { armed: false, killAt, changes: 0, dead: false, seen: [] });
  const { engine, store } = await open(file);
  /** `done`, or the simulated death, whichever comes first. */
  const untilDeath = (done: Promise<unknown>): Promise<unknown> => {
    let check: ReturnType<typeof setInterval> | undefined;
    const death = new Promise((resolve) => {
      check = setInterval(() => trap.dead && resolve('dead'), 5);
    });
    return Promise.race([done, death]).finally(() => clearInterval(check));
  };
  const org = engine.admin.listOrganizations()[0]?.id ?? '';
  const acknowledged: string[] = [];
  const create = async (name: string): Promise<boolean> => {
    // A write the dead process never answers: it waits for ever, so it is given up on at death.
    const answered = engine.execute({ type: 'keys.create', input: { organizationId: org, name } });
    const death = new Promise<'dead'>((resolve) => {
      const check = setInterval(() => {
        if (trap.dead) {
          clearInterval(check);
          resolve('dead');
        }
      }, 5);
      void answered.finally(() => clearInterval(check)).catch(() => undefined);
    });
    const outcome = await Promise.race([answered.then(() => 'ok' as const), death]).catch(
      () => 'refused' as const,
    );
    if (outcome === 'ok') acknowledged.push(name);
    return outcome === 'ok';
  };
  for (let i = 0; i < 2 * EVERY + 1; i += 1) await create(`before-${i}`);
  trap.armed = true;
  // The write that completes the interval, then two more (the compaction runs between flushes);
  // two at a time, so a flush and a compaction meet other writes in flight.
  for (let i = 0; i < EVERY + 2 && !trap.dead; i += 2)
    await Promise.all([create(`during-${i}`), create(`during-${i + 1}`)]);
  // The compaction goes on beside the writes: a process that lives on finishes it (or dies in it).
  if (!trap.dead) await untilDeath(store.close());
  const died = trap.dead;
  // Whatever the dead store still holds is abandoned, as the kernel would: nothing is closed, and
  // what it waits for never comes. Calls already in flight at the death are let finish first, so
  // that what they would do next meets the dead process too. The next process sees the disk as it
  // was left.
  if (died) await new Promise((resolve) => setTimeout(resolve, 50));
  Object.assign(trap, { armed: false, killAt: Number.POSITIVE_INFINITY, dead: false });
  return { acknowledged, changes: [...trap.seen], died };
}

describe('--state-file killed at every step of a compaction', () => {
  it('loses no acknowledged write, and the files open again, whatever step the kill lands in', async () => {
    // Once without a kill: how many changes to the disk the third compaction and its writes make.
    const whole = join(dir, 'whole.state');
    const complete = await run(whole, Number.POSITIVE_INFINITY);
    expect(complete.changes).toContain('rename');
    expect(existsSync(`${whole}.snapshot.prev`)).toBe(true);
    // A whole compaction renames three times: the latest snapshot to the previous, the new one to the
    // latest, the new log over the old one.
    const renames = (changes: readonly string[]) => changes.filter((name) => name === 'rename').length;
    expect(renames(complete.changes)).toBeGreaterThanOrEqual(3);

    const leftovers = new Set<string>();
    // Every change in turn, until one past the last the run makes (the flushes after the compaction
    // may group the last writes differently from run to run, so their count is not fixed).
    for (let killAt = 0; ; killAt += 1) {
      const file = join(dir, `killed-${killAt}.state`);
      const { acknowledged, died, changes } = await run(file, killAt);
      if (!died) {
        // The compaction runs beside the writes, so how many changes come before its end varies from
        // run to run; the first run to outlive its kill made a whole one, so every change up to the
        // end of that one had its kill in an earlier run.
        expect(renames(changes), 'every change of the compaction had a kill').toBeGreaterThanOrEqual(3);
        break;
      }
      for (const name of readdirSync(dir))
        if (name.startsWith(`killed-${killAt}.`) && name.endsWith('.tmp'))
          leftovers.add(name.replace(`killed-${killAt}.state`, 'FILE'));
      const again = await open(file);
      const names = new Set(again.engine.admin.listKeys().map((k) => k.name));
      const lost = acknowledged.filter((name) => !names.has(name));
      expect(lost, `kill at change ${killAt}: lost ${lost.join(', ')}`).toEqual([]);
      // Started again, it writes on: the next compaction works from what the kill left.
      const org = again.engine.admin.listOrganizations()[0]?.id ?? '';
      for (let i = 0; i < EVERY; i += 1)
        await again.engine.execute({
          type: 'keys.create',
          input: { organizationId: org, name: `after-${i}` },
        });
      await again.store.close();
      const third = await open(file);
      const last = new Set(third.engine.admin.listKeys().map((k) => k.name));
      expect(acknowledged.filter((name) => !last.has(name))).toEqual([]);
      expect(last.has(`after-${EVERY - 1}`)).toBe(true);
      await third.store.close();
    }
    // The kills landed inside the compaction's steps: both half-written files were left at some step.
    expect([...leftovers].sort()).toEqual(['FILE.snapshot.tmp', 'FILE.tmp']);
  });
});
