/**
 * What the engine loads at start and at every reset: the generated set (or not) and the data files on
 * top of it. Kept apart from the loader (`load-baseline.ts`) so an engine without the data-file part
 * (`../parts.ts`) still knows its baseline without carrying the loader.
 */
import type { Dataset } from '../../../fixtures/generate/types.ts';
import type { DataFile } from './types.ts';

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
