/**
 * The stdio wire of `cca-kit mcp --stdio`: the SDK's `StdioServerTransport`, fed through a line filter
 * that answers what the SDK would drop. The SDK's read buffer skips a line that is not JSON without a
 * word (its `ReadBuffer` catches the `SyntaxError` and moves on) and reports a line that is JSON but no
 * JSON-RPC message only to `onerror`; a client then waits for an answer that never comes. JSON-RPC 2.0
 * (section 5.1) asks for `-32700 Parse error` and `-32600 Invalid Request` with `id: null` when the id
 * cannot be read, so this filter answers those itself and passes every well-formed line on unchanged.
 */
import { PassThrough, type Readable, type Writable } from 'node:stream';
import {
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  type JSONRPCMessage,
} from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** The SDK's own bound on one buffered line (10 MiB), kept so a line is refused here, not there. */
export const DEFAULT_MAX_LINE_BYTES = 10 * 1024 * 1024;

export interface StdioWireOptions {
  readonly stdin?: Readable;
  readonly stdout?: Writable;
  /** Longest line accepted (bytes); a longer one is answered -32600 and skipped up to its newline. */
  readonly maxLineBytes?: number;
  /** Told about each line answered with an error (for the stderr log). */
  readonly onRefused?: (code: number, message: string) => void;
}

type Verdict =
  | { readonly ok: true }
  | { readonly ok: false; readonly code: number; readonly message: string };

/** What one line of stdin is: a message to pass on, or the JSON-RPC error that answers it. */
export function judgeLine(line: string): Verdict {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    return {
      ok: false,
      code: -32700,
      message: `Parse error: the line is not valid JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (Array.isArray(value))
    return {
      ok: false,
      code: -32600,
      message: 'Invalid Request: JSON-RPC batches are not part of MCP; send one message per line',
    };
  if (isJSONRPCRequest(value) || isJSONRPCNotification(value) || isJSONRPCResponse(value))
    return { ok: true };
  return {
    ok: false,
    code: -32600,
    message:
      'Invalid Request: the line is JSON but not a JSON-RPC 2.0 message (needs "jsonrpc": "2.0" and a "method", or an "id" with "result" or "error")',
  };
}

/** The id a refused line carried, when it can be read (JSON-RPC answers `null` otherwise). */
function idOf(line: string): string | number | null {
  try {
    const value: unknown = JSON.parse(line);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const id = (value as Record<string, unknown>)['id'];
    return typeof id === 'string' || typeof id === 'number' ? id : null;
  } catch {
    return null;
  }
}

/**
 * A transport for `serveStdio({ transport })` that answers malformed lines and goes on.
 *
 * @example
 * const handle = serveStdio(factory, { transport: createStdioWire() });
 */
export function createStdioWire(options: StdioWireOptions = {}): StdioServerTransport {
  const stdin = options.stdin ?? process.stdin;
  const stdout = options.stdout ?? process.stdout;
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const filtered = new PassThrough();
  const wire = new StdioServerTransport(filtered, stdout, { maxBufferSize: maxLineBytes + 1 });
  let pending = Buffer.alloc(0);
  let skippingLongLine = false;

  const refuse = (id: string | number | null, code: number, message: string): void => {
    options.onRefused?.(code, message);
    // The SDK types a response id as a request id; JSON-RPC's `null` for an unreadable one is sent as is.
    const answer = { jsonrpc: '2.0', id, error: { code, message } } as unknown as JSONRPCMessage;
    wire.send(answer).catch(() => undefined);
  };

  const onLine = (raw: Buffer): void => {
    const line = raw.toString('utf8').replace(/\r$/, '');
    if (line.trim() === '') return;
    const verdict = judgeLine(line);
    if (verdict.ok) filtered.write(`${line}\n`);
    else refuse(idOf(line), verdict.code, verdict.message);
  };

  stdin.on('data', (chunk: Buffer | string) => {
    pending = Buffer.concat([pending, typeof chunk === 'string' ? Buffer.from(chunk) : chunk]);
    for (;;) {
      const newline = pending.indexOf(0x0a);
      if (newline === -1) break;
      const line = pending.subarray(0, newline);
      pending = pending.subarray(newline + 1);
      if (skippingLongLine) skippingLongLine = false;
      else onLine(line);
    }
    if (pending.byteLength > maxLineBytes) {
      pending = Buffer.alloc(0);
      if (!skippingLongLine)
        refuse(null, -32600, `Invalid Request: a line exceeds ${maxLineBytes} bytes; it is skipped`);
      skippingLongLine = true;
    }
  });
  stdin.once('end', () => filtered.end());
  stdin.once('close', () => filtered.end());
  stdin.on('error', (error: Error) => filtered.destroy(error));
  return wire;
}
