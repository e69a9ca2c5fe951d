/**
 * The CLI users run is the bundle scripts/build.js writes to dist/cli/ (bin/cca-kit.js loads it). Its
 * modules find files next to their original place in dist/ (the execute sandbox's worker, the skills'
 * playbooks, the agent guide): this drives the installed-shape CLI over stdio through the SDK client and
 * uses each of them. `npm test` builds before vitest runs.
 */
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../mocks/engine/index.ts';
import { ROOT } from './support/processes.ts';
import { scaled } from './support/timeouts.ts';

describe('the bundled CLI (dist/cli/ through bin/cca-kit.js)', () => {
  it(
    'serves skills read from their playbooks and runs execute in the sandbox worker',
    async () => {
      const key = createEngine({ seed: 42, actions: 50 })
        .admin.listKeys('org_acme')
        .find((k) => k.profile === 'read_write' && k.status === 'active')?.key;
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [`${ROOT}bin/cca-kit.js`, 'mcp', '--stdio', '--seed', '42', '--actions', '50'],
        cwd: ROOT,
        env: { ...process.env, CCA_API_KEY: key ?? '' } as Record<string, string>,
        stderr: 'pipe',
      });
      const client = new Client({ name: 'bundle-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        const listed = await client.callTool({ name: 'list_skills', arguments: {} });
        const skills = (listed.structuredContent as { skills: { name: string }[] }).skills;
        expect(skills.length).toBeGreaterThan(0);
        const read = await client.callTool({ name: 'read_skill', arguments: { name: skills[0]?.name } });
        expect(read.isError ?? false).toBe(false);
        expect((read.structuredContent as { text: string }).text.length).toBeGreaterThan(100);
        const ran = await client.callTool({ name: 'execute', arguments: { script: 'return 6 * 7;' } });
        expect(ran.isError ?? false, JSON.stringify(ran.structuredContent)).toBe(false);
        expect((ran.structuredContent as { result: unknown }).result).toBe(42);
      } finally {
        await client.close();
      }
    },
    scaled(60_000),
  );
});
