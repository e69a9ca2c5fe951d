/**
 * The contract against the tools users already trust: the official OpenAPI 3.1 schema (Schema
 * Objects included), Spectral's oas ruleset, Redocly's recommended ruleset, and Prism's mock.
 */
import { readFileSync } from 'node:fs';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTRACT_PATH, serialiseDocument } from '../contract/src/build.ts';
import { collectAgentGaps, collectGaps, GAPS_PAGE_PATH, pageWithGaps } from '../scripts/gaps-doc.ts';
import { AGENT_FILES } from '../src/contract/agent.ts';
import { SPEC_OPERATIONS } from './spec-tables.ts';
import { bin, run, type Started, startPrism } from './support/processes.ts';

type Node = { [key: string]: unknown };

/**
 * The official OpenAPI 3.1 schema checks Schema Objects only as objects (its default dialect is
 * open), so every Schema Object is also checked against the JSON Schema 2020-12 meta-schema.
 */
async function validateOpenApi(doc: unknown): Promise<string[]> {
  const result = await new Validator().validate(doc as Node);
  const problems = result.valid ? [] : [JSON.stringify(result.errors)];
  const meta = new Ajv2020({ strict: false });
  const visit = (node: unknown, pointer: string, isSchema: boolean): void => {
    if (node === null || typeof node !== 'object') return;
    if (isSchema && !meta.validateSchema(node as Node)) {
      problems.push(`${pointer}: ${meta.errorsText(meta.errors)}`);
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'examples' || key === 'example' || key.startsWith('x-')) continue;
      visit(value, `${pointer}/${key}`, key === 'schema' || pointer.endsWith('/components/schemas'));
    }
  };
  visit(doc, '#', false);
  return problems;
}

describe('contract/openapi.json', () => {
  it('is in step with its sources in contract/src (run `npm run contract:build` when this fails)', () => {
    expect(readFileSync(CONTRACT_PATH, 'utf8')).toBe(serialiseDocument());
  });

  it('every x-spec-gap is listed in docs/contract.md (run `npm run docs:gaps` when this fails)', () => {
    const page = readFileSync(GAPS_PAGE_PATH, 'utf8');
    expect(page).toBe(pageWithGaps(page));
    expect(collectGaps().length).toBeGreaterThan(20);
  });

  it('every x-spec-gap of contract/agent/*.json is in the table "The agent interface" of docs/contract.md, with its file', () => {
    const page = readFileSync(GAPS_PAGE_PATH, 'utf8');
    const table = page.slice(page.indexOf('**The agent interface**'), page.indexOf('<!-- spec-gaps:end'));
    const rows = table.split('\n').filter((line) => line.startsWith('| `'));
    // Read the marks independently of the generator: every value under an x-spec-gap key, by file.
    for (const [file, json] of Object.entries(AGENT_FILES)) {
      const sentences: string[] = [];
      JSON.parse(JSON.stringify(json), (key, value: unknown) => {
        if (key === 'x-spec-gap')
          sentences.push(
            ...(typeof value === 'string' ? [value] : Object.values(value as Record<string, string>)),
          );
        return value;
      });
      for (const sentence of sentences) {
        const row = rows.find((line) => line.includes(sentence.replace(/\|/g, '\\|')));
        expect(row, `${file}: ${sentence.slice(0, 60)}`).toBeDefined();
        expect(row?.startsWith(`| \`${file}\``), `${file}: ${sentence.slice(0, 60)}`).toBe(true);
      }
    }
    expect(collectAgentGaps().length).toBeGreaterThan(20);
  });

  it('is valid OpenAPI 3.1 against the official schema, Schema Objects included', async () => {
    expect(await validateOpenApi(JSON.parse(readFileSync(CONTRACT_PATH, 'utf8')))).toEqual([]);
  });

  it('the schema check is not a formality: a misspelt type in a Schema Object is refused', async () => {
    const doc = JSON.parse(readFileSync(CONTRACT_PATH, 'utf8'));
    doc.components.schemas.Tag.properties.value.type = 'strin';
    expect(await validateOpenApi(doc)).toEqual([expect.stringContaining('/components/schemas/Tag')]);
    const param = JSON.parse(readFileSync(CONTRACT_PATH, 'utf8'));
    param.paths['/v0/action/list'].get.parameters[2].schema.minimum = 'one';
    expect(await validateOpenApi(param)).toHaveLength(1);
  });

  it('Spectral (spectral:oas) reports no errors and no warnings', async () => {
    const { stdout, stderr } = await run(bin('spectral'), [
      'lint',
      CONTRACT_PATH,
      '--format',
      'json',
      '--quiet',
    ]);
    const problems = JSON.parse(stdout || '[]') as { severity: number; code: string; path: string[] }[];
    expect(stderr).not.toMatch(/Error running Spectral/);
    expect(problems.map((p) => `${p.code} at ${p.path.join('.')}`)).toEqual([]);
  });

  it('Redocly (recommended) reports no errors; its only warnings are the two /docs routes without a 4xx', async () => {
    const { stdout } = await run(bin('redocly'), ['lint', CONTRACT_PATH, '--format', 'json']);
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      problems: { ruleId: string; severity: string; location: { pointer: string }[] }[];
    };
    const errors = report.problems.filter((p) => p.severity === 'error');
    expect(errors.map((p) => `${p.ruleId} ${p.location[0]?.pointer}`)).toEqual([]);
    const warnings = report.problems
      .filter((p) => p.severity === 'warn')
      .map((p) => `${p.ruleId} ${p.location[0]?.pointer}`);
    expect(warnings).toEqual([
      'operation-4xx-response #/paths/~1docs~1json/get/responses',
      'operation-4xx-response #/paths/~1docs/get/responses',
    ]);
  });
});

describe('Prism serves the contract (interoperability with the mock front-end developers already use)', () => {
  let prism: Started;
  const doc = JSON.parse(readFileSync(CONTRACT_PATH, 'utf8')) as {
    paths: Record<string, Record<string, Node>>;
  };

  beforeAll(async () => {
    prism = await startPrism(CONTRACT_PATH, ['-v', 'warn']);
  });
  afterAll(async () => {
    await prism?.stop();
  });

  const getOperations = SPEC_OPERATIONS.filter((op) => op.method === 'get');
  for (const op of getOperations) {
    it(`${op.operationId}: answers 200 with the contract's first example`, async () => {
      const operation = doc.paths[op.path]?.['get'] as Node;
      const parameters = (operation['parameters'] as Node[] | undefined) ?? [];
      let path = op.path;
      for (const p of parameters.filter((p) => p['in'] === 'path')) {
        const first = Object.values(p['examples'] as Record<string, { value: string }>)[0];
        path = path.replace(`{${p['name']}}`, encodeURIComponent(first?.value ?? 'x'));
      }
      const response = await fetch(`${prism.url}${path}`, { headers: { 'X-API-Key': 'any-key' } });
      const ok = (operation['responses'] as Record<string, Node>)['200'] as Node;
      const examples = ((ok['content'] as Node)['application/json'] as Node)['examples'] as Record<
        string,
        { value: unknown }
      >;
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(Object.values(examples)[0]?.value);
    });
  }

  it('refuses a request without X-API-Key with 401, as the contract declares', async () => {
    const response = await fetch(`${prism.url}/v0/action/list`);
    expect(response.status).toBe(401);
  });
});
