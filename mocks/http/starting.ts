/**
 * The port of a mock that is still loading its state (a long log, a snapshot): it is open at once and
 * answers every request 503 with `Retry-After` and a body naming the progress, so a balancer's health
 * check or a client sees a clear "not yet", never a hang. `startMockServer({ server })` then takes its
 * requests over on the same socket.
 */
import { createServer, type Server } from 'node:http';
import type { LoadProgress } from '../engine/store/types.ts';
import { listen, originOf } from './listen.ts';
import { DEFAULT_SERVER_LIMITS } from './server.ts';

export interface StartingPort {
  readonly server: Server;
  readonly url: string;
  close(): Promise<void>;
}

/** The sentence a 503 of a starting mock says. */
export function describeProgress(progress: LoadProgress): string {
  switch (progress.phase) {
    case 'opening':
      return 'opening its state store';
    case 'snapshot':
      return 'loading its latest snapshot';
    case 'replay':
      return `replaying its log (${progress.applied} of ${progress.total ?? '?'} commands)`;
    case 'ready':
      return 'about to answer';
  }
}

/**
 * @example
 * const progress = { phase: 'opening', applied: 0, total: null };
 * const port = await openStartingPort(4010, '127.0.0.1', progress);
 */
export async function openStartingPort(
  port: number,
  host: string,
  progress: LoadProgress,
): Promise<StartingPort> {
  const server = createServer(
    { maxHeaderSize: DEFAULT_SERVER_LIMITS.maxHeaderSize, connectionsCheckingInterval: 1_000 },
    (req, res) => {
      req.resume();
      const body = JSON.stringify({
        success: false,
        error: `Service unavailable: the mock is starting, ${describeProgress(progress)}; retry shortly`,
        status: 'starting',
        progress: { ...progress },
      });
      res.writeHead(503, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
        'retry-after': '1',
        'cache-control': 'no-store',
      });
      res.end(req.method === 'HEAD' ? undefined : body);
    },
  );
  await listen(server, port, host);
  return {
    server,
    url: originOf(server),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
