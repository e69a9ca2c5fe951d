/** Writes contract/openapi.json from the pieces in this folder: `npm run contract:build`. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildDocument } from './document.ts';

export const CONTRACT_PATH = fileURLToPath(new URL('../openapi.json', import.meta.url));

export const serialiseDocument = (): string => `${JSON.stringify(buildDocument(), null, 2)}\n`;

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(CONTRACT_PATH, serialiseDocument());
  console.log(`wrote ${CONTRACT_PATH}`);
}
