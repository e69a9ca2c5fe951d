import { describe, expect, it } from 'vitest';
import { commands } from './commands.ts';
import type { CliIo } from './io.ts';
import { main } from './main.ts';

function capture(signal: AbortSignal = new AbortController().signal) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { stdout: (t) => out.push(t), stderr: (t) => err.push(t), signal };
  return { io, out: () => out.join(''), err: () => err.join('') };
}

describe('cca-kit CLI', () => {
  it('the lazy command table names each command as its module does', async () => {
    for (const [name, entry] of Object.entries(commands)) {
      const command = await entry.load();
      expect({ name: command.name, summary: command.summary }).toEqual({ name, summary: entry.summary });
    }
  });

  it('prints the commands on --help (exit 0) and without a command (exit 2)', async () => {
    const help = capture();
    expect(await main(['--help'], help.io)).toBe(0);
    expect(help.out()).toContain('mock');
    const none = capture();
    expect(await main([], none.io)).toBe(2);
  });

  it('rejects an unknown command and an unknown flag with exit 2 and a clear message', async () => {
    const unknown = capture();
    expect(await main(['mokc'], unknown.io)).toBe(2);
    expect(unknown.err()).toContain('unknown command "mokc"');
    const flag = capture();
    expect(await main(['mock', '--prot', '4010'], flag.io)).toBe(2);
    expect(flag.err()).toContain("Unknown option '--prot'");
    expect(flag.err()).toContain('Usage: cca-kit mock');
    const port = capture();
    expect(await main(['mock', '--port', '70000'], port.io)).toBe(2);
    expect(port.err()).toContain('--port must be an integer between 0 and 65535');
  });

  it('mock: starts, prints the base URL, Swagger UI and the seeded keys table, stops on the signal', async () => {
    const controller = new AbortController();
    const cli = capture(controller.signal);
    const running = main(
      [
        'mock',
        '--port',
        '0',
        '--actions',
        '50',
        '--self-check',
        '--moderation-latency',
        'instant',
        '--clock',
        'frozen',
      ],
      cli.io,
    );
    for (let i = 0; i < 200 && !cli.out().includes('Press Ctrl+C'); i++)
      await new Promise((r) => setTimeout(r, 25));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out())?.[1];
    expect(url).toBeDefined();
    expect(cli.out()).toContain(`Swagger UI   : ${url}/docs`);
    expect(cli.out()).toMatch(/organization\s+profile\s+status\s+key/);
    expect(cli.out()).toMatch(/org_acme\s+reporting\s+active\s+cca_/);
    expect(cli.out()).toMatch(/revoked/);
    const docs = await fetch(`${url}/docs/json`);
    expect(docs.status).toBe(200);
    controller.abort();
    expect(await running).toBe(0);
    expect(cli.out()).toContain('cca-kit mock stopped');
  });

  it('mock --no-answer-cache: the engine computes every read, and says so', async () => {
    const controller = new AbortController();
    const cli = capture(controller.signal);
    const running = main(['mock', '--port', '0', '--actions', '50', '--no-answer-cache'], cli.io);
    for (let i = 0; i < 200 && !cli.out().includes('Press Ctrl+C'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(cli.out()).toContain('answer cache off');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out())?.[1];
    const key = /org_acme\s+reporting\s+active\s+(cca_\S+)/.exec(cli.out())?.[1] ?? '';
    const list = await fetch(`${url}/v0/action/list?pageSize=2`, { headers: { 'x-api-key': key } });
    expect(list.status).toBe(200);
    controller.abort();
    expect(await running).toBe(0);
  });

  it('mock --choice point=value: the engine takes the choice and says so; a bad one is a usage error (exit 2)', async () => {
    const bad = capture();
    expect(await main(['mock', '--port', '0', '--choice', 'durationFormat=days'], bad.io)).toBe(2);
    expect(bad.err()).toContain('--choice: choice durationFormat must be one of iso8601, seconds, clock');
    const help = capture();
    expect(await main(['mock', '--help'], help.io)).toBe(0);
    expect(help.out()).toContain('noAdPolicyStatus: 403 | 400 | 409 | 422');
    const controller = new AbortController();
    const cli = capture(controller.signal);
    const running = main(
      [
        'mock',
        '--port',
        '0',
        '--actions',
        '50',
        '--choice',
        'docsPathParams=id',
        '--choice',
        'errorMessages=terse',
      ],
      cli.io,
    );
    for (let i = 0; i < 200 && !cli.out().includes('Press Ctrl+C'); i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(cli.out()).toContain('choice docsPathParams=id, choice errorMessages=terse');
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(cli.out())?.[1];
    const docs = (await (await fetch(`${url}/docs/json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(docs.paths)).toContain('/v0/actions/{id}/custom-fields');
    const refused = await fetch(`${url}/v0/agents`);
    expect(await refused.json()).toEqual({ success: false, error: 'Unauthorized' });
    controller.abort();
    expect(await running).toBe(0);
  });
});
