/**
 * `/__mock/data`: export the state as a data file (GET), replace everything with a file (PUT), merge
 * a file into the running state (POST). A file with any problem is refused whole with 422 and every
 * problem by JSON pointer; the running state is then untouched.
 *
 * A key the file gives by value is hashed before the command is made (`withKeyHashes`): the command
 * log, the snapshots and the exports hold only its hash.
 *
 * PUT and POST take bodies up to the data file cap (64 MiB), not the engine's `maxBodyBytes` (1 MiB by
 * default): an export of the generated set is about 6 MB, and what GET saves must load back.
 */
import type { DataAdmin, DataLoadOutcome } from '../data-file/admin-ops.ts';
import { exportDataFile } from '../data-file/export.ts';
import { withKeyHashes } from '../data-file/key-hashes.ts';
import { MAX_DATA_FILE_BYTES } from '../data-file/validate.ts';
import type { AdminHost } from './api.ts';
import type { AdminContext, AdminResult, AdminRoute } from './route.ts';
import { ok } from './route.ts';

function answer(outcome: DataLoadOutcome, mode: 'replace' | 'merge', ctx: AdminContext): AdminResult {
  if (!outcome.ok) {
    const n = outcome.problems.length;
    return {
      status: 422,
      body: {
        success: false,
        error: `the data file was refused (${n} problem${n === 1 ? '' : 's'}); nothing was loaded`,
        problems: outcome.problems,
      },
    };
  }
  const { ok: _ok, ...loaded } = outcome;
  return ok({ loaded, mode, clock: ctx.api.clock() });
}

/**
 * The typed data operations (`engine.admin` of MSW): export reads the state; replace and merge are
 * commands, applied like every other write.
 *
 * @example
 * const outcome = createDataCommands(host).mergeData(file);
 */
export function createDataCommands(host: Pick<AdminHost, 'state' | 'run'>): DataAdmin {
  return {
    exportData: () => exportDataFile(host.state),
    replaceData: (file) =>
      host.run({ type: 'data.replace', file: withKeyHashes(file, host.state.keys.values) }),
    mergeData: (file) => host.run({ type: 'data.merge', file: withKeyHashes(file, host.state.keys.values) }),
  };
}

export const dataAdminRoutes: readonly AdminRoute[] = [
  {
    method: 'GET',
    path: '/__mock/data',
    summary: 'Export the current state as a data file (docs/data-format.md)',
    handle: (ctx) => ok(exportDataFile(ctx.state)),
  },
  {
    method: 'PUT',
    path: '/__mock/data',
    maxBodyBytes: MAX_DATA_FILE_BYTES,
    summary:
      'Replace everything with a data file and start over (clock back to its start); 422 lists problems',
    handle: async (ctx) =>
      answer(
        await ctx.execute({ type: 'data.replace', file: withKeyHashes(ctx.body, ctx.state.keys.values) }),
        'replace',
        ctx,
      ),
  },
  {
    method: 'POST',
    path: '/__mock/data',
    maxBodyBytes: MAX_DATA_FILE_BYTES,
    summary: 'Merge a data file into the running state (the file wins on an id clash); 422 lists problems',
    handle: async (ctx) =>
      answer(
        await ctx.execute({ type: 'data.merge', file: withKeyHashes(ctx.body, ctx.state.keys.values) }),
        'merge',
        ctx,
      ),
  },
];
