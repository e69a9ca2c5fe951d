/**
 * ajv's options, read once into the settings ClosureAjv compiles with: ajv's defaults for the strict
 * options, and an error, naming it, for every option that would change what ajv reports in a way
 * ClosureAjv does not reproduce (it must never silently validate differently).
 */
import type { Options } from 'ajv/dist/2020.js';
import type { Settings } from './types.ts';

export const unsupported = (what: string) => new Error(`ClosureAjv does not support ${what}`);

const UNSUPPORTED_OPTIONS = [
  '$data',
  'coerceTypes',
  'useDefaults',
  'removeAdditional',
  'verbose',
  'ownProperties',
  'discriminator',
  'jtd',
  'multipleOfPrecision',
  'jsPropertySyntax',
  'passContext',
] as const;

export function settingsOf(o: Options): Settings {
  if (o.allErrors !== true) throw unsupported('allErrors other than true');
  for (const name of UNSUPPORTED_OPTIONS) if (o[name]) throw unsupported(`option ${name}`);
  if (o.messages === false || o.unicodeRegExp === false) throw unsupported('messages or unicodeRegExp false');
  // ajv's defaults: "log" (warn only) counts as not strict here.
  const on = (v: boolean | 'log' | undefined, fallback: boolean) => (v ?? o.strict ?? fallback) === true;
  return {
    strictSchema: on(o.strictSchema, true),
    strictTypes: on(o.strictTypes, false),
    strictTuples: on(o.strictTuples, false),
    strictRequired: on(o.strictRequired, false),
    strictNumbers: on(o.strictNumbers, true),
    allowUnionTypes: o.allowUnionTypes === true,
    allowMatchingProperties: o.allowMatchingProperties === true,
    validateFormats: o.validateFormats ?? true,
  };
}
