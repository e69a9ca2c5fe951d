/**
 * The tools of section 4.18: the listed names and input schemas per key, results valid against a
 * declared output schema (extra fields tolerated), invalid arguments refused naming the field, and
 * permission-limited keys that cannot do what their profile does not allow.
 */
import fc from 'fast-check';
import { aimedCases } from '../../src/arbitraries/aimed.ts';
import { exampleFromSchema } from '../../src/arbitraries/from-schema.ts';
import type { JsonSchema } from '../../src/arbitraries/json-schema.ts';
import type { KeyRole } from '../../src/client/types.ts';
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { checkAgainst } from '../../src/conformance/kit/mcp/schemas.ts';
import { runScript } from '../../src/conformance/kit/mcp/script.ts';
import {
  type ListedTool,
  type McpSession,
  type ToolAnswer,
  textOf,
} from '../../src/conformance/kit/mcp/session.ts';
import { localResolver } from './catalog.ts';
import { Absent, agentExamples, agentProperty, brief, isObj, requireTool, withSession } from './support.ts';

const GROUP = 'agent';
export const SPEC_TOOLS = [
  'list_skills',
  'read_skill',
  'read_skill_file',
  'execute',
  'prepare_reply',
  'review_reply',
  'open_reply',
] as const;
const SKILL_TOOLS = ['list_skills', 'read_skill', 'read_skill_file'];
const LISTING_ROLES: readonly KeyRole[] = ['read', 'write', 'ingest', 'otherOrgRead'];

/** Everything a failure says: its structured content and its text. */
export function failureText(answer: ToolAnswer): string {
  if (answer.kind !== 'result') return answer.message;
  return `${JSON.stringify(answer.structuredContent ?? null)}\n${textOf(answer)}`;
}

const listed: Law = {
  id: 'agent.tools.listed',
  group: GROUP,
  title: 'tools/list: only the seven tools of 4.18, each input schema an object; the skill tools listed',
  ruleIds: [
    'AGENT-MCP-TOOLS-ONLY-SPEC-NAMES',
    'AGENT-MCP-SKILL-TOOLS-LISTED',
    'AGENT-MCP-TOOL-INPUT-SHAPES',
    'AGENT-MCP-REPLY-TOOLS-MAY-BE-ABSENT',
    'AGENT-MCP-EXECUTE-MAY-BE-ABSENT',
  ],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      let checks = 0;
      for (const role of LISTING_ROLES.filter((r) => ctx.client.hasKey(r))) {
        const tools = await withSession(ctx, role, (s) => s.listTools());
        for (const tool of tools) {
          if (!(SPEC_TOOLS as readonly string[]).includes(tool.name))
            violate(
              'AGENT-MCP-TOOLS-ONLY-SPEC-NAMES',
              'unknown-tool',
              `key ${role} lists tool ${tool.name}, not a tool of 4.18`,
            );
          const schema = tool.inputSchema;
          if (!isObj(schema) || schema['type'] !== 'object')
            violate(
              'AGENT-MCP-TOOLS-ONLY-SPEC-NAMES',
              'input-not-object',
              `${tool.name} input schema is not an object: ${brief(schema)}`,
            );
          const shape = inputShapeProblem(tool);
          if (shape !== undefined)
            violate('AGENT-MCP-TOOL-INPUT-SHAPES', `shape-${tool.name}`, `${tool.name}: ${shape}`, schema);
          checks += 1;
        }
        const names = tools.map((t) => t.name);
        const missing = SKILL_TOOLS.filter((n) => !names.includes(n));
        if (missing.length > 0)
          violate(
            'AGENT-MCP-SKILL-TOOLS-LISTED',
            'skill-tools-missing',
            `key ${role}: tools/list lacks ${missing.join(', ')}`,
          );
      }
      return checks;
    }),
};

/** Properties the table of 4.18 gives each tool (required) and allows (optional). */
const SHAPES: Readonly<Record<string, { required: readonly string[]; optional: readonly string[] }>> = {
  prepare_reply: { required: ['actionId', 'text', 'requestId'], optional: ['serverId', 'isPublicReply'] },
  review_reply: { required: ['requestId'], optional: [] },
  open_reply: { required: ['requestId'], optional: [] },
};

