/**
 * The validators of contract/openapi.json compiled ahead of time, or undefined. Running from source
 * (tsx, vitest) there are none, and each validator compiles at first use; the package build
 * (scripts/build.js) replaces the compiled dist/src/contract/precompiled.js with a module that holds
 * every validator as plain code, so the published entry points never evaluate generated code (a page
 * whose Content-Security-Policy forbids `unsafe-eval` can use them) and skip ajv's compilation.
 */
import type { PrecompiledValidators } from './validators.ts';

export const precompiledValidators: PrecompiledValidators | undefined = undefined;
