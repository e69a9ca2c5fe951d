/**
 * The contract, loaded once. A JSON import with an import attribute (no `fs`), so the same module works
 * in node, under tsx and vitest, and in a browser bundle.
 */
import type { OpenAPIV3_1 } from 'openapi-types';
import document from '../../contract/openapi.json' with { type: 'json' };
import type { Platform } from './types.ts';

/** `contract/openapi.json`, typed. Treat it as read-only: every validator is compiled from it. */
export const contractDocument: OpenAPIV3_1.Document = document as unknown as OpenAPIV3_1.Document;

/**
 * The source-platform enum of the ingestion batch (spec 4.17), in contract order: the one list of
 * platforms that the fixtures, the arbitraries and the mock use.
 */
export const PLATFORMS: readonly Platform[] = document.components.schemas.Platform.enum as Platform[];
