/** `cca-kit record` and `cca-kit import` as commands, and the recorder's bounds. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MockClock } from '../mocks/engine/clock.ts';
import { type MockServer, startMockServer } from '../mocks/http/server.ts';
import { main } from '../src/cli/main.ts';
import { startRecorder } from '../src/record/recorder.ts';
import { at, list } from './data-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-record-cli-'));
let live: MockServer;
let key = '';
beforeAll(async () => {
  live = await startMockServer({
    port: 0,
    seed: 42,
    actions: 100,
    clock: new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') }),
  });
  key =
    live.engine.admin.listKeys('org_acme').find((k) => k.profile === 'reporting' && k.status === 'active')
      ?.key ?? '';
});
afterAll(async () => {
  await live.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a long-running command until `ready` appears in its output, calls `use`, then stops it. */
async function running(
  argv: string[],
  ready: string,
  use: (output: string) => Promise<void>,
): Promise<string> {
  const out: string[] = [];
  const controller = new AbortController();
  const done = main(argv, {
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    signal: controller.signal,
  });
  try {
    for (let i = 0; i < 400 && !out.join('').includes(ready); i++)
      await new Promise((r) => setTimeout(r, 25));
    await use(out.join(''));
  } finally {
    controller.abort();
    expect(await done, out.join('')).toBe(0);
  }
  return out.join('');
}

describe('cca-kit record and import', () => {
  it('record writes a scrubbed HAR; import turns it into a data file the mock serves with fresh keys', async () => {
    const har = join(dir, 's.har');
    const data = join(dir, 'data.json');
    const output = await running(
      ['record', '--target', live.url, '--out', har, '--port', '0'],
      'proxy on',
      async (out) => {
        const proxy = /proxy on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] ?? '';
        const page = await (await fetch(`${proxy}/v0/action/list`, { headers: { 'x-api-key': key } })).json();
        const id = String(at(page, 'data', 0, 'actionId'));
        expect(
          (await fetch(`${proxy}/v0/action/${encodeURIComponent(id)}`, { headers: { 'x-api-key': key } }))
            .status,
        ).toBe(200);
      },
    );
    expect(output).toContain('2 exchange(s) written');
    expect(readFileSync(har, 'utf8')).not.toContain(key);

    const out: string[] = [];
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => out.push(t),
      signal: AbortSignal.abort(),
    };
    expect(await main(['import', '--from', har, '--out', data], io), out.join('')).toBe(0);
    const file = JSON.parse(readFileSync(data, 'utf8')) as unknown;
    expect(list(file, 'organizations').map((o) => at(o, 'id'))).toEqual(['org_acme']);
    const keys = list(file, 'keys');
    expect(keys.map((k) => at(k, 'profile'))).toEqual(['reporting', 'write', 'read_write', 'import']);
    expect(JSON.stringify(keys)).not.toContain(key);

    await running(['mock', '--port', '0', '--data', data], 'Press Ctrl+C', async (banner) => {
      expect(banner).toContain(String(at(keys[0], 'key')));
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(banner)?.[1] ?? '';
      const listed = list(await (await fetch(`${url}/__mock/keys`)).json(), 'keys').map((k) => at(k, 'key'));
      expect(listed).toEqual(keys.map((k) => at(k, 'key')));
    });
  });

  it('import refuses a file that is not a HAR; record needs a target', async () => {
    const out: string[] = [];
    const io = {
      stdout: (t: string) => out.push(t),
      stderr: (t: string) => out.push(t),
      signal: AbortSignal.abort(),
    };
    const notHar = join(dir, 'x.har');
    await import('node:fs/promises').then((fs) => fs.writeFile(notHar, '{"log": {}}'));
    expect(await main(['import', '--from', notHar, '--out', join(dir, 'y.json')], io)).toBe(1);
    expect(out.join('')).toContain('log.entries is missing');
    expect(await main(['record', '--out', join(dir, 'z.har')], io)).toBe(2);
    expect(
      await main(['record', '--target', 'ftp://x', '--out', join(dir, 'z.har'), '--port', '0'], io),
    ).toBe(2);
  });

  it('bounds: exchanges beyond --max-exchanges and bodies beyond the limit are proxied, not recorded', async () => {
    const out = join(dir, 'bounded.har');
    const recorder = await startRecorder({ target: live.url, out, maxExchanges: 1, maxBodyBytes: 2048 });
    const headers = { 'x-api-key': key };
    const big = await fetch(`${recorder.url}/v0/action/list?pageSize=50`, { headers });
    expect(big.status).toBe(200);
    expect(list(await big.json(), 'data').length).toBeGreaterThan(0);
    expect((await fetch(`${recorder.url}/v0/agents`, { headers })).status).toBe(200);
    const tooBig = await fetch(`${recorder.url}/v0/ingest/records`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ pad: 'x'.repeat(4096) }),
    });
    expect(tooBig.status).toBe(413);
    const result = await recorder.stop();
    expect(result).toMatchObject({ ok: true, exchanges: 1, skipped: 1 });
    const har = JSON.parse(readFileSync(out, 'utf8')) as unknown;
    expect(at(har, 'log', 'entries', 0, 'response', 'content', 'text')).toBeUndefined();
    expect(String(at(har, 'log', 'entries', 0, 'response', 'content', 'comment'))).toContain('size limit');
  });
});
