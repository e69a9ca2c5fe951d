/** A `CliIo` for running `cca-kit` commands in process: what they print is kept, line by write. */
import type { CliIo } from '../../src/cli/io.ts';

export function captureIo(): { io: CliIo; out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    signal: new AbortController().signal,
  };
  return { io, out, err };
}
