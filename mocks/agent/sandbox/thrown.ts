/**
 * What a script threw, read out of QuickJS without trusting it: reading an error's properties may run
 * the script's own getters (still under the interrupt deadline), and anything unreadable is reported
 * as such rather than crashing the host.
 */
import type { QuickJSContext, QuickJSHandle } from 'quickjs-emscripten-core';
import { SCRIPT_FILE } from './prelude.ts';

export interface Thrown {
  /** The thrown value was null: what QuickJS throws when it runs out of memory while reporting it. */
  readonly nullValue?: boolean;
  readonly name: string;
  readonly message: string;
  /** The script's line the error points at, when QuickJS says. */
  readonly line: number | null;
}

const MAX_MESSAGE_CHARS = 2000;
const STACK_LINE = new RegExp(`${SCRIPT_FILE.replace('.', '\\.')}:(\\d+)`);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS)}…` : text;
}

function lineOf(record: Record<string, unknown>): number | null {
  if (record.fileName === SCRIPT_FILE && typeof record.lineNumber === 'number') return record.lineNumber;
  const match = typeof record.stack === 'string' ? STACK_LINE.exec(record.stack) : null;
  return match?.[1] === undefined ? null : Number.parseInt(match[1], 10);
}

export function describeThrown(ctx: QuickJSContext, handle: QuickJSHandle): Thrown {
  let dumped: unknown;
  try {
    dumped = ctx.dump(handle);
  } catch {
    return { name: 'Error', message: 'The script threw a value that could not be read', line: null };
  }
  if (isRecord(dumped) && typeof dumped.message === 'string') {
    const name = typeof dumped.name === 'string' ? dumped.name : 'Error';
    return { name: clip(name), message: clip(dumped.message), line: lineOf(dumped) };
  }
  let shown: string;
  try {
    shown = JSON.stringify(dumped) ?? String(dumped);
  } catch {
    shown = typeof dumped;
  }
  return {
    name: 'Error',
    message: clip(`The script threw a non-Error value: ${shown}`),
    line: null,
    ...(dumped === null ? { nullValue: true } : {}),
  };
}
