/**
 * `cca-kit mcp --stdio` from the sources, for the stdio tests: the node arguments that run the CLI
 * through tsx, a seeded key of org_acme, and an SDK client transport with its stderr collected.
 */
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createEngine } from '../../mocks/engine/index.ts';
import { ROOT } from './processes.ts';

const RUN_CLI = `import('./src/cli/main.ts').then(async (m) => { process.exitCode = await m.main(process.argv.slice(1)); })`;
/** `node` arguments that run `src/cli/main.ts`; the CLI's own arguments follow. */
export const CLI_ARGS = ['--import', 'tsx', '--input-type=module', '-e', RUN_CLI, '--'];

/** The active seeded key of org_acme with this profile (seed 42). */
export function seededKey(profile: string): string {
  const key =
    createEngine({ seed: 42, actions: 50 })
      .admin.listKeys('org_acme')
      .find((k) => k.profile === profile && k.status === 'active')?.key ?? undefined;
  if (key === undefined) throw new Error(`no ${profile} key`);
  return key;
}

/**
 * An SDK transport that starts `cca-kit mcp --stdio --seed 42 --actions N` (default 50) with a
 * read-and-write key, and any further flags.
 */
export function stdioTransport(
  flags: readonly string[] = [],
  actions = 50,
): { transport: StdioClientTransport; stderr: () => string } {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...CLI_ARGS, 'mcp', '--stdio', '--seed', '42', '--actions', String(actions), ...flags],
    cwd: ROOT,
    env: { ...process.env, CCA_API_KEY: seededKey('read_write') } as Record<string, string>,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return { transport, stderr: () => stderr };
}
