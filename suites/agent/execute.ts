/**
 * `execute` (4.18): `spec()` and `spec(id)`, `call` returning output valid against `spec(id)`'s
 * output schema, `call` with input generated to break each constraint of the input schema throwing
 * an `Error` naming the field, an unknown operation throwing, an endless loop stopped with the server
 * still answering, and no host object inside the sandbox.
 */
import fc from 'fast-check';
import { aimedCases } from '../../src/arbitraries/aimed.ts';
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law } from '../../src/conformance/kit/law.ts';
import { checkAgainst } from '../../src/conformance/kit/mcp/schemas.ts';
import { literal, runScript, scriptArgument } from '../../src/conformance/kit/mcp/script.ts';
import { catalog, exampleInput, isInvalidInput, localResolver } from './catalog.ts';
import { walk } from './search.ts';
import { agentExamples, agentProperty, brief, isObj, requireTool, withSession } from './support.ts';
import { failureText } from './tools.ts';

const GROUP = 'agent';
const TAG_LOOKUPS = 5;
const NAMED = ['query.search.actions', 'query.search.tags', 'query.analytics.actions'];

const specCatalog: Law = {
  id: 'agent.execute.spec-catalog',
  group: GROUP,
  title: 'spec() lists id, summary, effect (read|write) for each operation; the named operations are there',
  ruleIds: ['AGENT-MCP-SPEC-LISTS-CATALOG', 'AGENT-MCP-SPEC-NAMED-OPERATIONS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      const entries = await catalog(ctx);
      for (const e of entries) {
        if (e.id === '' || typeof e.summary !== 'string' || (e.effect !== 'read' && e.effect !== 'write'))
          violate(
            'AGENT-MCP-SPEC-LISTS-CATALOG',
            'entry-shape',
            `spec() entry lacks id, summary or effect read|write: ${brief(e)}`,
          );
      }
      const ids = entries.map((e) => e.id);
      for (const id of NAMED)
        if (!ids.includes(id))
          violate('AGENT-MCP-SPEC-NAMED-OPERATIONS', `missing-${id}`, `spec() does not list ${id}`, ids);
      if (!ids.some((id) => id.startsWith('config.savedSearch.')))
        violate(
          'AGENT-MCP-SPEC-NAMED-OPERATIONS',
          'missing-saved-search',
          'spec() lists no config.savedSearch.* operation',
          ids,
        );
      return entries.length + NAMED.length + 1;
    }),
};

const specSchemas: Law = {
  id: 'agent.execute.spec-schemas',
  group: GROUP,
  title: 'spec(id) gives an input and an output schema for every listed id',
  ruleIds: ['AGENT-MCP-SPEC-ID-GIVES-SCHEMAS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      const entries = await catalog(ctx);
      for (const e of entries) {
        if (e.inputSchema === undefined || e.outputSchema === undefined)
          violate(
            'AGENT-MCP-SPEC-ID-GIVES-SCHEMAS',
            'schemas-missing',
            `spec(${JSON.stringify(e.id)}) has no input and output schema: ${brief(e.spec)}`,
          );
        for (const [which, schema] of [
          ['input', e.inputSchema],
          ['output', e.outputSchema],
        ] as const) {
          const probe = checkAgainst(schema, null);
          if (probe.ok === 'uncompilable')
            violate(
              'AGENT-MCP-SPEC-ID-GIVES-SCHEMAS',
              'schema-invalid',
              `spec(${JSON.stringify(e.id)}) ${which} schema does not compile: ${probe.reason}`,
            );
        }
      }
      return entries.length;
    }),
};

/** Read operations whose output a law may check (writes are never called with generated input). */
async function readOperations(ctx: Parameters<Law['run']>[0]) {
  return (await catalog(ctx)).filter((e) => e.effect === 'read' && e.inputSchema !== undefined);
}