/**
 * What is wrong with a tool's input schema against the table of 4.18, if anything (absence of a tool
 * is never wrong: reply tools and execute may be absent). Property names are given by the table for
 * the reply tools only; the others are checked by kind (empty, one string argument...).
 */
function inputShapeProblem(tool: ListedTool): string | undefined {
  const schema = tool.inputSchema as { properties?: Record<string, { type?: unknown }>; required?: unknown };
  const props = Object.keys(schema.properties ?? {});
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const strings = props.filter((p) => schema.properties?.[p]?.type === 'string');
  const shape = SHAPES[tool.name];
  if (shape !== undefined) {
    const missing = shape.required.filter((p) => !props.includes(p));
    if (missing.length > 0) return `input lacks ${missing.join(', ')}`;
    const extraRequired = required.filter((p) => !shape.required.includes(p));
    if (extraRequired.length > 0)
      return `input requires ${extraRequired.join(', ')}, which 4.18 does not give`;
    return undefined;
  }
  if (tool.name === 'list_skills' && required.length > 0)
    return `an empty object expected, requires ${required.join(', ')}`;
  if ((tool.name === 'read_skill' || tool.name === 'execute') && strings.length === 0)
    return 'no string argument (a skill name / script text)';
  if (tool.name === 'read_skill_file' && strings.length === 0) return 'no string argument naming the file';
  return undefined;
}

/** A safe call of each read-only tool, for schema checks (never a write). */
async function sampleCalls(
  session: McpSession,
  tools: readonly ListedTool[],
): Promise<[string, ToolAnswer][]> {
  const out: [string, ToolAnswer][] = [];
  const names = tools.map((t) => t.name);
  if (names.includes('list_skills')) {
    const skills = await session.callTool('list_skills', {});
    out.push(['list_skills', skills]);
  }
  if (names.includes('execute')) {
    out.push([
      'execute',
      await session.callTool('execute', { [await scriptArg(tools)]: 'console.log("hi")' }),
    ]);
  }
  return out;
}

async function scriptArg(tools: readonly ListedTool[]): Promise<string> {
  const schema = tools.find((t) => t.name === 'execute')?.inputSchema as {
    properties?: Record<string, unknown>;
  };
  const props = Object.keys(schema?.properties ?? {});
  return props.includes('script') ? 'script' : (props[0] ?? 'script');
}

const resultSchema: Law = {
  id: 'agent.tools.result-schema',
  group: GROUP,
  title: 'successful results validate against the declared outputSchema (extra fields tolerated)',
  ruleIds: ['AGENT-MCP-TOOL-RESULT-SCHEMA'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () =>
      withSession(ctx, 'read', async (session) => {
        const tools = await session.listTools();
        let checks = 0;
        for (const [name, answer] of await sampleCalls(session, tools)) {
          const tool = tools.find((t) => t.name === name);
          if (answer.kind !== 'result' || answer.isError || tool?.outputSchema === undefined) continue;
          const check = checkAgainst(tool.outputSchema, answer.structuredContent);
          if (check.ok === false)
            violate(
              'AGENT-MCP-TOOL-RESULT-SCHEMA',
              `output-${name}`,
              `${name} result does not match its outputSchema: ${check.errors.join('; ')}`,
              answer.structuredContent,
            );
          checks += 1;
        }
        return checks;
      }),
    ),
};

/** Invalid argument cases of the read-only tools' input schemas, aimed at one constraint each. */
function invalidCases(
  tool: ListedTool,
): { tool: string; field: string; args: Record<string, unknown>; what: string }[] {
  const schema = tool.inputSchema as JsonSchema;
  const base = exampleFromSchema(schema);
  return aimedCases(schema, base, { maxDepth: 1 })
    .filter((c) => !c.valid && c.path.length >= 1 && isObj(c.value))
    .map((c) => ({
      tool: tool.name,
      field: String(c.path[0]),
      args: c.value as Record<string, unknown>,
      what: c.description,
    }));
}

const READ_ONLY_TOOLS = ['read_skill', 'read_skill_file', 'execute'];

