/**
 * The validators of contract/openapi.json compiled ahead of time, or undefined. Running from source
 * (tsx, vitest, a browser bundle) there are none, and each validator compiles at first use; the CLI's
 * bundle replaces this module with one that loads those ./precompile.ts generated (bin/bundle-cache.js).
 */
import type { PrecompiledValidators } from './validators.ts';

export const precompiledValidators: PrecompiledValidators | undefined = undefined;
