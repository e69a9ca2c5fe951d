/**
 * Reads at a fixed rate, in a process of its own, for the latency a polling client sees: `rate`
 * GETs a second spread over `connections` kept-alive connections for `seconds`, each timed from the
 * moment it was due, not from when it was sent (a request held back by a busy server counts the
 * wait: no coordinated omission). Prints one JSON line: requests, p50, p99 and max in ms, non-2xx,
 * errors, and how many were due while every connection was still busy (sent late).
 *
 *   node bench/lib/paced-reader.mjs <url> <x-api-key> <rate> <seconds> [connections=4]
 */
import { Agent, request } from 'node:http';

const [url, key, rateText, secondsText, connectionsText] = process.argv.slice(2);
if (url === undefined || key === undefined)
  throw new Error('usage: paced-reader.mjs <url> <key> <rate> <seconds>');
const rate = Number(rateText ?? '1000');
const seconds = Number(secondsText ?? '3');
const connections = Number(connectionsText ?? '4');
const agent = new Agent({ keepAlive: true, maxSockets: connections });
const target = new URL(url);
const latencies = [];
let non2xx = 0;
let errors = 0;
let busy = 0;
let late = 0;
const queue = [];

const send = (due) => {
  busy += 1;
  const req = request(
    {
      host: target.hostname,
      port: target.port,
      path: target.pathname + target.search,
      agent,
      headers: { 'x-api-key': key },
    },
    (res) => {
      if (res.statusCode < 200 || res.statusCode > 299) non2xx += 1;
      res.resume();
      res.on('end', () => {
        latencies.push(performance.now() - due);
        done();
      });
    },
  );
  req.on('error', () => {
    errors += 1;
    done();
  });
  req.end();
};
const done = () => {
  busy -= 1;
  const next = queue.shift();
  if (next !== undefined) send(next);
};

const start = performance.now();
const interval = 1000 / rate;
let sent = 0;
const tick = setInterval(() => {
  const now = performance.now();
  if (now - start >= seconds * 1000) {
    clearInterval(tick);
    return;
  }
  for (; start + sent * interval <= now; sent += 1) {
    const due = start + sent * interval;
    if (busy < connections) send(due);
    else {
      late += 1;
      queue.push(due);
    }
  }
}, 1);

const finish = () => {
  if (busy > 0 || queue.length > 0 || performance.now() - start < seconds * 1000) {
    setTimeout(finish, 10);
    return;
  }
  latencies.sort((a, b) => a - b);
  const at = (p) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? Number.NaN;
  process.stdout.write(
    `${JSON.stringify({ requests: latencies.length, p50: at(50), p99: at(99), max: latencies.at(-1) ?? Number.NaN, non2xx, errors, late, seconds: (performance.now() - start) / 1000 })}\n`,
  );
  agent.destroy();
};
setTimeout(finish, seconds * 1000);
