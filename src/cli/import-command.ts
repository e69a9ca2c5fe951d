/** `cca-kit import`: a recorded HAR file becomes a data file for `cca-kit mock --data` (docs/recording.md). */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { NOTHING_EXISTS } from '../../mocks/engine/data-file/references.ts';
import { checkDataFile, formatProblems } from '../../mocks/engine/data-file/validate.ts';
import { importHar } from '../import/from-har.ts';
import { parseHar } from '../import/read-har.ts';
import { parseFlags } from './flags.ts';
import { type CliIo, type Command, formatTable, UsageError } from './io.ts';

const USAGE = `Usage: cca-kit import --from <file.har> --out <data.json>

Turns the answers of a recording (cca-kit record) into a data file: actions from list, detail and
search answers merged by id, agents, queues, tags, custom fields, moderation cases. One organization
per recorded key, with fresh keys of every profile (recorded keys are never kept); what could not
be derived is listed in the file's "notes". Serve it with: cca-kit mock --data <data.json>

Options:
  --from <file.har>   the recording
  --out <data.json>   where to write the data file
  -h, --help          show this help`;

/** Largest HAR file read. */
const MAX_HAR_BYTES = 512 * 1024 * 1024;

export const importCommand: Command = {
  name: 'import',
  summary: 'turn a recorded HAR file into a data file for cca-kit mock --data',
  usage: USAGE,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = parseFlags(argv, {
      from: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    });
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (values.from === undefined) throw new UsageError('--from is required');
    if (values.out === undefined) throw new UsageError('--out is required');
    const size = (await stat(values.from)).size;
    if (size > MAX_HAR_BYTES) {
      io.stderr(`cca-kit import: ${values.from} is ${size} bytes, over the limit of ${MAX_HAR_BYTES}\n`);
      return 1;
    }
    const har = parseHar(await readFile(values.from, 'utf8'));
    if (typeof har === 'string') {
      io.stderr(`cca-kit import: ${values.from}: ${har}\n`);
      return 1;
    }
    const file = importHar(har);
    const check = checkDataFile(file, NOTHING_EXISTS, Date.now());
    if (!check.ok) {
      io.stderr(
        `cca-kit import: the data file built from the recording is not valid:\n${formatProblems(check.problems)}\n`,
      );
      return 1;
    }
    await writeFile(values.out, `${JSON.stringify(file, null, 2)}\n`);
    io.stdout(
      [
        `cca-kit import: ${file.actions?.length ?? 0} action(s), ${file.moderationCases?.length ?? 0} moderation case(s) of ${file.organizations.length} organization(s) written to ${values.out}`,
        'Fresh keys (the recorded ones are not kept):',
        formatTable(
          ['organization', 'profile', 'key'],
          (file.keys ?? []).map((k) => [k.organizationId, k.profile, k.key ?? k.keyHash]),
        ),
        ...(file.notes ?? []).map((n) => `note: ${n}`),
        '',
      ].join('\n'),
    );
    return 0;
  },
};
