/**
 * The runner's keep-alive pool after its own event loop was busy for longer than the target's
 * keep-alive: the server has closed its idle sockets, and undici has not noticed yet. Without the
 * check for stale sockets, a POST written into such a socket fails with ECONNRESET (seen on a loaded
 * CI machine as a "no HTTP answer" failure of a moderation law against our own in-process mock).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolTransport } from '../src/conformance/transport.ts';

let server: Server;
let baseUrl: string;
let connections = 0;
/** How long the server keeps an idle socket; 0 keeps it open. */
let idleCloseMs = 200;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  // The server closes a socket idle for 200 ms, without a Keep-Alive hint (Node's would make undici
  // drop a socket that short-lived at once): undici keeps it for its own 4 s, so the test's busy
  // spell outlasts the server's keep-alive and not the client's.
  server.keepAliveTimeout = 0;
  server.on('connection', (socket) => {
    connections += 1;
    if (idleCloseMs > 0) socket.setTimeout(idleCloseMs, () => socket.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Holds the event loop, as a law computing or a starved process does. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

describe('the conformance pool transport', () => {
  it('sends every POST after a busy spell longer than the server keep-alive, on a fresh socket', async () => {
    const transport = poolTransport(baseUrl, 8, 100);
    try {
      for (let round = 0; round < 5; round += 1) {
        const first = await transport.send({
          method: 'POST',
          url: `${baseUrl}/a`,
          headers: {},
          body: 'x',
          signal: AbortSignal.timeout(10_000),
        });
        expect(first.status).toBe(200);
        busy(400);
        const after = await transport.send({
          method: 'POST',
          url: `${baseUrl}/b`,
          headers: {},
          body: 'y',
          signal: AbortSignal.timeout(10_000),
        });
        expect(after.status).toBe(200);
      }
    } finally {
      await transport.close?.();
    }
  });

  it('keeps using its sockets while requests follow each other', async () => {
    idleCloseMs = 0;
    const before = connections;
    const transport = poolTransport(baseUrl, 1, 60_000);
    try {
      for (let i = 0; i < 20; i += 1)
        expect(
          (
            await transport.send({
              method: 'GET',
              url: `${baseUrl}/c`,
              headers: {},
              body: undefined,
              signal: AbortSignal.timeout(10_000),
            })
          ).text,
        ).toBe('ok');
    } finally {
      await transport.close?.();
    }
    // One socket, or a few if the machine stalled this loop past undici's own idle timeout: never one a request.
    expect(connections - before).toBeLessThanOrEqual(3);
  });
});