const callOutput: Law = {
  id: 'agent.execute.call-output',
  group: GROUP,
  title:
    'call with an input valid against spec(id) is accepted and returns output valid against its output schema',
  ruleIds: ['AGENT-MCP-EXECUTE-CALL-RETURNS-OUTPUT', 'AGENT-MCP-SCHEMAS-READ-AT-RUNTIME'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      const ops = await readOperations(ctx);
      return withSession(ctx, 'read', async (session) => {
        for (const op of ops) {
          const input = exampleInput(op);
          const out = await runScript(session, `return await call(${literal(op.id)}, ${literal(input)});`);
          // A valid input may still fail for another reason (a saved search that does not exist).
          if (out.kind === 'threw' && !isInvalidInput(out)) continue;
          if (out.kind === 'threw')
            violate(
              'AGENT-MCP-SCHEMAS-READ-AT-RUNTIME',
              `refused-${op.id}`,
              `call(${op.id}) refused an input valid against spec(id): ${out.message}`,
              { operation: op.id, input },
            );
          if (out.kind === 'failed')
            violate(
              'AGENT-MCP-EXECUTE-CALL-RETURNS-OUTPUT',
              `failed-${op.id}`,
              `execute of call(${op.id}) failed: ${out.text}`,
              { operation: op.id, input },
            );
          const check = checkAgainst(op.outputSchema, out.value);
          if (check.ok === false)
            violate(
              'AGENT-MCP-EXECUTE-CALL-RETURNS-OUTPUT',
              `output-${op.id}`,
              `call(${op.id}) output does not match spec(id).outputSchema: ${check.errors.join('; ')}`,
              { operation: op.id, input, output: out.value },
            );
        }
        return ops.length;
      });
    }),
};

interface InvalidCall {
  readonly operation: string;
  readonly path: readonly (string | number)[];
  readonly input: unknown;
  readonly what: string;
}

const callInvalid: Law = {
  id: 'agent.execute.call-invalid-throws',
  group: GROUP,
  title: 'call with input breaking one constraint of spec(id).inputSchema throws an Error naming the field',
  ruleIds: ['AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE', 'AGENT-MCP-INVALID-INPUT-NAMES-FIELD'],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const ops = await readOperations(ctx).catch(() => []);
    const cases: InvalidCall[] = ops.flatMap((op) =>
      aimedCases(op.inputSchema ?? true, exampleInput(op), {
        maxDepth: 3,
        resolve: localResolver(op.inputSchema),
      })
        .filter((c) => !c.valid && c.path.some((p) => typeof p === 'string'))
        .map((c) => ({ operation: op.id, path: c.path, input: c.value, what: c.description })),
    );
    if (cases.length === 0) return agentExamples(ctx, async () => (await catalog(ctx)).length * 0);
    return withSession(ctx, 'read', (session) =>
      agentProperty(
        ctx,
        fc.constantFrom(...cases),
        async (c) => {
          const out = await runScript(
            session,
            `return await call(${literal(c.operation)}, ${literal(c.input)});`,
          );
          if (out.kind === 'value')
            violate(
              'AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE',
              'returned',
              `call(${c.operation}) with ${c.what} returned instead of throwing: ${brief(out.value)}`,
              c,
            );
          if (out.kind === 'failed')
            violate(
              'AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE',
              'not-catchable',
              `call(${c.operation}) with ${c.what}: the script could not catch a failure: ${out.text}`,
              c,
            );
          if (!out.isError)
            violate(
              'AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE',
              'not-error',
              `call(${c.operation}) threw a ${out.name}, not an Error`,
              c,
            );
          const named = c.path.filter((p): p is string => typeof p === 'string');
          if (!named.some((p) => out.message.includes(p)))
            violate(
              'AGENT-MCP-INVALID-INPUT-NAMES-FIELD',
              'unnamed',
              `call(${c.operation}) with ${c.what} threw without naming ${named.join('/')}: ${out.message}`,
              c,
            );
        },
        { runs: Math.max(ctx.runs, 20) },
      ),
    );
  },
};

const unknownOperation: Law = {
  id: 'agent.execute.unknown-operation',
  group: GROUP,
  title: 'call of an unknown operation throws an Error',
  ruleIds: ['AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await requireTool(ctx, 'read', 'execute');
      const out = await withSession(ctx, 'read', (s) =>
        runScript(s, `return await call('cca.conform.no-such-operation', {});`),
      );
      if (out.kind !== 'threw' || !out.isError)
        violate(
          'AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE',
          'unknown-op',
          `call of an unknown operation did not throw an Error: ${brief(out.kind === 'value' ? out.value : out)}`,
        );
      return 1;
    }),
};