const invalidArguments: Law = {
  id: 'agent.tools.invalid-arguments',
  group: GROUP,
  title: 'arguments breaking a constraint of the input schema are refused naming the field',
  ruleIds: ['AGENT-MCP-INVALID-INPUT-NAMES-FIELD'],
  needs: { keys: ['read'] },
  run: async (ctx) => {
    const tools = await withSession(ctx, 'read', (s) => s.listTools());
    const cases = tools.filter((t) => READ_ONLY_TOOLS.includes(t.name)).flatMap(invalidCases);
    if (cases.length === 0)
      return {
        kind: 'not-run',
        ruleIds: ctx.ruleIds,
        reason: 'no read-only tool with a constrained argument is listed',
      };
    return agentProperty(
      ctx,
      fc.constantFrom(...cases),
      async (c) => {
        const answer = await withSession(ctx, 'read', (s) => s.callTool(c.tool, c.args));
        if (answer.kind === 'result' && !answer.isError)
          violate(
            'AGENT-MCP-INVALID-INPUT-NAMES-FIELD',
            `accepted-${c.tool}`,
            `${c.tool} accepted ${c.what}`,
            c,
          );
        if (!failureText(answer).includes(c.field))
          violate(
            'AGENT-MCP-INVALID-INPUT-NAMES-FIELD',
            `unnamed-${c.tool}`,
            `${c.tool} refused ${c.what} without naming ${c.field}: ${failureText(answer).slice(0, 300)}`,
            c,
          );
      },
      { runs: Math.min(ctx.runs, cases.length * 2) },
    );
  },
};

async function writeOperation(ctx: LawContext, session: McpSession): Promise<{ id: string; input: unknown }> {
  const out = await runScript(
    session,
    `const list = await spec();
     const w = (Array.isArray(list) ? list : (list.operations ?? [])).find((o) => o.effect === 'write');
     if (!w) return null;
     const s = await spec(w.id);
     return { id: w.id, inputSchema: s.inputSchema ?? s.input ?? null };`,
  );
  if (out.kind !== 'value' || !isObj(out.value)) throw new Absent('no write operation is listed by spec()');
  const schema = (out.value['inputSchema'] ?? {}) as JsonSchema;
  const example = exampleFromSchema(schema, localResolver(schema));
  // Should the deployment wrongly accept the write, what it created carries the run's prefix.
  const input =
    isObj(example) && typeof example['name'] === 'string'
      ? { ...example, name: ctx.unique('forbidden') }
      : example;
  return { id: String(out.value['id']), input };
}

const readKeyWriteForbidden: Law = {
  id: 'agent.tools.read-key-write-forbidden',
  group: GROUP,
  title: 'a write operation through execute with a read-only key throws, naming the scope write',
  ruleIds: ['AGENT-MCP-READ-KEY-WRITE-FORBIDDEN'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await requireTool(ctx, 'read', 'execute');
      return withSession(ctx, 'read', async (session) => {
        const op = await writeOperation(ctx, session);
        const out = await runScript(
          session,
          `return await call(${JSON.stringify(op.id)}, ${JSON.stringify(op.input)});`,
        );
        if (out.kind === 'value')
          violate(
            'AGENT-MCP-READ-KEY-WRITE-FORBIDDEN',
            'write-allowed',
            `${op.id} succeeded with a read-only key`,
            op,
          );
        if (out.kind === 'threw' && !/write/i.test(out.message))
          violate(
            'AGENT-MCP-READ-KEY-WRITE-FORBIDDEN',
            'scope-unnamed',
            `${op.id} with a read-only key threw without naming scope write: ${out.message}`,
            op,
          );
        if (out.kind === 'failed' && !/write/i.test(out.text))
          violate(
            'AGENT-MCP-READ-KEY-WRITE-FORBIDDEN',
            'scope-unnamed',
            `${op.id} with a read-only key failed without naming scope write: ${out.text}`,
            op,
          );
        return 1;
      });
    }),
};

