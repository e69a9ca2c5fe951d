/** `cca-kit dashboard`: the dashboard's files for a page whose mock runs in the browser (docs/dashboard.md). */
import { join } from 'node:path';
import { writeDashboardFiles } from '../../mocks/http/dashboard/files.ts';
import { parseFlags } from './flags.ts';
import type { CliIo, Command } from './io.ts';
import { UsageError } from './io.ts';

const USAGE = `Usage: cca-kit dashboard --out <dir>

Writes the mock's dashboard as static files under <dir>/__mock/ (index.html and dashboard/), for an
app whose mock runs in the page (cca-kit/msw with setupWorker): put them in the folder your dev server
serves (Vite: public), then frame /__mock/index.html in the app. The service worker hands the frame's
calls to the page's mock, which answers the admin API at /__mock/ (list adminRoutes and journal in use).

Options:
  --out <dir>   the folder the dev server serves (created if missing)
  -h, --help    show this help`;

export const dashboardCommand: Command = {
  name: 'dashboard',
  summary: "write the dashboard's files for a page whose mock runs in the browser (MSW)",
  usage: USAGE,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const values = parseFlags(argv, { out: { type: 'string' }, help: { type: 'boolean', short: 'h' } });
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    if (values.out === undefined || values.out === '') throw new UsageError('--out is required');
    // A folder that cannot be made or written is the caller's to change: exit 2, naming it.
    const written = await writeDashboardFiles(values.out).catch((error: Error) => {
      throw new UsageError(`--out ${values.out}: ${error.message}`);
    });
    io.stdout(
      `cca-kit dashboard: ${written.length} files written under ${join(values.out, '__mock')}; frame /__mock/index.html in your app\n`,
    );
    return 0;
  },
};
