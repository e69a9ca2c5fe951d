/**
 * Group commit of an append-only log file, with flushes overlapping: lines are written to the file as
 * soon as the write before them is done (one write at a time, so the file never has a hole), and a
 * flush (`fdatasync`) is started for every run of lines written since the last one started, up to
 * `MAX_FLUSHES` at once, without waiting for the flush before it. A line is released (applied and
 * answered) once a flush that started after its bytes were written has completed, strictly in log order:
 * every line before it was then written before that flush started too. With one flush at a time the
 * write rate was at most (writers per flush) ÷ (flush latency); with flushes overlapping, the lines that
 * arrive during a flush are on their way to disk before it ends.
 *
 * A barrier (a reset, a compaction) runs alone: once every line appended before it is released and
 * nothing is being written or flushed. Node only.
 */
import { fdatasync, fdatasyncSync, ftruncateSync, write } from 'node:fs';
import { promisify } from 'node:util';

const fdatasyncAsync = promisify(fdatasync);
const writeAsync = promisify(write);

/**
 * Flushes in flight at most. Each holds a thread of libuv's pool (4 by default) while the disk works;
 * one is left for the line writes and whatever else the process reads or writes meanwhile.
 */
export const MAX_FLUSHES = 3;

/** The open log: where it is and where its next byte goes (a barrier may replace both). */
export interface LogFile {
  fd: number;
  end: number;
}

/** Why appended lines were not kept: `cutBack` is false when the file could not be cut back to before them. */
export interface AppendFailure {
  readonly message: string;
  readonly cutBack: boolean;
}

interface Line {
  readonly bytes: string;
  readonly durable: () => void;
  readonly failed: (failure: AppendFailure) => void;
}

interface Barrier {
  /** A barrier that returns a promise holds every later step until it settles. */
  readonly run: () => void | Promise<void>;
}

type Step = Line | Barrier;

const isBarrier = (step: Step): step is Barrier => 'run' in step;

/** Lines written to the file, waiting for a flush that started after them; `end` is where they end. */
interface Written {
  readonly lines: readonly Line[];
  readonly start: number;
  readonly end: number;
}

export interface GroupCommit {
  /** Appends `bytes`; `durable` runs once they and every line before them are on disk, in log order. */
  append(bytes: string, durable: () => void, failed: (failure: AppendFailure) => void): void;
  /**
   * Runs `run` alone (nothing written or flushed meanwhile), after every line appended before it; when
   * it returns a promise, nothing after it starts before that settles.
   */
  barrier(run: () => void | Promise<void>): void;
  /** Like `barrier`, but ahead of every step not yet started (a compaction due now). */
  barrierNext(run: () => void | Promise<void>): void;
  /** Flushes made so far. */
  readonly flushes: number;
  /** Resolves once nothing is queued, written without its flush, or in flight. */
  idle(): Promise<void>;
}

/** What the group commit does to the file (the disk's in production; a test's to order its steps). */
export interface LogIo {
  /** Writes every byte at `position`. */
  write(fd: number, bytes: Buffer, position: number): Promise<void>;
  /** Makes every byte written before the call durable. */
  sync(fd: number): Promise<void>;
  /** Cuts the file to `length` and makes the cut durable (throws when it cannot). */
  cut(fd: number, length: number): void;
}

export const diskIo: LogIo = {
  async write(fd, bytes, position) {
    // A write may take fewer bytes than asked.
    let done = 0;
    while (done < bytes.length) {
      const { bytesWritten } = await writeAsync(fd, bytes, done, bytes.length - done, position + done);
      done += bytesWritten;
    }
  },
  sync: (fd) => fdatasyncAsync(fd),
  cut(fd, length) {
    ftruncateSync(fd, length);
    fdatasyncSync(fd);
  },
};

/**
 * @example
 * const commit = createGroupCommit({ fd, end: size });
 * commit.append(`${line}\n`, () => answer(), (failure) => refuse(failure.message));
 */
