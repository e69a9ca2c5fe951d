/**
 * The ceiling: a bare node:http server that answers each benchmarked route with the very bytes cca-kit
 * answered (status, headers, body recorded beforehand). Nothing is computed per request beyond parsing a
 * write's JSON body, so its throughput is what this runtime can do for these payloads. Run as its own process:
 *
 *   node --import tsx bench/servers/ceiling.ts <recordings.json>
 *
 * Prints `{"port": N}` on stdout once it listens on 127.0.0.1 (ephemeral port).
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recording {
  readonly method: string;
  /** Path and query exactly as requested. */
  readonly path: string;
  readonly status: number;
  readonly headers: readonly (readonly [string, string])[];
  readonly bodyBase64: string;
}

const SKIPPED = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);

const file = process.argv[2];
if (file === undefined) throw new Error('usage: ceiling.ts <recordings.json>');
const recordings = JSON.parse(readFileSync(file, 'utf8')) as Recording[];
const answers = new Map<string, { status: number; headers: Record<string, string>; body: Buffer }>();
for (const r of recordings) {
  const body = Buffer.from(r.bodyBase64, 'base64');
  const headers: Record<string, string> = {};
  for (const [name, value] of r.headers) if (!SKIPPED.has(name.toLowerCase())) headers[name] = value;
  headers['content-length'] = String(body.byteLength);
  answers.set(`${r.method} ${r.path}`, { status: r.status, headers, body });
}

/** Kept so that the parse cannot be optimised away. */
export let parsed: unknown;

const server = createServer((req, res) => {
  const answer = answers.get(`${req.method} ${req.url}`);
  const send = () => {
    if (answer === undefined) {
      res.writeHead(404, { 'content-length': '0' });
      res.end();
      return;
    }
    res.writeHead(answer.status, answer.headers);
    res.end(answer.body);
  };
  // Like the mock, read the whole request body and parse it as JSON before answering: a write's
  // ceiling is the cost of the transport plus the parse, not of the transport alone.
  if (req.method === 'GET' || req.method === 'HEAD') send();
  else {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text !== '') parsed = JSON.parse(text);
      send();
    });
  }
});
server.keepAliveTimeout = 5_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
