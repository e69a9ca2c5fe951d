/**
 * The data operations of the admin API, typed and callable without HTTP (MSW's `admin`, tests):
 * export the state, replace everything with a file, merge a file. A refused file changes nothing;
 * the outcome lists its problems.
 */
import type { CommandTarget } from '../commands/target.ts';
import { applyDataFile, existingStateOf } from './apply.ts';
import { exportDataFile } from './export.ts';
import { withKeyHashes } from './key-hashes.ts';
import { NOTHING_EXISTS } from './references.ts';
import type { DataFile, DataLoadOutcome } from './types.ts';
import { checkDataFile } from './validate.ts';

export type { DataLoadOutcome } from './types.ts';

export interface DataAdmin {
  /** The current state as a data file (`GET /__mock/data`). */
  exportData(): DataFile;
  /** Everything replaced by `file`, started over at the clock's start (`PUT /__mock/data`). */
  replaceData(file: unknown): DataLoadOutcome;
  /** `file` merged into the running state, and loaded again by every reset (`POST /__mock/data`). */
  mergeData(file: unknown): DataLoadOutcome;
}

const loaded = (file: DataFile): DataLoadOutcome => ({
  ok: true,
  organizations: file.organizations.length,
  actions: file.actions?.length ?? 0,
});

/**
 * @example
 * const data = createDataAdmin(host);
 * const outcome = data.mergeData(scenario().organization('org_acme').action({ title: 'New' }).build());
 * if (!outcome.ok) console.error(outcome.problems);
 */
export function createDataAdmin(host: CommandTarget): DataAdmin {
  return {
    exportData: () => exportDataFile(host.state),
    replaceData(given) {
      // The baseline keeps the file (and a snapshot the baseline): by hash only.
      const value = withKeyHashes(given, host.state.keys.values);
      const check = checkDataFile(value, NOTHING_EXISTS, host.clock.start);
      if (!check.ok) return check;
      host.state.loaded.generated = false;
      host.state.loaded.files = [check.file];
      host.reset();
      return loaded(check.file);
    },
    mergeData(given) {
      const state = host.state;
      const value = withKeyHashes(given, state.keys.values);
      const anchor = host.clock.now();
      const check = checkDataFile(value, existingStateOf(state), anchor);
      if (!check.ok) return check;
      applyDataFile(state, check.file, anchor);
      state.loaded.files.push(check.file);
      return loaded(check.file);
    },
  };
}
