/**
 * The order of group commit's steps, on a log whose writes and flushes complete when the test says:
 * a line is released only once a flush that started after its bytes were written has completed, in
 * log order even when flushes complete out of order; a flush starts for lines written while another
 * is in flight; a failed flush cuts back and fails every line not yet released; a barrier runs alone,
 * and one that returns a promise holds every later write and flush until it settles.
 */
import { describe, expect, it } from 'vitest';
import { createGroupCommit, type LogIo, MAX_FLUSHES } from './group-commit.ts';

interface Step {
  readonly kind: 'write' | 'sync';
  /** For a write: the bytes. For a sync: the bytes written (completed) when it started. */
  readonly text: string;
  done(): void;
  fail(message: string): void;
}

/** A log in memory whose writes and syncs wait for the test; `durable` is what the last completed sync covered. */
function scriptedLog() {
  let file = '';
  let durable = '';
  const steps: Step[] = [];
  const cuts: number[] = [];
  const io: LogIo = {
    write: (_fd, bytes, position) =>
      new Promise((resolve, reject) => {
        const text = bytes.toString();
        steps.push({
          kind: 'write',
          text,
          done: () => {
            file = file.slice(0, position) + text;
            resolve();
          },
          fail: (message) => reject(new Error(message)),
        });
      }),
    sync: () =>
      new Promise((resolve, reject) => {
        const covered = file;
        steps.push({
          kind: 'sync',
          text: covered,
          done: () => {
            if (covered.length > durable.length) durable = covered;
            resolve();
          },
          fail: (message) => reject(new Error(message)),
        });
      }),
    cut: (_fd, length) => {
      cuts.push(length);
      file = file.slice(0, length);
    },
  };
  const pending = (kind: Step['kind']) => steps.filter((step) => step.kind === kind);
  /** Completes the oldest pending step of `kind` (or the `index`-th) and lets its callbacks run. */
  const complete = async (kind: Step['kind'], index = 0, fail?: string): Promise<void> => {
    const step = pending(kind)[index];
    if (step === undefined) throw new Error(`no pending ${kind}`);
    steps.splice(steps.indexOf(step), 1);
    if (fail === undefined) step.done();
    else step.fail(fail);
    await new Promise((resolve) => setImmediate(resolve));
  };
  return {
    io,
    complete,
    pending,
    cuts,
    file: () => file,
    durable: () => durable,
  };
}

