/**
 * The files and packages a set of compiled modules reaches: relative imports are followed, bare ones are
 * packages. Used by scripts/lean-packages.js to cut a lean package out of dist/, so what it ships and
 * what it depends on are computed from the code, never listed by hand.
 *
 * Plain JavaScript: the build runs it with nothing but node.
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, resolve } from 'node:path';

/**
 * `import … from 'x'`, `export … from 'x'`, `import 'x'`, `import('x')` (lazy modules, and type references
 * in .d.ts), `require('x')` (ajv's CommonJS through createRequire), `.resolve('x/file')`, and
 * `new URL('./x', import.meta.url)` (a file read or a worker started beside the module).
 */
const SPECIFIERS = [
  /^\s*(?:import|export)\b[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm,
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\brequire\(\s*['"]([^'"]+)['"]\s*\)/g,
  /\.resolve\(\s*['"]([^'"./][^'"]*\/[^'"]+)['"]\s*\)/g,
  /new URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url\s*\)/g,
];

/** @param {string} code */
export function specifiersOf(code) {
  // Comments (TSDoc examples import 'cca-kit/…' and other packages) are not imports.
  const withoutComments = code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return SPECIFIERS.flatMap((pattern) => [...withoutComments.matchAll(pattern)].map((m) => m[1] ?? ''));
}

/** @param {string} specifier */
export const packageName = (specifier) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

const BUILTINS = new Set(builtinModules);
/** @param {string} specifier */
export const isBuiltin = (specifier) => specifier.startsWith('node:') || BUILTINS.has(packageName(specifier));

/**
 * Walks from absolute file paths. A `.d.ts` file's relative `./x.js` import is followed to `./x.d.ts`.
 *
 * @param {readonly string[]} entries absolute paths
 * @returns {{ files: Set<string>, packages: Map<string, string> }} files reached (absolute), and each
 *   package reached with one file that imports it
 */
export function moduleGraph(entries) {
  const files = new Set();
  const packages = new Map();
  const pending = [...entries];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (files.has(file)) continue;
    if (!existsSync(file)) throw new Error(`${file} is imported but missing`);
    files.add(file);
    if (!/\.(m?js|d\.ts)$/.test(file)) continue;
    const declarations = file.endsWith('.d.ts');
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
      if (specifier.startsWith('.')) {
        const target = resolve(dirname(file), specifier);
        pending.push(
          declarations && !target.endsWith('.json') ? target.replace(/\.(js|ts)$/, '.d.ts') : target,
        );
      } else if (!isBuiltin(specifier)) {
        packages.set(packageName(specifier), file);
      }
    }
  }
  return { files, packages };
}
