/**
 * `cca-kit mcp --stdio`: the agent interface over stdin/stdout for desktop agent clients that launch a
 * command. It starts its own engine (the same --seed/--actions/--clock as `cca-kit mock`), takes the key
 * from `CCA_API_KEY`, and writes nothing but MCP protocol on stdout: every human message goes to
 * stderr. `--list-keys` and `--list-tools` print to stdout and exit (no protocol then).
 */
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { LLMS_TXT_PATH } from '../../mocks/agent/docs-host/index.ts';
import { createAgentServer } from '../../mocks/agent/server/agent-server.ts';
import { authenticateKey } from '../../mocks/agent/server/identity.ts';
import { createStdioWire } from '../../mocks/agent/server/stdio-wire.ts';
import { CHOICE_NAMES, choiceValues, describeChoices } from '../../mocks/engine/choices/index.ts';
import { createEngine } from '../../mocks/engine/engine.ts';
import { startMockServer } from '../../mocks/http/server.ts';
import { agentContract } from '../contract/agent.ts';
import { choiceFlag } from './choice-flag.ts';
import { readDataFiles } from './data-flag.ts';
import { EXECUTE_FLAGS, EXECUTE_USAGE, sandboxOptionsFromFlags, textModeFromFlag } from './execute-flags.ts';
import { integerFlag, parseFlags } from './flags.ts';
import { type CliIo, type Command, formatTable, UsageError } from './io.ts';

export { EXECUTE_FLAGS, EXECUTE_USAGE, sandboxOptionsFromFlags } from './execute-flags.ts';

const USAGE = `Usage: cca-kit mcp --stdio [options]

Serves the agent interface (MCP tools) over stdin/stdout. The API key comes from the environment
variable CCA_API_KEY (a key of the engine this command starts: see --list-keys). Logs go to stderr.
Over HTTP the same tools are at <mock URL>/mcp while \`cca-kit mock\` runs.

Options:
  --stdio                serve MCP on stdin/stdout (required to serve)
  --seed <n>             seed of the generated data (default 42)
  --actions <n>          number of seeded actions (default 2000)
  --clock <real|frozen>  real time (default) or a frozen clock
  --data <file>          load a data file (docs/data-format.md); repeatable, as for cca-kit mock
  --choice <point=value> where the spec leaves a choice, as for cca-kit mock; repeatable. The agent
                         interface follows the points that concern what it shows (docs/contract.md,
                         "Where the spec is silent", last column). Points, default first:
${CHOICE_NAMES.map((n) => `                           ${n}: ${choiceValues(n).join(' | ')}`).join('\n')}
  --http-port <n|off>    loopback HTTP port of the same engine (default 0: any free port) serving the
                         reply confirmation page review_reply links to, the REST API and /__mock/
                         (admin); off: none, and review_reply has no link
  --docs-url <url>       the docs index URL the server instructions give the model (default: the
                         llms.txt of the loopback HTTP port above); for a host that proxies it
  --list-keys            print the engine's API keys and the tools each may use, then exit
  --list-tools           print the tools per key profile (contract/agent/tools.json), then exit
${EXECUTE_USAGE}
  -h, --help             show this help

Examples (a desktop client's server entry; docs/agent-interface.md "Desktop hosts"):
  a checkout:         { "command": "node", "args": ["/abs/path/cca-kit/bin/cca-kit.js", "mcp", "--stdio"],
                        "env": { "CCA_API_KEY": "<key>" } }
  an installed copy:  { "command": "npx", "args": ["--prefix", "/abs/dir", "cca-kit", "mcp", "--stdio"],
                        "env": { "CCA_API_KEY": "<key>" } }`;