const importKeyLimited: Law = {
  id: 'agent.tools.import-key-limited',
  group: GROUP,
  title: 'an Import key reads no reporting data and cannot prepare replies',
  ruleIds: ['AGENT-MCP-IMPORT-KEY-NO-REPORTING-NO-REPLIES'],
  needs: { keys: ['ingest'] },
  run: (ctx) =>
    agentExamples(ctx, async () =>
      withSession(ctx, 'ingest', async (session) => {
        const names = (await session.listTools()).map((t) => t.name);
        let checks = 1;
        if (names.includes('execute')) {
          const out = await runScript(session, `return await call('query.search.actions', { limit: 1 });`);
          if (out.kind === 'value')
            violate(
              'AGENT-MCP-IMPORT-KEY-NO-REPORTING-NO-REPLIES',
              'import-reads',
              'an Import key read actions through execute',
              out.value,
            );
          checks += 1;
        }
        if (names.includes('prepare_reply')) {
          const answer = await session.callTool('prepare_reply', {
            actionId: 'cca-conform-none',
            text: 'never sent',
            requestId: '00000000-0000-4000-8000-000000000000',
          });
          if (answer.kind === 'result' && !answer.isError)
            violate(
              'AGENT-MCP-IMPORT-KEY-NO-REPORTING-NO-REPLIES',
              'import-replies',
              'an Import key prepared a reply',
              answer.structuredContent,
            );
          checks += 1;
        }
        return checks;
      }),
    ),
};

const ANNOTATIONS_RULE = 'AGENT-MCP-ANNOTATIONS-TRUE-TO-KEY';
const ANNOTATION_ROLES: readonly KeyRole[] = ['read', 'readWrite', 'write'];

/** A tool's annotations as listed (hints may be absent). */
function hintsOf(tool: ListedTool): Record<string, unknown> {
  const annotations = tool['annotations'];
  return isObj(annotations) ? annotations : {};
}

/**
 * The annotations a key sees agree with what it can do: an `execute` annotated read-only cannot
 * change state (a saved-search create through it must fail), and one that can delete (a create then
 * a delete succeed) is not annotated `destructiveHint: false`. Whatever it creates it deletes.
 */
const annotationsTrue: Law = {
  id: 'agent.tools.annotations-true',
  group: GROUP,
  title:
    'tool annotations agree with what the key can do (read-only execute cannot write; one that can delete is destructive)',
  ruleIds: [ANNOTATIONS_RULE],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      let checks = 0;
      for (const role of ANNOTATION_ROLES.filter((r) => ctx.client.hasKey(r))) {
        await withSession(ctx, role, async (session) => {
          const execute = (await session.listTools()).find((t) => t.name === 'execute');
          if (execute === undefined) return;
          const hints = hintsOf(execute);
          const name = ctx.unique('annotations');
          const created = await runScript(
            session,
            `const ids = (spec() || []).map((o) => o.id);
             if (!ids.includes('config.savedSearch.create') || !ids.includes('config.savedSearch.delete')) return { absent: true };
             const made = await call('config.savedSearch.create', { name: ${JSON.stringify(name)}, query: { limit: 1 } });
             let deleted = false;
             try { await call('config.savedSearch.delete', { id: made.id }); deleted = true; } catch (e) {}
             return { absent: false, created: true, deleted };`,
          );
          if (created.kind === 'value' && isObj(created.value) && created.value['absent'] === true) return;
          const wrote = created.kind === 'value' && isObj(created.value) && created.value['created'] === true;
          const deleted = wrote && isObj(created.value) && created.value['deleted'] === true;
          if (hints['readOnlyHint'] === true && wrote)
            violate(
              ANNOTATIONS_RULE,
              'read-only-writes',
              `execute is annotated readOnlyHint for key ${role}, but a script created (and deleted) a saved search`,
              hints,
            );
          if (deleted && hints['readOnlyHint'] !== true && hints['destructiveHint'] === false)
            violate(
              ANNOTATIONS_RULE,
              'deletes-not-destructive',
              `execute is annotated destructiveHint: false for key ${role}, but a script deleted a saved search`,
              hints,
            );
          checks += 1;
        });
      }
      if (checks === 0) throw new Absent('no key sees execute with saved-search operations');
      return checks;
    }),
};

export const toolLaws: readonly Law[] = [
  listed,
  annotationsTrue,
  resultSchema,
  invalidArguments,
  readKeyWriteForbidden,
  importKeyLimited,
];
