/**
 * TypeScript types of the contract: everything openapi-typescript generates (`paths`, `components`,
 * `operations`), one alias per component schema (`ActionSummary`, `ErrorBody`...), and `OperationId`.
 * The aliases are generated too (`npm run typegen`), so they cannot drift from the contract.
 */
import type { components } from './types.generated.ts';

export type * from './types.generated.ts';
export { OPERATION_IDS } from './types.generated.ts';

/** Name of a component schema of the contract. */
export type SchemaName = keyof components['schemas'];
