/**
 * Stryker reporter that appends each mutant's result to a JSON-lines journal as soon as it is known
 * (CCA_MUTATION_JOURNAL; the entry carries what the result depends on: CCA_MUTATION_STAMP for the laws
 * and a hash of the mutated file). Stryker's
 * incremental file is written only when a run ends: the journal is what lets a run cut short resume.
 * Plain JavaScript: Stryker loads plugins with Node's own loader.
 */
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync } from 'node:fs';
import { declareClassPlugin, PluginKind } from '@stryker-mutator/api/plugin';

const fileHashes = new Map();
function fileHash(name) {
  let hash = fileHashes.get(name);
  if (hash === undefined) {
    hash = createHash('sha256').update(readFileSync(name)).digest('hex').slice(0, 12);
    fileHashes.set(name, hash);
  }
  return hash;
}

class ResultJournal {
  onMutantTested(result) {
    const file = process.env.CCA_MUTATION_JOURNAL;
    // What the sample's ignorer left out is no result: journalling it would only grow the file.
    if (!file || result.statusReason?.includes('seeded mutation sample')) return;
    const entry = {
      stamp: `${process.env.CCA_MUTATION_STAMP ?? ''}:${fileHash(result.fileName)}`,
      fileName: result.fileName,
      // As in Stryker's report: lines and columns from 1.
      location: result.location,
      mutatorName: result.mutatorName,
      replacement: result.replacement,
      status: result.status,
      statusReason: result.status === 'Killed' ? undefined : result.statusReason,
      killedBy: result.killedBy,
    };
    appendFileSync(file, `${JSON.stringify(entry)}\n`);
  }
}

export const strykerPlugins = [declareClassPlugin(PluginKind.Reporter, 'cca-journal', ResultJournal)];
