import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentSays, scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import { main } from '../src/cli/main.ts';
import { at, list } from './data-support.ts';

const dir = mkdtempSync(join(tmpdir(), 'cca-data-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, value: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

const first = scenario()
  .organization('org_cli', { moderationMode: 'ad_policy' })
  .queue({ id: 'q1', name: 'Front desk' })
  .action({
    actionId: '9007199254740993',
    queue: 'q1',
    messages: [userSays('Hi', '-1d'), agentSays('Hello', '-23h')],
  })
  .build();
// A second file may refer to what the first defined.
const second = scenario()
  .organization('org_cli')
  .action({ actionId: '0000042', queue: 'q1', messages: [userSays('Again', '-2h'), agentSays('Yes', '-1h')] })
  .build();

/** Runs `cca-kit mock` until it prints its banner, calls `use`, then stops it. */
async function withMock(argv: string[], use: (url: string, banner: string) => Promise<void>): Promise<void> {
  const out: string[] = [];
  const controller = new AbortController();
  const running = main(['mock', '--port', '0', '--clock', 'frozen', ...argv], {
    stdout: (t) => out.push(t),
    stderr: (t) => out.push(t),
    signal: controller.signal,
  });
  try {
    for (let i = 0; i < 400 && !out.join('').includes('Press Ctrl+C'); i++)
      await new Promise((r) => setTimeout(r, 25));
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out.join(''))?.[1];
    expect(url, out.join('')).toBeDefined();
    await use(url ?? '', out.join(''));
  } finally {
    controller.abort();
    expect(await running).toBe(0);
  }
}

describe('cca-kit mock --data', () => {
  it('serves the files alone (repeatable), prints and lists their keys', async () => {
    await withMock(
      ['--data', write('a.json', first), '--data', write('b.json', second)],
      async (url, banner) => {
        const keys = list(await (await fetch(`${url}/__mock/keys`)).json(), 'keys');
        expect(new Set(keys.map((k) => at(k, 'organizationId')))).toEqual(new Set(['org_cli']));
        const reporting = String(
          at(
            keys.find((k) => at(k, 'profile') === 'reporting'),
            'key',
          ),
        );
        expect(banner).toContain('Loaded API keys');
        expect(banner).toContain(reporting);
        const page = await (
          await fetch(`${url}/v0/action/list`, { headers: { 'x-api-key': reporting } })
        ).json();
        expect(list(page, 'data').map((a) => at(a, 'actionId'))).toEqual(['0000042', '9007199254740993']);
      },
    );
  });

  it('with --seed adds the generated set under the files', async () => {
    await withMock(['--data', write('c.json', first), '--seed', '7', '--actions', '20'], async (url) => {
      const orgs = list(await (await fetch(`${url}/__mock/organizations`)).json(), 'organizations');
      expect(orgs.map((o) => at(o, 'id'))).toEqual(['org_acme', 'org_globex', 'org_cli']);
    });
  });

  it('exits non-zero listing every problem of a bad file, by JSON pointer', async () => {
    const out: string[] = [];
    const bad = { ...first, actions: [{ ...first.actions?.[0], queue: 'q_missing', platform: 'MYSPACE' }] };
    const code = await main(['mock', '--port', '0', '--data', write('bad.json', bad)], {
      stdout: (t) => out.push(t),
      stderr: (t) => out.push(t),
      signal: AbortSignal.abort(),
    });
    expect(code).toBe(1);
    expect(out.join('')).toContain('/actions/0/platform');
    const refs = { ...first, actions: [{ ...first.actions?.[0], queue: 'q_missing' }, first.actions?.[0]] };
    const out2: string[] = [];
    const code2 = await main(['mock', '--port', '0', '--data', write('refs.json', refs)], {
      stdout: (t) => out2.push(t),
      stderr: (t) => out2.push(t),
      signal: AbortSignal.abort(),
    });
    expect(code2).toBe(1);
    expect(out2.join('')).toContain('/actions/0/queue: no queue "q_missing"');
    expect(out2.join('')).toContain('/actions/1/actionId');
    const out3: string[] = [];
    expect(
      await main(['mock', '--data', write('broken.json', '{"version": 1,')], {
        stdout: (t) => out3.push(t),
        stderr: (t) => out3.push(t),
        signal: AbortSignal.abort(),
      }),
    ).toBe(1);
    expect(out3.join('')).toContain('not JSON');
  });
});