const timeout: Law = {
  id: 'agent.execute.timeout',
  group: GROUP,
  title: 'an endless loop is stopped with a failure, and the server then answers',
  ruleIds: ['AGENT-MCP-SANDBOX-TIMEOUT'],
  needs: { keys: ['read'] },
  // Most of its time is the deployment's time limit running out; it reads and writes no data, and
  // never polls.
  waits: 'time-limit',
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await requireTool(ctx, 'read', 'execute');
      return withSession(ctx, 'read', async (session) => {
        const loop = await runScript(session, 'for (;;) {}');
        if (loop.kind === 'value')
          violate('AGENT-MCP-SANDBOX-TIMEOUT', 'loop-succeeded', 'an endless loop was reported as a success');
        if (loop.kind === 'failed' && loop.answer.kind === 'result' && !loop.answer.isError)
          violate(
            'AGENT-MCP-SANDBOX-TIMEOUT',
            'loop-not-failure',
            `an endless loop ended without a failure: ${loop.text}`,
          );
        const after = await runScript(session, 'return 6 * 7;');
        if (after.kind !== 'value' || after.value !== 42)
          violate(
            'AGENT-MCP-SANDBOX-TIMEOUT',
            'not-serving',
            `after a stopped loop, execute no longer answers: ${brief(after)}`,
          );
        return 2;
      });
    }),
};

const HOST_PROBE = `
const found = [];
for (const name of ['process', 'require', 'module', 'fetch', 'Deno', 'Bun', 'XMLHttpRequest', 'WebSocket', 'Buffer', '__dirname']) {
  if (typeof globalThis[name] !== 'undefined') found.push(name);
}
try { const g = Function('return this')(); if (g && (g.process || g.require)) found.push('Function->host global'); } catch (e) {}
try { const g = (() => {}).constructor('return this')(); if (g && (g.process || g.require)) found.push('constructor->host global'); } catch (e) {}
try { const p = Function('return typeof process')(); if (p !== 'undefined') found.push('Function->process'); } catch (e) {}
try { const m = await import('node:fs'); if (m) found.push('import(node:fs)'); } catch (e) {}
try { const m = await import('fs'); if (m) found.push('import(fs)'); } catch (e) {}
return found;`;

const hostObjects: Law = {
  id: 'agent.execute.no-host-objects',
  group: GROUP,
  title: 'no process, require, fetch, host import() or Function/constructor path to the host',
  ruleIds: ['AGENT-MCP-SANDBOX-NO-HOST'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await requireTool(ctx, 'read', 'execute');
      const out = await withSession(ctx, 'read', (s) => runScript(s, HOST_PROBE));
      if (out.kind !== 'value' || !Array.isArray(out.value))
        violate('AGENT-MCP-SANDBOX-NO-HOST', 'probe-failed', `the host probe did not run: ${brief(out)}`);
      if (out.value.length > 0)
        violate(
          'AGENT-MCP-SANDBOX-NO-HOST',
          'host-reachable',
          `the sandbox exposes ${out.value.join(', ')}`,
          out.value,
        );
      return 10;
    }),
};

const truncated: Law = {
  id: 'agent.execute.truncation-reports-limit',
  group: GROUP,
  title: 'a result or output cut at a limit reports the limit',
  ruleIds: ['AGENT-MCP-TRUNCATED-REPORTS-LIMIT', 'AGENT-MCP-FAILURE-KINDS'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await requireTool(ctx, 'read', 'execute');
      const size = 4 * 1024 * 1024;
      const answer = await withSession(ctx, 'read', async (s) =>
        s.callTool('execute', {
          [await scriptArgument(s)]: `console.log('x'.repeat(${size})); return 'y'.repeat(${size});`,
        }),
      );
      const text = failureText(answer);
      // Not cut at all: nothing to report (the deployment's limits are higher).
      if (text.length > 2 * size) return 1;
      if (!/trunc/i.test(text) || !/\d{3,}/.test(text.replace(/x{8,}|y{8,}/g, '')))
        violate(
          'AGENT-MCP-TRUNCATED-REPORTS-LIMIT',
          'limit-unreported',
          `an output of ${size} characters came back cut to ${text.length} without saying it was truncated at which limit`,
        );
      return 1;
    }),
};