/** The docs URL a host proxies: an absolute http(s) URL, or a usage error naming what is wrong. */
function docsUrlFlag(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--docs-url must be an absolute http(s) URL (got ${JSON.stringify(value)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--docs-url must be an http or https URL (got ${url.protocol})`);
  return url.href;
}

/** Resolves when stdin ends (the client went away) or the command is stopped. */
function untilDone(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener('abort', () => resolve(), { once: true });
    process.stdin.once('end', () => resolve());
    process.stdin.once('close', () => resolve());
  });
}

export const mcpCommand: Command = {
  name: 'mcp',
  summary: 'serve the agent interface (MCP tools) over stdio; the key comes from CCA_API_KEY',
  usage: USAGE,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = parseFlags(argv, {
      stdio: { type: 'boolean' },
      seed: { type: 'string' },
      actions: { type: 'string' },
      clock: { type: 'string' },
      data: { type: 'string', multiple: true },
      choice: { type: 'string', multiple: true },
      'http-port': { type: 'string' },
      'docs-url': { type: 'string' },
      'list-keys': { type: 'boolean' },
      'list-tools': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      ...EXECUTE_FLAGS,
    });
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const contract = agentContract();
    if (values['list-tools']) {
      io.stdout(
        `${formatTable(
          ['profile', 'tools'],
          Object.entries(contract.profiles).map(([profile, tools]) => [
            profile,
            tools.join(', ') || '(none)',
          ]),
        )}\n`,
      );
      return 0;
    }
    const clock = values.clock ?? 'real';
    if (clock !== 'real' && clock !== 'frozen')
      throw new UsageError(`--clock must be real or frozen (got ${clock})`);
    const dataPaths = values.data ?? [];
    const data = await readDataFiles(dataPaths);
    // As cca-kit mock: with data files, the generated set is there only when asked for.
    const generated = dataPaths.length === 0 || values.seed !== undefined || values.actions !== undefined;
    const choices = choiceFlag(values.choice);
    const engine = createEngine({
      ...(generated
        ? {
            seed: integerFlag('seed', values.seed) ?? 42,
            actions: integerFlag('actions', values.actions, { max: 1_000_000 }) ?? 2000,
          }
        : {}),
      ...(data.length === 0 ? {} : { data }),
      ...(choices === undefined ? {} : { choices }),
      clock,
    });
    const httpPort = values['http-port'] ?? '0';
    if (httpPort !== 'off' && !/^\d{1,5}$/.test(httpPort))
      throw new UsageError(`--http-port must be a port number or off (got ${httpPort})`);
    if (values['list-keys']) {
      io.stdout(
        `${formatTable(
          ['organization', 'profile', 'status', 'tools', 'key'],
          engine.admin
            .listKeys()
            .map((k) => [
              k.organizationId,
              k.profile,
              k.status,
              contract.profiles[k.profile].join(' '),
              k.key ?? `(given by hash) ${k.id}`,
            ]),
        )}\n`,
      );
      return 0;
    }
    const docsUrl = docsUrlFlag(values['docs-url']);
    if (values.stdio !== true) throw new UsageError('cca-kit mcp serves over stdio only: pass --stdio');

    const key = process.env['CCA_API_KEY'] ?? '';
    const checked = authenticateKey(engine, key === '' ? null : key);
    if (!checked.ok) {
      io.stderr(
        `cca-kit mcp: CCA_API_KEY ${key === '' ? 'is not set' : `was refused (${checked.reason})`}. Run \`cca-kit mcp --list-keys\` (same --seed) to see the keys.\n`,
      );
      return 2;
    }
    const sandbox = sandboxOptionsFromFlags(values);
    const text = textModeFromFlag(values.text);
    // One engine, two doors: stdio for the agent, loopback HTTP for the person who confirms a reply.
    const http =
      httpPort === 'off'
        ? undefined
        : await startMockServer({
            host: '127.0.0.1',
            port: integerFlag('http-port', httpPort, { max: 65_535 }) ?? 0,
            engine,
            agent: { sandbox, text },
          });
    const agent = createAgentServer(engine, { sandbox, text });
    const docsIndex = docsUrl ?? (http === undefined ? null : `${http.url}${LLMS_TXT_PATH}`);
    const wire = createStdioWire({
      onRefused: (code, message) =>
        io.stderr(`cca-kit mcp: answered a malformed line with ${code}: ${message}\n`),
    });
    const handle = serveStdio(() => agent.serverForKey(key, http?.url ?? null, docsIndex), {
      transport: wire,
      onerror: (error) => io.stderr(`cca-kit mcp: ${error.message}\n`),
    });
    if (http !== undefined)
      io.stderr(`cca-kit mcp: confirmation pages, REST and /__mock/ (admin) on ${http.url}\n`);
    io.stderr(
      `cca-kit mcp: serving on stdio for ${checked.identity.organizationId} (${checked.identity.profile} key "${checked.identity.keyName}"), tools: ${
        agent.tools
          .forIdentity(checked.identity)
          .map((t) => t.declaration.name)
          .join(', ') || '(none)'
      }${describeChoices(engine.options.choices)
        .map((c) => `, choice ${c}`)
        .join('')}\n`,
    );
    await untilDone(io.signal);
    await handle.close();
    await agent.close();
    await http?.close();
    return 0;
  },
};
