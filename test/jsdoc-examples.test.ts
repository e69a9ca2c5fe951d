/**
 * The fenced `@example` blocks of the public entry points compile as a user would paste them: each
 * block is written to a temporary module importing from the sources the package exports, and type-
 * checked with the project's strict options (`exactOptionalPropertyTypes` included).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));
const ENTRY: Readonly<Record<string, string>> = {
  'cca-kit/contract': 'src/contract/index.ts',
  'cca-kit/client': 'src/client/index.ts',
  'cca-kit/mock': 'mocks/index.ts',
  'cca-kit/msw': 'mocks/msw/index.ts',
};
/** Files whose examples are fenced (```ts) and meant to compile on their own. */
const FILES = [
  'src/contract/index.ts',
  'src/client/client.ts',
  'src/client/typed.ts',
  'src/client/action-window.ts',
  'src/client/errors.ts',
  'mocks/engine/violations/expect.ts',
  'fixtures/seeded-keys.ts',
];

async function examplesOf(file: string): Promise<string[]> {
  const text = await readFile(join(root, file), 'utf8');
  return [...text.matchAll(/@example\n \* ```ts\n([\s\S]*?) \* ```/g)].map((m) =>
    (m[1] ?? '').replace(/^ \*( |$)/gm, ''),
  );
}

describe('JSDoc examples of the public API compile', () => {
  it("every fenced example of the entry points type-checks (validateRequest's included)", async () => {
    const dir = await mkdtemp(join(root, 'test', '.jsdoc-'));
    try {
      const written: string[] = [];
      for (const file of FILES) {
        for (const [i, example] of (await examplesOf(file)).entries()) {
          let code = example;
          for (const [specifier, source] of Object.entries(ENTRY)) {
            code = code.replaceAll(`'${specifier}'`, `'${join(root, source)}'`);
          }
          const target = join(dir, `${file.replaceAll('/', '_')}.${i}.ts`);
          await writeFile(target, `${code}\nexport {};\n`);
          written.push(target);
        }
      }
      expect(written.length).toBeGreaterThanOrEqual(FILES.length);
      const program = ts.createProgram(written, {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: true,
        allowImportingTsExtensions: true,
        resolveJsonModule: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
      });
      const problems = ts
        .getPreEmitDiagnostics(program)
        .filter((d) => d.file !== undefined && written.includes(d.file.fileName))
        .map(
          (d) =>
            `${d.file?.fileName.slice(dir.length + 1)}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
        );
      expect(problems).toEqual([]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
