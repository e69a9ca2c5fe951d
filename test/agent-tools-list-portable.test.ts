/**
 * What a host reads in tools/list, as the official SDK client receives it for every key profile: the
 * output schemas pass the portability rules of the Inspector's `--strict` check (no type arrays such
 * as `["integer","null"]`, a validation keyword in every schema, every `$ref` resolvable inside the
 * schema), and every tool argument says what it is. The walker here is written apart from the
 * server's own rewrite (mocks/agent/server/advertised-schema.ts), so the two cannot agree by
 * sharing a mistake; test/agent-inspector-strict.test.ts runs the Inspector 2.12 itself.
 */
import { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentServer } from '../mocks/agent/server/agent-server.ts';
import { createEngine } from '../mocks/engine/index.ts';
import { type AgentKeyProfile, agentContract } from '../src/contract/agent.ts';

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keywords that constrain a value: a schema with none of them accepts anything. */
const VALIDATION = ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf', 'not'];
const CHILD_MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
const CHILD_ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else'];
const CHILD_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];

/** Every portability issue of a schema, each with its JSON pointer. */
function strictIssues(root: unknown): string[] {
  const issues: string[] = [];
  const walk = (schema: unknown, at: string): void => {
    if (schema === true || schema === false) {
      issues.push(`${at || '/'}: a boolean schema`);
      return;
    }
    if (!isObj(schema)) {
      issues.push(`${at || '/'}: not a schema`);
      return;
    }
    if (Array.isArray(schema['type']))
      issues.push(`${at || '/'}: type array ${JSON.stringify(schema['type'])}`);
    if (!VALIDATION.some((k) => k in schema)) issues.push(`${at || '/'}: no validation keyword`);
    const ref = schema['$ref'];
    if (typeof ref === 'string') {
      const target = ref.startsWith('#/')
        ? ref
            .slice(2)
            .split('/')
            .reduce<unknown>((node, part) => (isObj(node) ? node[part] : undefined), root)
        : undefined;
      if (target === undefined) issues.push(`${at || '/'}: $ref ${ref} does not resolve inside the schema`);
    }
    for (const key of CHILD_MAPS) {
      const map = schema[key];
      if (isObj(map)) for (const [name, child] of Object.entries(map)) walk(child, `${at}/${key}/${name}`);
    }
    for (const key of CHILD_ONE) {
      const child = schema[key];
      if (child !== undefined && !(key === 'additionalProperties' && child === false))
        walk(child, `${at}/${key}`);
    }
    for (const key of CHILD_LISTS) {
      const list = schema[key];
      if (Array.isArray(list)) for (const [i, child] of list.entries()) walk(child, `${at}/${key}/${i}`);
    }
  };
  walk(root, '');
  return issues;
}

interface Listed {
  readonly name: string;
  readonly inputSchema: Json;
  readonly outputSchema?: Json;
}

const PROFILES: readonly AgentKeyProfile[] = ['reporting', 'write', 'read_write', 'import'];
const listed = new Map<AgentKeyProfile, Listed[]>();

beforeAll(async () => {
  const engine = createEngine({ seed: 42 });
  const agent = createAgentServer(engine);
  for (const profile of PROFILES) {
    const key = engine.admin.createKey({ organizationId: 'org_acme', profile, expiry: 'none' }).key;
    const client = new Client({ name: 'portable', version: '1' });
    await client.connect(await agent.connectInProcess(key));
    listed.set(profile, (await client.listTools()).tools as unknown as Listed[]);
    await client.close();
  }
});
afterAll(() => listed.clear());

describe('tools/list output schemas pass the Inspector --strict portability rules', () => {
  it('the rules can fail: a type array, a schema without a validation keyword, a dangling $ref', () => {
    expect(
      strictIssues({
        type: 'object',
        properties: {
          n: { type: ['integer', 'null'] },
          any: { description: 'x' },
          r: { $ref: '#/$defs/Gone' },
        },
      }),
    ).toEqual([
      '/properties/n: type array ["integer","null"]',
      '/properties/any: no validation keyword',
      '/properties/r: $ref #/$defs/Gone does not resolve inside the schema',
    ]);
  });

  it.each(PROFILES)('%s: every listed tool has an output schema with 0 portability issues', (profile) => {
    const tools = listed.get(profile) ?? [];
    expect(tools.length).toBeGreaterThan(0);
    for (const tool of tools) {
      expect(tool.outputSchema, `${profile} ${tool.name}`).toBeDefined();
      expect(strictIssues(tool.outputSchema), `${profile} ${tool.name} outputSchema`).toEqual([]);
      expect(strictIssues(tool.inputSchema), `${profile} ${tool.name} inputSchema`).toEqual([]);
    }
  });
});

describe('tool arguments say what each field is', () => {
  it('every argument of every listed tool carries the description the agent contract gives it', () => {
    const contract = agentContract();
    const tools = listed.get('read_write') ?? [];
    expect(tools.map((t) => t.name).sort()).toEqual(contract.tools.map((t) => t.name).sort());
    for (const tool of tools) {
      const declared = contract.toolSchemas(tool.name)?.inputSchema as Json | undefined;
      const properties = isObj(tool.inputSchema['properties']) ? tool.inputSchema['properties'] : {};
      const declaredProperties = isObj(declared?.['properties']) ? declared['properties'] : {};
      expect(Object.keys(properties), tool.name).toEqual(Object.keys(declaredProperties));
      for (const [name, schema] of Object.entries(properties)) {
        const description = isObj(schema) ? schema['description'] : undefined;
        expect(typeof description, `${tool.name}.${name}`).toBe('string');
        expect(String(description).length, `${tool.name}.${name}`).toBeGreaterThan(20);
        const fromContract = declaredProperties[name];
        expect(description, `${tool.name}.${name} as the contract says it`).toBe(
          isObj(fromContract) ? fromContract['description'] : undefined,
        );
      }
    }
  });

  it('review_reply and open_reply ask for the requestId given to prepare_reply, not a fresh one', () => {
    const tools = listed.get('read_write') ?? [];
    const requestId = (tool: string): string => {
      const props = tools.find((t) => t.name === tool)?.inputSchema['properties'];
      const schema = isObj(props) ? props['requestId'] : undefined;
      return isObj(schema) ? String(schema['description']) : '';
    };
    for (const tool of ['review_reply', 'open_reply']) {
      expect(requestId(tool), tool).toMatch(/given to prepare_reply/);
      expect(requestId(tool), tool).not.toMatch(/fresh/i);
    }
    expect(requestId('prepare_reply')).toMatch(/fresh UUID/);
    expect(requestId('prepare_reply')).toMatch(/review_reply and open_reply take the same id/);
  });
});
