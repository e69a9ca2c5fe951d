/**
 * Every rule of the catalog is named by at least one test or conformance law: the catalog is the
 * list of claims, and a claim no test names is a claim nobody checks.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { rules } from '../src/contract/rules.ts';
import { allLaws } from '../suites/laws/index.ts';
import { ROOT } from './support/processes.ts';

const SEARCHED = ['test', 'src', 'mocks', 'suites', 'fixtures'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' ? [] : sourceFiles(path);
    // Test files anywhere, and every law file of the suites (REST laws in suites/laws, agent laws in suites/agent).
    return /\.test\.ts$/.test(name) || (path.includes(`${ROOT}suites`) && name.endsWith('.ts')) ? [path] : [];
  });
}

/** Test files and conformance laws, minus this file and the catalog's own test (which lists ids as data). */
const testSources = SEARCHED.flatMap((dir) => sourceFiles(join(ROOT, dir)))
  .filter((path) => !path.endsWith('rules-coverage.test.ts') && !path.endsWith('rules.test.ts'))
  .map((path) => readFileSync(path, 'utf8'));
// Named in a source, or by a law at run time (a rule a law derives from the contract, such as the
// statuses rule of each operation, is named nowhere as a literal).
const named = new Set([
  ...testSources.flatMap((text) => text.match(/\b[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+\b/g) ?? []),
  ...allLaws.flatMap((law) => law.ruleIds),
]);

describe('rule coverage', () => {
  it('every rule id of contract/rules.json is named by a test or a conformance law', () => {
    const uncovered = rules.filter((rule) => !named.has(rule.id)).map((rule) => rule.id);
    expect(uncovered).toEqual([]);
  });
});
