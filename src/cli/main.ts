/**
 * The `cca-kit` command line. `bin/cca-kit.js` imports the compiled `dist/src/cli/main.js` (built by
 * `npm run build`) and calls `main(process.argv.slice(2))`.
 *
 * @example
 * // npx cca-kit mock --port 4010 --seed 42
 * process.exitCode = await main(['mock', '--port', '4010']);
 */
import { commands } from './commands.ts';
import { type CliIo, UsageError } from './io.ts';

function overview(): string {
  const width = Math.max(...Object.keys(commands).map((n) => n.length));
  const lines = Object.values(commands).map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `Usage: cca-kit <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun cca-kit <command> --help for a command's options.\n`;
}

/** Process I/O: stdout/stderr, and a signal aborted on SIGINT or SIGTERM. */
function processIo(): CliIo {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    signal: controller.signal,
  };
}

/** Runs the CLI; resolves to the exit code (0 ok, 1 failure, 2 usage error). */
export async function main(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(overview());
    return name === undefined ? 2 : 0;
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (entry === undefined) {
    io.stderr(`cca-kit: unknown command ${JSON.stringify(name)}\n\n${overview()}`);
    return 2;
  }
  const command = await entry.load();
  try {
    return await command.run(rest, io);
  } catch (error) {
    const usage =
      error instanceof UsageError ||
      (error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS'));
    if (usage) {
      io.stderr(
        `cca-kit ${name}: ${error instanceof Error ? error.message : String(error)}\n\n${command.usage}\n`,
      );
      return 2;
    }
    io.stderr(`cca-kit ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  }
}
