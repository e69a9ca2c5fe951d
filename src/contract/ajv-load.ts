/**
 * ajv and ajv-formats, loaded when the first validator that was not compiled ahead of time compiles.
 * The published entry points hold every validator of contract/openapi.json as plain code (see
 * ./precompiled.ts), so `import('cca-kit/msw')` and `cca-kit mock` never load ajv's compiler (~40 ms
 * of CommonJS modules) unless something compiles a schema at run time (`compileAll`, a custom contract).
 * Both are CommonJS, so `require` loads them synchronously, which keeps validator creation synchronous.
 * Only the built precompiled module (scripts/build.js) exports this loader; a browser bundle never
 * reaches it (its precompiled variant compiles into closures: ./schema-closures/), and running from
 * source imports ajv directly.
 */
import { createRequire } from 'node:module';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type formatsModule from 'ajv-formats';

export interface AjvModules {
  readonly Ajv2020: typeof Ajv2020;
  readonly addFormats: typeof formatsModule.default;
}

let loaded: AjvModules | undefined;

export function loadAjv(): AjvModules {
  if (loaded !== undefined) return loaded;
  const require = createRequire(import.meta.url);
  const ajv = require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
  const formats = require('ajv-formats') as typeof formatsModule;
  loaded = { Ajv2020: ajv.Ajv2020, addFormats: formats.default };
  return loaded;
}