/** The first array of objects in an operation's output (its items). */
function itemsOf(value: unknown): Record<string, unknown>[] {
  const arrays = Array.isArray(value)
    ? [value]
    : isObj(value)
      ? Object.values(value).filter(Array.isArray)
      : [];
  return ((arrays[0] ?? []) as unknown[]).filter(isObj);
}

const tagsByName: Law = {
  id: 'agent.search.tags-by-name',
  group: GROUP,
  title: 'query.search.tags {name} answers tags matching the name',
  ruleIds: ['AGENT-MCP-SEARCH-TAGS-BY-NAME'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await requireTool(ctx, 'read', 'execute');
      return withSession(ctx, 'read', async (session) => {
        const tags = async (name: string) => {
          const out = await runScript(
            session,
            `return await call('query.search.tags', ${literal({ name })});`,
          );
          if (out.kind !== 'value')
            violate(
              'AGENT-MCP-SEARCH-TAGS-BY-NAME',
              'failed',
              `query.search.tags {name: ${JSON.stringify(name)}} failed: ${brief(out)}`,
              { name },
            );
          return itemsOf(out.value);
        };
        const all = await tags('e');
        let checks = 1;
        for (const tag of all) {
          const text = Object.values(tag)
            .filter((v) => typeof v === 'string')
            .join(' ')
            .toLowerCase();
          if (!text.includes('e'))
            violate(
              'AGENT-MCP-SEARCH-TAGS-BY-NAME',
              'no-match',
              `query.search.tags {name: "e"} answered a tag not matching it: ${brief(tag)}`,
            );
        }
        // A tag's full value matches its name under any matching rule: each tag value the newest
        // search items carry (2.1 tags[].value) is answered, by a tag whose text holds it.
        const seen = await walk(
          session,
          { dateRange: { relative: { unit: 'month', count: 1 } }, limit: 100 },
          { maxPages: 1 },
        );
        const values = [...new Set(seen.tags.flatMap((t) => t ?? []))].slice(0, TAG_LOOKUPS);
        for (const name of values) {
          const again = await tags(name);
          checks += 1;
          const holds = (t: Record<string, unknown>) =>
            Object.values(t).some((v) => typeof v === 'string' && v.toLowerCase() === name.toLowerCase());
          if (!again.some(holds))
            violate(
              'AGENT-MCP-SEARCH-TAGS-BY-NAME',
              'not-found',
              `search items carry the tag ${JSON.stringify(name)}, but query.search.tags {name: ${JSON.stringify(name)}} does not answer it`,
              { name },
            );
        }
        // A limit the schema offers is honoured (section 8: the page size is limit).
        const entry = (await catalog(ctx)).find((e) => e.id === 'query.search.tags');
        const schema = entry?.inputSchema;
        const offersLimit = isObj(schema) && isObj(schema['properties']) && 'limit' in schema['properties'];
        if (offersLimit && all.length >= 2) {
          const out = await runScript(
            session,
            `return await call('query.search.tags', ${literal({ name: 'e', limit: 1 })});`,
          );
          checks += 1;
          const got = out.kind === 'value' ? itemsOf(out.value).length : -1;
          if (got < 0 || got > 1)
            violate(
              'AGENT-MCP-SEARCH-TAGS-BY-NAME',
              'limit',
              `query.search.tags {name: "e", limit: 1} answered ${got < 0 ? brief(out) : `${got} tags`}`,
              { name: 'e', limit: 1 },
            );
        }
        return checks;
      });
    }),
};

// The time limit first: it waits beside the laws after it, so the more there are, the less it costs.
export const executeLaws: readonly Law[] = [
  timeout,
  specCatalog,
  specSchemas,
  callOutput,
  callInvalid,
  unknownOperation,
  hostObjects,
  truncated,
  tagsByName,
];
