import type { OpenAPIV3_1 } from 'openapi-types';
import { buildOperationTable, createRouter, type Operation, type Router } from './operations.ts';
import { type CreateValidatorsOptions, createValidators, type Validators } from './validators.ts';

/**
 * A loaded contract: the document, its operation table, a router and the validators. Build one per
 * document; `cca-kit/contract` exports the one built from `contract/openapi.json`.
 */
export interface Contract extends Validators {
  readonly document: OpenAPIV3_1.Document;
  readonly operations: ReadonlyMap<string, Operation>;
  /** Maps a method and a (still percent-encoded) pathname to an operation. */
  readonly matchOperation: Router;
  /** The operation with this id; throws on an unknown id (a programming error). */
  getOperation(operationId: string): Operation;
}

/**
 * Builds the operation table and the router now; validators compile at first use, unless
 * `options.precompiled` has them.
 *
 * @example
 * const contract = createContract(document);
 * const match = contract.matchOperation('GET', '/v0/agents/a-1');
 * if (match.kind === 'match') contract.validateRequest(match.operation.operationId, { ... });
 */
export function createContract(document: OpenAPIV3_1.Document, options?: CreateValidatorsOptions): Contract {
  const operations = buildOperationTable(document);
  const validators = createValidators(document, operations, options);
  return {
    ...validators,
    document,
    operations,
    matchOperation: createRouter(operations.values()),
    getOperation(operationId) {
      const operation = operations.get(operationId);
      if (operation === undefined) throw new Error(`unknown operationId ${operationId}`);
      return operation;
    },
  };
}
