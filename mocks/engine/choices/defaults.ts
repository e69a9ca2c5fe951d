/**
 * Every choice point at its default, spelled out rather than derived from `CHOICE_POINTS`: an engine
 * without the choices part (`../parts.ts`, a page's bundle) needs these values but not the points'
 * prose and shaping code. `choices.test.ts` holds this object to the points' `default`s.
 */
import type { Choices } from '../../../src/contract/choice-points.ts';

export const DEFAULT_CHOICES: Choices = {
  validationStatus: '422',
  noAdPolicyStatus: '403',
  filterKeys: 'all',
  unknownFilterKey: '400',
  docsPathParams: 'contract',
  actionStatuses: 'contract',
  durationFormat: 'iso8601',
  rowShapes: 'contract',
  moderationTimings: 'default',
  totalRecordsCap: '10000',
  tagLimitMax: 'none',
  errorMessages: 'descriptive',
  nestedIncompleteCode: 'incomplete',
  moderationInputStatus: 'split',
};
