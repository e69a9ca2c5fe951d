export type { AimedCase, AimedOptions, Constraint } from './aimed.ts';
export { aimedArbitrary, aimedCases, aimedQueryCases } from './aimed.ts';
export type { IngestionBatchOptions, ModerationSubmissionOptions, Window, WindowOptions } from './domain.ts';
export {
  bigIdString,
  boundInstant,
  INGESTION_PLATFORMS,
  ingestionBatch,
  leadingZeroId,
  moderationSubmission,
  nestedWindows,
  text,
  trickyId,
  unicodeId,
  window,
} from './domain.ts';
export type { FromSchemaOptions } from './from-schema.ts';
export { arbitraryFromSchema, exampleFromSchema } from './from-schema.ts';
export type { JsonSchema, RefResolver, SchemaObject } from './json-schema.ts';
export { deref, typesOf } from './json-schema.ts';
