import type { Law } from '../../src/conformance/kit/law.ts';
import { ingestionInputs } from './inputs-ingestion.ts';
import {
  moderationBatchItemInputs,
  moderationBatchSize,
  moderationGenerated,
  moderationSingleInputs,
} from './inputs-moderation.ts';
import { fullFilterCombos, legacyFilters, listQuery, searchQuery } from './inputs-query.ts';

/** The `inputs` group: generated valid inputs must succeed, inputs aimed at a constraint must be refused. */
export const inputLaws: readonly Law[] = [
  listQuery,
  searchQuery,
  fullFilterCombos,
  legacyFilters,
  moderationSingleInputs,
  moderationGenerated,
  moderationBatchSize,
  moderationBatchItemInputs,
  ingestionInputs,
];