export function createGroupCommit(log: LogFile, io: LogIo = diskIo): GroupCommit {
  const queue: Step[] = [];
  const written: Written[] = [];
  let writing = false;
  let inFlight = 0;
  let flushes = 0;
  /** The end of the bytes written so far, and of those a flush has been started for. */
  let flushRequested = log.end;
  /** Set by a failed flush: nothing more is released until what it may have lost is cut back. */
  let failedFlush: string | null = null;
  let idleWaiters: (() => void)[] = [];
  /** True while lines are released: what they append or schedule waits for the pump after it. */
  let releasing = false;
  /** True while a barrier's promise is pending. */
  let barrierRunning = false;

  /** Cuts the log back to `end`; false when it cannot. */
  const cutBack = (end: number): boolean => {
    try {
      io.cut(log.fd, end);
      log.end = end;
      return true;
    } catch {
      return false;
    }
  };

  const busy = (): boolean => writing || barrierRunning || inFlight > 0 || written.length > 0;

  const release = (durableEnd: number): void => {
    releasing = true;
    try {
      while (written.length > 0 && (written[0] as Written).end <= durableEnd) {
        for (const line of (written.shift() as Written).lines) line.durable();
      }
    } finally {
      releasing = false;
    }
  };

  /** After a failed flush, once nothing is in flight: every line not released is cut away and failed. */
  const recover = (): void => {
    const message = failedFlush as string;
    failedFlush = null;
    const lost = written.splice(0);
    const start = lost[0]?.start ?? log.end;
    const kept = cutBack(start);
    flushRequested = log.end;
    for (const group of lost) for (const line of group.lines) line.failed({ message, cutBack: kept });
  };

  const flush = (): void => {
    const target = flushRequested;
    inFlight += 1;
    flushes += 1;
    io.sync(log.fd).then(
      () => {
        inFlight -= 1;
        if (failedFlush === null) release(target);
        pump();
      },
      (cause: Error) => {
        inFlight -= 1;
        failedFlush ??= cause.message;
        pump();
      },
    );
  };

  const writeNext = (): void => {
    const lines: Line[] = [];
    while (queue.length > 0 && !isBarrier(queue[0] as Step)) lines.push(queue.shift() as Line);
    const bytes = Buffer.from(lines.map((line) => line.bytes).join(''));
    const start = log.end;
    writing = true;
    io.write(log.fd, bytes, start).then(
      () => {
        writing = false;
        log.end = start + bytes.length;
        written.push({ lines, start, end: log.end });
        pump();
      },
      (cause: Error) => {
        writing = false;
        // None of it was answered: cut back what was written of it, so none of it is replayed.
        const kept = cutBack(start);
        for (const line of lines) line.failed({ message: cause.message, cutBack: kept });
        pump();
      },
    );
  };

  function pump(): void {
    if (releasing) return;
    if (failedFlush !== null) {
      if (!writing && inFlight === 0) recover();
      else return;
    }
    if (!writing && !barrierRunning && queue.length > 0) {
      const next = queue[0] as Step;
      if (!isBarrier(next)) writeNext();
      else if (!busy()) {
        queue.shift();
        const running = next.run();
        if (running !== undefined) {
          barrierRunning = true;
          const settled = (): void => {
            barrierRunning = false;
            flushRequested = log.end;
            pump();
          };
          running.then(settled, settled);
          return;
        }
        flushRequested = log.end;
        pump();
        return;
      }
    }
    if (!barrierRunning && inFlight < MAX_FLUSHES && log.end > flushRequested && failedFlush === null) {
      flushRequested = log.end;
      flush();
    }
    if (queue.length === 0 && !busy()) {
      const waiters = idleWaiters;
      idleWaiters = [];
      for (const resolve of waiters) resolve();
    }
  }

  return {
    append(bytes, durable, failed) {
      queue.push({ bytes, durable, failed });
      pump();
    },
    barrier(run) {
      queue.push({ run });
      pump();
    },
    barrierNext(run) {
      queue.unshift({ run });
      pump();
    },
    get flushes() {
      return flushes;
    },
    idle() {
      if (queue.length === 0 && !busy()) return Promise.resolve();
      return new Promise((resolve) => idleWaiters.push(resolve));
    },
  };
}
