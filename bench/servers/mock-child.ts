/**
 * cca-kit's mock in a child process that can report its own heap (for the soak):
 *
 *   node --expose-gc --import tsx bench/servers/mock-child.ts [seed]
 *
 * Prints `{"url": ...}` once listening; answers the IPC message `"heap"` with its memory usage taken
 * after two full GCs.
 */
import { startMockServer } from '../../mocks/http/server.ts';

const gc = (globalThis as { gc?: () => void }).gc;
const mock = await startMockServer({ port: 0, seed: Number.parseInt(process.argv[2] ?? '42', 10) });
process.stdout.write(`${JSON.stringify({ url: mock.url })}\n`);
process.on('message', (message) => {
  if (message !== 'heap') return;
  gc?.();
  gc?.();
  const usage = process.memoryUsage();
  process.send?.({
    heapUsed: usage.heapUsed,
    rss: usage.rss,
    arrayBuffers: usage.arrayBuffers,
    external: usage.external,
  });
});
process.on('SIGTERM', () => {
  void mock.close().then(() => process.exit(0));
});
