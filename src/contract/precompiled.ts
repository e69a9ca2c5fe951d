/**
 * The validators of contract/openapi.json compiled ahead of time, or undefined. Running from source
 * (tsx, vitest) there are none, and each validator compiles at first use; the package build
 * (scripts/build.js) replaces the compiled dist/src/contract/precompiled.js with a module that holds
 * every validator as plain code, so the published entry points never evaluate generated code (a page
 * whose Content-Security-Policy forbids `unsafe-eval` can use them) and skip ajv's compilation.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsModule from 'ajv-formats';
import type { AjvModules } from './ajv-load.ts';

// The shape of validators.ts's `PrecompiledValidators`, written out: validators.ts reaches this module
// through validator-schemas.ts (loadAjv), so importing the type back would close a circle.
export const precompiledValidators: ((key: string) => ValidateFunction | undefined) | undefined = undefined;

/**
 * How a validator that is not precompiled gets ajv. From source, imported with this module (every
 * validator compiles at run time anyway, and a browser bundle of the source keeps working). The build's
 * replacement loads it at first use instead (./ajv-load.ts); its browser variant hands out the closure
 * compiler with ajv's interface (./schema-closures/), which generates no code.
 */
export const loadAjv = (): AjvModules => ({ Ajv2020, addFormats: formatsModule.default });
