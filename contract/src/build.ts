/**
 * Writes contract/openapi.json from the pieces in this folder, then the `operations` of every rule of
 * contract/rules.json that names its class in `operationsOf` from that document: `npm run contract:build`.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { OpenAPIV3_1 } from 'openapi-types';
import { deriveRuleOperations } from '../../src/contract/rule-operations.ts';
import { buildDocument } from './document.ts';

export const CONTRACT_PATH = fileURLToPath(new URL('../openapi.json', import.meta.url));
export const RULES_PATH = fileURLToPath(new URL('../rules.json', import.meta.url));

export const serialiseDocument = (): string => `${JSON.stringify(buildDocument(), null, 2)}\n`;

/** contract/rules.json as it is, with the derived `operations` written from `document`. */
export function derivedRules(document: OpenAPIV3_1.Document): unknown {
  return deriveRuleOperations(JSON.parse(readFileSync(RULES_PATH, 'utf8')), document);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const document = serialiseDocument();
  writeFileSync(CONTRACT_PATH, document);
  console.log(`wrote ${CONTRACT_PATH}`);
  writeFileSync(RULES_PATH, `${JSON.stringify(derivedRules(JSON.parse(document)), null, 2)}\n`);
  // The catalog is hand-edited around the derived arrays: keep it in the layout biome checks.
  const biome = fileURLToPath(new URL('../../node_modules/.bin/biome', import.meta.url));
  const formatted = spawnSync(biome, ['format', '--write', RULES_PATH], { stdio: 'inherit' });
  if (formatted.status !== 0) process.exit(formatted.status ?? 1);
  console.log(`wrote ${RULES_PATH}`);
}
