/**
 * The two validator compilers on the same contract: ajv (node: generated code, shipped compiled ahead
 * of time in dist/) and the closure compiler of the browser build (src/contract/schema-closures/, no
 * generated code, for pages whose CSP forbids eval). Compile time of every validator of the contract,
 * and validations per second on what the engine validates: a request query, request bodies valid and
 * invalid, and the `selfCheck` of a 50-item list answer taken from the engine itself.
 *
 *   npm run bench -- --only validators
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import { MockClock } from '../../mocks/engine/clock.ts';
import { createEngine } from '../../mocks/engine/engine.ts';
import { sampleSubmission } from '../../mocks/engine/moderation/sample.ts';
import { loadAjv } from '../../src/contract/ajv-load.ts';
import { contractDocument } from '../../src/contract/load.ts';
import { buildOperationTable } from '../../src/contract/operations.ts';
import { closureAjvModules } from '../../src/contract/schema-closures/index.ts';
import { compileIn, createAjv, validatorSchemas } from '../../src/contract/validator-schemas.ts';

export interface ValidatorRun {
  readonly label: string;
  readonly key: string;
  readonly valid: boolean;
  readonly ajvPerSecond: number;
  readonly closuresPerSecond: number;
}

export interface ValidatorsResult {
  readonly validators: number;
  readonly compileAjvMs: number;
  readonly compileClosuresMs: number;
  readonly runs: readonly ValidatorRun[];
}

type Compiler = 'ajv' | 'closures';

/** Every validator of the contract compiled by one compiler; how long that took (median of `rounds`). */
function compileAll(compiler: Compiler, rounds: number) {
  const operations = buildOperationTable(contractDocument);
  const schemas = [...validatorSchemas(contractDocument, operations)];
  const times: number[] = [];
  let compiled = new Map<string, ValidateFunction>();
  for (let round = 0; round < rounds; round++) {
    const t0 = performance.now();
    const ajv = createAjv(contractDocument, undefined, compiler === 'ajv' ? loadAjv() : closureAjvModules);
    compiled = new Map(schemas.map(([key, schema]) => [key, compileIn(ajv, schema)]));
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { compiled, ms: times[Math.floor(times.length / 2)] ?? 0 };
}

/** Validations per second of one validator on one value, over at least `ms` milliseconds. */
function perSecond(validate: ValidateFunction, value: unknown, expected: boolean, ms: number): number {
  if (validate(value) !== expected)
    throw new Error(`validator disagrees with the expected verdict ${expected}`);
  let n = 0;
  const t0 = performance.now();
  let elapsed = 0;
  while (elapsed < ms) {
    for (let i = 0; i < 100; i++) validate(value);
    n += 100;
    elapsed = performance.now() - t0;
  }
  return (n / elapsed) * 1000;
}

export async function validatorsSection(options: {
  readonly ms: number;
  readonly log: (line: string) => void;
}): Promise<ValidatorsResult> {
  const { ms, log } = options;
  const ajv = compileAll('ajv', 5);
  const closures = compileAll('closures', 5);
  log(
    `   compile all ${ajv.compiled.size}: ajv ${ajv.ms.toFixed(0)} ms, closures ${closures.ms.toFixed(0)} ms`,
  );

  const engine = createEngine({ clock: new MockClock({ start: Date.parse('2026-11-20T12:00:00Z') }) });
  const key = engine.admin
    .listKeys('org_acme')
    .find((k) => k.profile === 'reporting' && k.status === 'active');
  if (key === undefined) throw new Error('no active reporting key for org_acme');
  const list = await engine.handle(
    new Request('http://mock.test/v0/action/list?pageSize=50', { headers: { 'x-api-key': key.key ?? '' } }),
  );
  const page = (await list.json()) as { data: unknown[] };
  if (page.data.length !== 50) throw new Error(`the list answered ${page.data.length} items, not 50`);
  const submission = sampleSubmission({ externalId: 'bench-1' });
  const cases: [label: string, key: string, value: unknown, valid: boolean][] = [
    [
      'list query (pageSize, respondedOnly)',
      'query listActions',
      { pageSize: 50, respondedOnly: true },
      true,
    ],
    ['moderation submission body', 'body submitModerationCase', submission, true],
    [
      'moderation submission body, three faults (every issue reported)',
      'body submitModerationCase',
      { ...submission, externalId: 7, media: 'none', landingPageUrl: undefined },
      false,
    ],
    ['list answer of 50 actions (selfCheck)', 'response listActions 200', page, true],
  ];
  const runs: ValidatorRun[] = [];
  for (const [label, validatorKey, value, valid] of cases) {
    const a = ajv.compiled.get(validatorKey);
    const c = closures.compiled.get(validatorKey);
    if (a === undefined || c === undefined) throw new Error(`no validator ${validatorKey}`);
    const run: ValidatorRun = {
      label,
      key: validatorKey,
      valid,
      ajvPerSecond: perSecond(a, value, valid, ms),
      closuresPerSecond: perSecond(c, value, valid, ms),
    };
    log(
      `   ${label}: ajv ${Math.round(run.ajvPerSecond)}/s, closures ${Math.round(run.closuresPerSecond)}/s`,
    );
    runs.push(run);
  }
  return { validators: ajv.compiled.size, compileAjvMs: ajv.ms, compileClosuresMs: closures.ms, runs };
}

const rate = (n: number) => (n >= 10_000 ? `${Math.round(n / 1000)}k` : `${Math.round(n)}`);

export function renderValidators(result: ValidatorsResult, stamp: string): string {
  return [
    '## Validators: ajv (node) and the closure compiler (browser build)',
    '',
    stamp,
    '',
    `Compiling all ${result.validators} validators of the contract (median of 5, each in a fresh instance): ajv ${result.compileAjvMs.toFixed(0)} ms, closures ${result.compileClosuresMs.toFixed(0)} ms. The published node entry points skip this (ajv's code ships compiled in dist/); a page compiles each validator at its first use.`,
    '',
    '| what is validated | validator | verdict | ajv | closures | closures / ajv |',
    '|---|---|---|---:|---:|---:|',
    ...result.runs.map(
      (r) =>
        `| ${r.label} | \`${r.key}\` | ${r.valid ? 'valid' : 'invalid'} | ${rate(r.ajvPerSecond)}/s | ${rate(r.closuresPerSecond)}/s | ${(r.closuresPerSecond / r.ajvPerSecond).toFixed(2)}× |`,
    ),
    '',
  ].join('\n');
}
