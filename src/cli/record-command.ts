/** `cca-kit record`: a recording proxy writing a scrubbed HAR 1.2 file (docs/recording.md). */
import { readFile } from 'node:fs/promises';
import { DEFAULT_SCRUB_RULES, type ScrubRules } from '../har/scrub.ts';
import { startRecorder } from '../record/recorder.ts';
import { integerFlag, parseFlags } from './flags.ts';
import { type CliIo, type Command, UsageError } from './io.ts';

const USAGE = `Usage: cca-kit record --target <url> --out <file.har> [options]

Point a client (an app, cca-kit conform, curl) at the printed URL instead of the target; every
exchange is forwarded and recorded, scrubbed before anything is written. Ctrl+C stops and writes.

Options:
  --target <url>          the deployment to record (http or https, with its path prefix if any)
  --out <file.har>        where to write the HAR 1.2 file
  --port <n>              port of the proxy on 127.0.0.1 (default 4020; 0 picks a free one)
  --rules <file.json>     scrub rules: {"values": [JSON paths], "emails": [...], "text": [...]},
                          added to the defaults (docs/recording.md)
  --keep-text             keep free text (titles, summaries, messages); names and ids are still scrubbed
  --max-exchanges <n>     record at most n exchanges (default 10000; later ones are only proxied)
  --max-body-bytes <n>    largest body recorded (default 8388608; larger ones are only proxied)
  -h, --help              show this help`;

const strings = (value: unknown, name: string): string[] => {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  throw new UsageError(`--rules: ${name} must be an array of JSON path strings`);
};

async function rulesFrom(path: string | undefined, keepText: boolean): Promise<ScrubRules> {
  if (path === undefined) return { ...DEFAULT_SCRUB_RULES, keepText };
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (cause) {
    throw new UsageError(`--rules ${path}: ${(cause as Error).message}`);
  }
  const record = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  return {
    values: [...DEFAULT_SCRUB_RULES.values, ...strings(record['values'], 'values')],
    emails: [...DEFAULT_SCRUB_RULES.emails, ...strings(record['emails'], 'emails')],
    text: [...DEFAULT_SCRUB_RULES.text, ...strings(record['text'], 'text')],
    keepText,
  };
}

export const recordCommand: Command = {
  name: 'record',
  summary: 'record a live deployment through a scrubbing proxy into a HAR file',
  usage: USAGE,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = parseFlags(argv, {
      target: { type: 'string' },
      out: { type: 'string' },
      port: { type: 'string' },
      rules: { type: 'string' },
      'keep-text': { type: 'boolean' },
      'max-exchanges': { type: 'string' },
      'max-body-bytes': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (values.target === undefined) throw new UsageError('--target is required');
    if (values.out === undefined) throw new UsageError('--out is required');
    let recorder: Awaited<ReturnType<typeof startRecorder>>;
    try {
      recorder = await startRecorder({
        target: values.target,
        out: values.out,
        port: integerFlag('port', values.port, { max: 65_535 }) ?? 4020,
        rules: await rulesFrom(values.rules, values['keep-text'] === true),
        maxExchanges: integerFlag('max-exchanges', values['max-exchanges'], { max: 1_000_000 }) ?? 10_000,
        maxBodyBytes:
          integerFlag('max-body-bytes', values['max-body-bytes'], { max: 256 * 1024 * 1024 }) ??
          8 * 1024 * 1024,
      });
    } catch (cause) {
      if (cause instanceof RangeError) throw new UsageError(cause.message);
      throw cause;
    }
    io.stdout(
      `cca-kit record: proxy on ${recorder.url} -> ${values.target}\n  writing ${values.out} when stopped (Ctrl+C)\n`,
    );
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    const result = await recorder.stop();
    if (!result.ok) {
      io.stderr(`cca-kit record: ${result.reason}\n`);
      return 1;
    }
    io.stdout(
      `cca-kit record: ${result.exchanges} exchange(s) written to ${result.path}${result.skipped > 0 ? ` (${result.skipped} more proxied, not recorded)` : ''}; no key or scrubbed value left in it\n`,
    );
    return 0;
  },
};
