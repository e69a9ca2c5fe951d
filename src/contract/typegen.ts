/**
 * Generates `src/contract/types.generated.ts` from `contract/openapi.json` with openapi-typescript, plus
 * one friendly alias per component schema (`export type ActionSummary = components['schemas']['ActionSummary']`)
 * and the `OperationId` union, so neither list can drift from the contract.
 *
 * Run: `npm run typegen` (`npx tsx src/contract/typegen.ts`). A test regenerates in memory and fails when
 * the checked-in file differs.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3_1 } from 'openapi-types';
import openapiTS, { astToString } from 'openapi-typescript';
import { contractDocument } from './load.ts';

export const GENERATED_TYPES_PATH = fileURLToPath(new URL('./types.generated.ts', import.meta.url));

const HEADER = `/**
 * GENERATED from contract/openapi.json by src/contract/typegen.ts. Do not edit: run \`npm run typegen\`.
 */

`;

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Renders the generated module for a contract document. */
export async function generateTypes(document: OpenAPIV3_1.Document = contractDocument): Promise<string> {
  // openapi-typescript's input type is its own OpenAPI3 interface; the document is the same JSON.
  const ast = await openapiTS(structuredClone(document) as unknown as Parameters<typeof openapiTS>[0], {
    alphabetize: false,
    // A default makes a field optional, not required: the spec's "optional, default en" (2.7) is
    // optional for whoever builds a request, and a response may omit it too.
    defaultNonNullable: false,
  });
  const names = Object.keys(document.components?.schemas ?? {});
  const aliases = names
    .filter((name) => IDENTIFIER.test(name))
    .map((name) => `export type ${name} = components['schemas']['${name}'];`)
    .join('\n');
  const operationIds = Object.values(document.paths ?? {}).flatMap((item) =>
    Object.values(item ?? {}).flatMap((op) =>
      typeof op === 'object' && op !== null && 'operationId' in op && typeof op.operationId === 'string'
        ? [op.operationId]
        : [],
    ),
  );
  return `${HEADER}${astToString(ast)}
// Friendly aliases, one per component schema.
${aliases}

/** Every operationId of the contract. */
export type OperationId = ${operationIds.map((id) => `'${id}'`).join(' | ')};

/** The operationIds, as a runtime list in document order. */
export const OPERATION_IDS = [${operationIds.map((id) => `'${id}'`).join(', ')}] as const satisfies readonly OperationId[];
`;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  await writeFile(GENERATED_TYPES_PATH, await generateTypes());
  console.log(`wrote ${GENERATED_TYPES_PATH}`);
}
