/**
 * `cca-kit/vitest` in a consumer's own vitest run: a fresh project whose node_modules holds the built
 * package (dist/ and package.json, as an install lays it out) and this repository's dependencies, a setup
 * file calling `setupMock({ resetEachTest: true })`, and four tests. The nested run must name exactly the
 * test that sent `page=2` as failed, with LIST-NO-PAGE-INPUT and the line of the test that sent it, pass
 * the others, and start each test from a reset mock.
 */
import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scaled } from './support/timeouts.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const SETUP = `import { setupMock } from 'cca-kit/vitest';
setupMock({ resetEachTest: true });
`;

const SPEC = `import { seededKey } from 'cca-kit/msw';
import { mock } from 'cca-kit/vitest';
import { expect, it } from 'vitest';

const headers = () => ({ 'X-API-Key': seededKey() });

async function listPage(page: number) {
  return fetch(\`https://api.example.test/v0/action/list?pageSize=5&page=\${page}\`, { headers: headers() });
}

it('reads the first page', async () => {
  const res = await fetch('https://api.example.test/v0/action/list?pageSize=5', { headers: headers() });
  expect(res.status).toBe(200);
});

it('lists the second page of actions', async () => {
  const res = await listPage(2);
  expect(res.status).toBe(200); // the service ignores page: only the violation log can tell
});

it('revokes the seeded key', async () => {
  mock().admin.revokeKey(seededKey());
  const res = await fetch('https://api.example.test/v0/agents', { headers: headers() });
  expect(res.status).toBe(401);
});

it('finds the seeded key working again (the mock was reset)', async () => {
  const res = await fetch('https://api.example.test/v0/agents', { headers: headers() });
  expect(res.status).toBe(200);
});
`;

const CONFIG = `export default { test: { include: ['*.test.ts'], setupFiles: ['./setup.ts'], pool: 'forks', maxWorkers: 1 } };
`;

interface AssertionResult {
  readonly title: string;
  readonly status: string;
  readonly failureMessages: readonly string[];
}

let project = '';

beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'cca-vitest-preset-'));
  const modules = join(project, 'node_modules');
  mkdirSync(modules);
  // The package as installed: its own folder with package.json and dist/ (so node, not vite, loads it,
  // as from a registry); its dependencies and vitest itself this repository's.
  for (const name of readdirSync(join(ROOT, 'node_modules'))) {
    if (name === '.bin' || name === 'cca-kit' || name.startsWith('.')) continue;
    symlinkSync(join(ROOT, 'node_modules', name), join(modules, name));
  }
  cpSync(join(ROOT, 'dist'), join(modules, 'cca-kit/dist'), {
    recursive: true,
    filter: (source) => !source.includes(`${join(ROOT, 'dist/cli')}`),
  });
  cpSync(join(ROOT, 'package.json'), join(modules, 'cca-kit/package.json'));
  writeFileSync(join(project, 'setup.ts'), SETUP);
  writeFileSync(join(project, 'list.test.ts'), SPEC);
  writeFileSync(join(project, 'vitest.config.mjs'), CONFIG);
});

afterAll(() => {
  if (project !== '') rmSync(project, { recursive: true, force: true });
});

describe('cca-kit/vitest in a nested vitest run', () => {
  it(
    'LIST-NO-PAGE-INPUT: fails exactly the test that sent page=2, by name, at its line; the others pass on a reset mock',
    () => {
      const report = join(project, 'report.json');
      const run = spawnSync(
        process.execPath,
        [
          join(ROOT, 'node_modules/vitest/vitest.mjs'),
          'run',
          '--root',
          project,
          '--reporter=default',
          '--reporter=json',
          `--outputFile.json=${report}`,
        ],
        {
          cwd: project,
          encoding: 'utf8',
          env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' },
          timeout: scaled(50_000),
        },
      );
      const output = `${run.stdout}\n${run.stderr}`;
      expect(run.status, output).toBe(1);
      const results = (
        JSON.parse(readFileSync(report, 'utf8')) as {
          testResults: { assertionResults: AssertionResult[] }[];
        }
      ).testResults.flatMap((file) => file.assertionResults);
      expect(results.map((r) => [r.title, r.status])).toEqual([
        ['reads the first page', 'passed'],
        ['lists the second page of actions', 'failed'],
        ['revokes the seeded key', 'passed'],
        ['finds the seeded key working again (the mock was reset)', 'passed'],
      ]);
      const failure = results[1]?.failureMessages.join('\n') ?? '';
      expect(failure).toContain('ViolationError');
      expect(failure).toContain('LIST-NO-PAGE-INPUT');
      expect(failure).toContain('deduplicate on actionId');
      // The failure is the test's own, not an error of the run pinned on nobody.
      expect(output).toContain('FAIL  list.test.ts > lists the second page of actions');
      expect(output).not.toMatch(/Unhandled|Errors\s+\d+ error/);
      // Its stack points at the test's source: the line that called fetch and the test that called it.
      expect(output).toMatch(/❯ listPage list\.test\.ts:8:\d+/);
      expect(output).toMatch(/❯ list\.test\.ts:17:\d+/);
    },
    scaled(60_000),
  );
});