describe('group commit', () => {
  it('releases a line only after a flush started after its write, in log order, with flushes overlapping', async () => {
    const log = scriptedLog();
    const commit = createGroupCommit({ fd: 0, end: 0 }, log.io);
    const released: string[] = [];
    const append = (line: string): void =>
      commit.append(
        `${line}\n`,
        () => {
          // Everything released so far is on disk: its bytes were written before a completed flush.
          expect(log.durable()).toContain(`${line}\n`);
          released.push(line);
        },
        () => released.push(`failed ${line}`),
      );
    append('a');
    expect(log.pending('write').map((s) => s.text)).toEqual(['a\n']);
    append('b');
    append('c');
    // One write at a time: b and c wait for a's write, then go in one.
    expect(log.pending('write')).toHaveLength(1);
    await log.complete('write');
    expect(log.pending('write').map((s) => s.text)).toEqual(['b\nc\n']);
    expect(log.pending('sync').map((s) => s.text)).toEqual(['a\n']);
    await log.complete('write');
    // b and c written while a's flush is in flight: their flush starts now, without waiting.
    expect(log.pending('sync').map((s) => s.text)).toEqual(['a\n', 'a\nb\nc\n']);
    append('d');
    await log.complete('write');
    expect(log.pending('sync')).toHaveLength(MAX_FLUSHES);
    expect(released).toEqual([]);
    // The second flush completes first: it covers a, b and c (written before it started), not d.
    await log.complete('sync', 1);
    expect(released).toEqual(['a', 'b', 'c']);
    // The first flush completes late: it covers nothing new.
    await log.complete('sync', 0);
    expect(released).toEqual(['a', 'b', 'c']);
    await log.complete('sync', 0);
    expect(released).toEqual(['a', 'b', 'c', 'd']);
    expect(commit.flushes).toBe(3);
    await commit.idle();
  });

  it('never has more than MAX_FLUSHES flushes in flight; the lines written meanwhile wait for a free one', async () => {
    const log = scriptedLog();
    const commit = createGroupCommit({ fd: 0, end: 0 }, log.io);
    const released: string[] = [];
    for (let n = 0; n < MAX_FLUSHES + 2; n++) {
      commit.append(
        `${n}\n`,
        () => released.push(String(n)),
        () => undefined,
      );
      await log.complete('write');
    }
    expect(log.pending('sync')).toHaveLength(MAX_FLUSHES);
    await log.complete('sync', 0);
    // The freed slot takes every line written since the last flush started.
    expect(log.pending('sync')).toHaveLength(MAX_FLUSHES);
    expect(log.pending('sync').at(-1)?.text).toBe(
      Array.from({ length: MAX_FLUSHES + 2 }, (_, n) => `${n}\n`).join(''),
    );
    while (log.pending('sync').length > 0) await log.complete('sync');
    expect(released).toEqual(Array.from({ length: MAX_FLUSHES + 2 }, (_, n) => String(n)));
  });

  it('a failed flush cuts the file back to the last released line and fails every line after it', async () => {
    const log = scriptedLog();
    const commit = createGroupCommit({ fd: 0, end: 0 }, log.io);
    const outcome: string[] = [];
    const append = (line: string): void =>
      commit.append(
        `${line}\n`,
        () => outcome.push(`ok ${line}`),
        (failure) => outcome.push(`failed ${line} (${failure.message}, cut back ${failure.cutBack})`),
      );
    append('a');
    await log.complete('write');
    await log.complete('sync');
    append('b');
    await log.complete('write');
    append('c');
    await log.complete('write');
    // b's flush fails while c's is in flight: c's success may not be trusted, nothing more is released.
    await log.complete('sync', 0, 'EIO');
    await log.complete('sync', 0);
    expect(outcome).toEqual(['ok a', 'failed b (EIO, cut back true)', 'failed c (EIO, cut back true)']);
    expect(log.cuts).toEqual([2]);
    expect(log.file()).toBe('a\n');
    // The next line goes where b was.
    append('d');
    await log.complete('write');
    expect(log.file()).toBe('a\nd\n');
    await log.complete('sync');
    expect(outcome.at(-1)).toBe('ok d');
  });

  it('a barrier runs once every line before it is released and nothing is in flight; the lines after it wait', async () => {
    const log = scriptedLog();
    const commit = createGroupCommit({ fd: 0, end: 0 }, log.io);
    const order: string[] = [];
    commit.append(
      'a\n',
      () => order.push('a'),
      () => undefined,
    );
    commit.barrier(() => {
      expect(log.pending('write')).toHaveLength(0);
      expect(log.pending('sync')).toHaveLength(0);
      order.push('barrier');
    });
    commit.append(
      'b\n',
      () => order.push('b'),
      () => undefined,
    );
    await log.complete('write');
    expect(log.pending('write')).toHaveLength(0);
    await log.complete('sync');
    expect(order).toEqual(['a', 'barrier']);
    await log.complete('write');
    await log.complete('sync');
    expect(order).toEqual(['a', 'barrier', 'b']);
  });

  it('a barrier that returns a promise holds every later write and flush until it settles, and may move the log', async () => {
    const log = scriptedLog();
    const file = { fd: 0, end: 0 };
    const commit = createGroupCommit(file, log.io);
    const order: string[] = [];
    commit.append(
      'a\n',
      () => order.push('a'),
      () => undefined,
    );
    let settle: () => void = () => undefined;
    commit.barrier(
      () =>
        new Promise<void>((resolve) => {
          order.push('barrier');
          settle = () => {
            // What a compaction does at its end: the log is another file, of another length.
            file.fd = 1;
            file.end = 10;
            resolve();
          };
        }),
    );
    await log.complete('write');
    await log.complete('sync');
    expect(order).toEqual(['a', 'barrier']);
    commit.append(
      'b\n',
      () => order.push('b'),
      () => undefined,
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.pending('write')).toHaveLength(0);
    expect(log.pending('sync')).toHaveLength(0);
    settle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.pending('write')).toHaveLength(1);
    await log.complete('write');
    expect(file.end).toBe(12);
    await log.complete('sync');
    expect(order).toEqual(['a', 'barrier', 'b']);
    await commit.idle();
  });
});
