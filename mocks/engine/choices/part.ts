/** The permitted variations as an engine part (`../parts.ts`). */
import type { ChoicesPart } from '../parts.ts';
import { renameDocsPathParams } from './docs-path-params.ts';
import { normalizeChoices } from './index.ts';
import { shapeRequest } from './request.ts';
import { shapeResult } from './result.ts';

export const choicesPart: ChoicesPart = {
  normalize: normalizeChoices,
  shapeRequest,
  shapeResult,
  renameDocsPathParams,
};
