/**
 * Loads the baseline (`./data-baseline.ts`: what the engine loads at start and at every reset) into a
 * fresh state: the data files on top of the generated set (or none), in order. `PUT /__mock/data`
 * makes its file the whole baseline; `POST /__mock/data` appends its file; so `POST /__mock/reset`
 * returns to what was loaded.
 */
import type { EngineState } from '../state.ts';
import { applyDataFile, existingStateOf } from './apply.ts';
import type { DataBaseline } from './data-baseline.ts';
import { checkDataFile, DataFileError } from './validate.ts';

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
