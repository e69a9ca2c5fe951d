/**
 * Preflight, then laws, end to end through `cca-kit conform` and `cca-kit diff`:
 * a refused key is one line and exit 2; a target without an agent interface is one NOT CHECKED
 * line, not a crash per agent law; a target that stops answering mid-run ends with exit 2 and what
 * was done; a non-http(s) base URL is a usage error; long URLs are shortened on the console only.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { runConformCommand } from '../src/cli/conform-command.ts';
import { main } from '../src/cli/main.ts';
import { KEY_ENV } from '../src/client/types.ts';
import { runExamples, violate } from '../src/conformance/kit/check.ts';
import type { Law } from '../src/conformance/kit/law.ts';
import { runConformance } from '../src/conformance/runner.ts';
import { renderConsoleReport, renderJsonReport } from '../src/reporters/index.ts';
import { mockKeys, type RunningTarget, startMockTarget } from '../suites/target.ts';
import { captureIo } from './support/cli-io.ts';

function env(baseUrl: string, overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
  const keys = mockKeys();
  return {
    CCA_BASE_URL: baseUrl,
    [KEY_ENV.read]: keys.read,
    [KEY_ENV.write]: keys.write,
    [KEY_ENV.ingest]: keys.ingest,
    ...overrides,
  };
}

/** A forwarding proxy that goes away (stops listening, drops connections) after `limit` requests. */
async function dyingProxy(upstream: string, limit: number): Promise<{ url: string; server: Server }> {
  let seen = 0;
  const server: Server = createServer((req, res) => {
    seen += 1;
    if (seen > limit) {
      req.socket.destroy();
      server.close();
      server.closeAllConnections();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers))
        if (typeof v === 'string' && k !== 'host' && k !== 'connection') headers[k] = v;
      fetch(new URL(req.url ?? '/', upstream), {
        method: req.method ?? 'GET',
        headers,
        ...(body.length === 0 ? {} : { body }),
      })
        .then(async (r) => {
          const text = Buffer.from(await r.arrayBuffer());
          res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
          res.end(text);
        })
        .catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('cca-kit conform: preflight', () => {
  let good: RunningTarget;
  let restOnly: MockServer;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cca-preflight-'));
    good = await startMockTarget({ seed: 42 });
    restOnly = await startMockServer({ host: '127.0.0.1', port: 0, seed: 42, agent: false });
  });
  afterAll(async () => {
    await Promise.all([good.close(), restOnly.close(), rm(dir, { recursive: true, force: true })]);
  });

  it('a refused key stops the run with exit 2 naming the variable and the status; no law runs', async () => {
    const run = captureIo();
    const code = await runConformCommand(
      ['--seed', '1', '--only', 'docs'],
      run.io,
      env(good.target.baseUrl, {
        [KEY_ENV.read]: 'cca_live_rotated_0000000000',
        [KEY_ENV.ingest]: 'cca_nope_1234',
      }),
    );
    expect(code).toBe(2);
    const err = run.err.join('');
    expect(err).toContain('CCA_READ_KEY refused: 401');
    expect(err).toContain('CCA_INGEST_KEY refused: 401');
    expect(err).not.toContain('CCA_WRITE_KEY');
    expect(err).not.toContain('cca_live_rotated');
    expect(run.out).toEqual([]);
  });

  it('the deliberately bad keys (expired, revoked) are not tried', async () => {
    const keys = mockKeys();
    const run = captureIo();
    const code = await runConformCommand(
      ['--seed', '1', '--only', 'docs'],
      run.io,
      env(good.target.baseUrl, {
        [KEY_ENV.expired]: keys.expired ?? '',
        [KEY_ENV.revoked]: keys.revoked ?? '',
      }),
    );
    expect(code, run.out.join('') + run.err.join('')).toBe(0);
  });

  it('a target without an agent interface: the agent group is NOT CHECKED in one line (exit 3)', async () => {
    const run = captureIo();
    const code = await runConformCommand(['--seed', '1', '--only', 'agent'], run.io, env(restOnly.url));
    expect(code).toBe(3);
    const lines = [...run.err, ...run.out].join('').split('\n');
    const said = lines.filter((l) => l.includes('agent interface NOT CHECKED'));
    // Once while running, once in the report's header; never one per law.
    expect(said, lines.join('\n')).toHaveLength(2);
    expect(said[0]).toMatch(/--mcp-url URL .* or --skip agent/);
    expect(lines.join('\n')).not.toContain('check crashed');
    expect(run.out.join('')).toMatch(/RESULT: NOT CHECKED \(no new failures, but group agent not checked/);
    const skipped = captureIo();
    expect(
      await runConformCommand(
        ['--seed', '1', '--only', 'docs', '--skip', 'agent'],
        skipped.io,
        env(restOnly.url),
      ),
    ).toBe(0);
  });

  it('a target that stops answering mid-run ends with exit 2 and what was done', async () => {
    const proxy = await dyingProxy(good.target.baseUrl, 40);
    const run = captureIo();
    const code = await runConformCommand(
      ['--seed', '1', '--runs', '2', '--only', 'schemas,paging,windows'],
      run.io,
      env(proxy.url),
    );
    expect(code, run.out.join('')).toBe(2);
    const out = run.out.join('');
    expect(out).toMatch(
      /RESULT: target stopped answering: http:\/\/127\.0\.0\.1:\d+ stopped answering during law [\w.-]+ \(law \d+ of \d+\); \d+ of \d+ laws ran, \d+ rules checked before it/,
    );
    expect(out).toContain('not run: the target stopped answering');
  });

  it('a non-http(s) base URL is a usage error (exit 2), before any request', async () => {
    const run = captureIo();
    expect(await main(['conform', '--base-url', 'ftp://127.0.0.1/'], run.io)).toBe(2);
    expect(run.err.join('')).toContain('--base-url must be an http(s) URL');
    await expect(runConformCommand(['--base-url', 'file:///etc/passwd'], captureIo().io, {})).rejects.toThrow(
      /http\(s\) URL/,
    );
  });

  it('--min-coverage below what the run checked ends NOT CHECKED (exit 3); --markdown writes the comment', async () => {
    const markdown = join(dir, 'comment.md');
    const run = captureIo();
    const code = await runConformCommand(
      ['--seed', '1', '--runs', '2', '--only', 'docs', '--min-coverage', '50', '--markdown', markdown],
      run.io,
      env(good.target.baseUrl),
    );
    expect(code, run.out.join('')).toBe(3);
    expect(run.out.join('')).toMatch(/coverage \d+ % is below --min-coverage 50 %/);
    const md = await readFile(markdown, 'utf8');
    expect(md.split('\n')[0]).toBe('## cca-kit conform: NOT CHECKED');
    expect(md).toContain('Coverage:');
    for (const key of Object.values(mockKeys())) expect(md).not.toContain(key);
    await expect(
      runConformCommand(['--min-coverage', '120'], captureIo().io, env(good.target.baseUrl)),
    ).rejects.toThrow(/--min-coverage/);
  });

  it('writes off: the verdict is conformant for reads with the number of write rules not run', async () => {
    const run = captureIo();
    const code = await runConformCommand(
      ['--seed', '1', '--runs', '2', '--only', 'custom-fields', '--no-allow-writes'],
      run.io,
      env(good.target.baseUrl),
    );
    expect(code, run.out.join('')).toBe(0);
    expect(run.out.join('')).toMatch(/RESULT: conformant for reads; \d+ write rules not run/);
  });

  it('the console never prints a 10 000-character URL; the JSON report keeps it whole', async () => {
    const long = 'a'.repeat(10_000);
    const law: Law = {
      id: 'u.long-url',
      group: 'u',
      title: 'a long URL in a failure',
      ruleIds: ['LIST-FULLFILTER-MAX-LENGTH'],
      needs: { keys: ['read'] },
      run: (ctx) =>
        runExamples(ctx, async () => {
          await ctx.client.request({
            method: 'GET',
            path: '/v0/action/list',
            query: { fullFilter: long },
            auth: 'read',
          });
          violate('LIST-FULLFILTER-MAX-LENGTH', 'status:x', 'pretend it was accepted');
        }),
    };
    const report = await runConformance({ target: good.target, seed: 1 }, { laws: [law] });
    const text = renderConsoleReport(report);
    expect(text).toContain('FAIL LIST-FULLFILTER-MAX-LENGTH');
    expect(text).not.toContain(long);
    expect(text).toMatch(/\[URL of 100\d\d characters shortened; whole in --json\]/);
    expect(renderJsonReport(report)).toContain(long);
  });
});

describe('cca-kit diff: the exit classes of conform', () => {
  it('an unreachable live is exit 2 with one line, not a list of differences', async () => {
    const run = captureIo();
    expect(await main(['diff', '--base-url', 'http://127.0.0.1:9', '--seed', '1'], run.io)).toBe(2);
    expect(run.err.join('')).toMatch(
      /cca-kit diff: live: GET http:\/\/127\.0\.0\.1:9\/docs\/json: no answer/,
    );
    expect(run.out).toEqual([]);
  });

  it('a live that stops answering mid-run is exit 2 saying so, not a list of differences', async () => {
    const upstream = await startMockServer({ host: '127.0.0.1', port: 0, seed: 42, agent: false });
    const proxy = await dyingProxy(upstream.url, 12);
    const saved = process.env['CCA_READ_KEY'];
    process.env['CCA_READ_KEY'] = mockKeys().read;
    try {
      const run = captureIo();
      expect(
        await main(['diff', '--mock', upstream.url, '--base-url', proxy.url, '--seed', '1'], run.io),
      ).toBe(2);
      expect(run.err.join('')).toMatch(
        /live \(http:\/\/127\.0\.0\.1:\d+\) stopped answering: \d+ of \d+ requests got no answer/,
      );
      expect(run.out).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env['CCA_READ_KEY'];
      else process.env['CCA_READ_KEY'] = saved;
      await upstream.close();
    }
  });

  it('a non-http(s) live URL is a usage error', async () => {
    const run = captureIo();
    expect(await main(['diff', '--base-url', 'ftp://127.0.0.1/'], run.io)).toBe(2);
    expect(run.err.join('')).toContain('--base-url must be an http(s) URL');
  });
});
