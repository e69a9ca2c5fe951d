/**
 * What the engine loads at start and at every reset: the generated set (or not) and the data files
 * on top of it, in order. `PUT /__mock/data` makes its file the whole baseline; `POST /__mock/data`
 * appends its file; so `POST /__mock/reset` returns to what was loaded.
 */
import type { Dataset } from '../../../fixtures/generate/types.ts';
import type { EngineState } from '../state.ts';
import { applyDataFile, existingStateOf } from './apply.ts';
import type { DataFile } from './types.ts';
import { checkDataFile, DataFileError } from './validate.ts';

export class DataBaseline {
  /** Whether the seeded set lies under the files. */
  generated: boolean;
  files: DataFile[];

  constructor(generated: boolean, files: readonly DataFile[]) {
    this.generated = generated;
    this.files = [...files];
  }
}

/** A data set with no organization, for an engine that serves data files only. */
export function emptyDataset(seed: number | string, anchor: number): Dataset {
  return { seed: String(seed), anchor, organizations: [], keys: [], keyExpiryDays: new Map(), orgs: [] };
}

/**
 * Checks and applies every file of the baseline to a freshly built state. Throws a `DataFileError`
 * listing the problems of the first file refused.
 */
export function loadBaseline(state: EngineState, baseline: DataBaseline, anchor: number): void {
  baseline.files.forEach((file, i) => {
    const check = checkDataFile(file, existingStateOf(state), anchor);
    if (!check.ok)
      throw new DataFileError(check.problems, baseline.files.length > 1 ? `data file ${i + 1}` : 'data file');
    applyDataFile(state, check.file, anchor);
  });
}
