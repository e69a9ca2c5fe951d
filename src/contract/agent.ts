/**
 * The agent contract (`contract/agent/*.json`, spec 4.18): loaded once, its shape checked at load, and
 * every JSON Schema in it compiled once, at first use, in the project's ajv configuration
 * (`createAjv`, the same strict 2020-12 layer the REST contract uses). The MCP server, the sandbox,
 * the operations and the replies all validate through here.
 *
 * The files are imported statically so the CLI's bundle carries them; `agent.test.ts` checks that every
 * file in `contract/agent/` is listed in `AGENT_FILES`, so a new file cannot be forgotten.
 */
import type { ValidateFunction } from 'ajv/dist/2020.js';
import type { OpenAPIV3_1 } from 'openapi-types';
import executeJson from '../../contract/agent/execute.json' with { type: 'json' };
import failuresJson from '../../contract/agent/failures.json' with { type: 'json' };
import operationsJson from '../../contract/agent/operations.json' with { type: 'json' };
import repliesJson from '../../contract/agent/replies.json' with { type: 'json' };
import skillsJson from '../../contract/agent/skills.json' with { type: 'json' };
import toolsJson from '../../contract/agent/tools.json' with { type: 'json' };
import { toIssues, type ValidationIssue } from './issues.ts';
import { rebaseRefs } from './schema-refs.ts';
import { createAjv, isObject } from './validator-schemas.ts';
import type { Validation } from './validators.ts';

/** Every file of `contract/agent/`, by file name. */
export const AGENT_FILES: Readonly<Record<string, unknown>> = {
  'execute.json': executeJson,
  'failures.json': failuresJson,
  'operations.json': operationsJson,
  'replies.json': repliesJson,
  'skills.json': skillsJson,
  'tools.json': toolsJson,
};

/** The key profiles of spec 5.4 (the engine's `KeyProfile`). */
export type AgentKeyProfile = 'reporting' | 'write' | 'read_write' | 'import';
export const AGENT_KEY_PROFILES: readonly AgentKeyProfile[] = ['reporting', 'write', 'read_write', 'import'];

/** MCP tool annotations (hints to the client, never guarantees). */
export interface AgentToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** One tool as `tools.json` declares it; its schemas are in the file its part owns. */
export interface AgentToolDeclaration {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly annotations: AgentToolAnnotations;
  readonly schemas: { readonly file: string; readonly pointer: string };
}

/** A JSON Schema as data. */
export type AgentJsonSchema = Readonly<Record<string, unknown>> | boolean;

/** A tool's two schemas, once its part has committed them. */
export interface AgentToolSchemas {
  readonly inputSchema: AgentJsonSchema;
  readonly outputSchema: AgentJsonSchema;
}

/** A validator over one schema of the agent contract: a type guard, plus issues naming the field. */
export interface AgentValidator {
  readonly schema: AgentJsonSchema;
  check(value: unknown): Validation;
}

/** Thrown at load when a file of `contract/agent/` does not have its declared shape: a build error. */
export class AgentContractError extends Error {
  readonly code = 'AGENT_CONTRACT_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'AgentContractError';
  }
}

function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The value at a JSON pointer (`''` is the whole value), or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let value = root;
  for (const raw of pointer.slice(1).split('/')) {
    const key = unescapePointer(raw);
    if (Array.isArray(value)) value = value[Number.parseInt(key, 10)];
    else if (isObject(value) && Object.hasOwn(value, key)) value = value[key];
    else return undefined;
  }
  return value;
}

const isSchema = (value: unknown): value is AgentJsonSchema => isObject(value) || typeof value === 'boolean';

function fail(file: string, what: string): never {
  throw new AgentContractError(`contract/agent/${file}: ${what}`);
}

function readToolDeclarations(tools: unknown): AgentToolDeclaration[] {
  if (!Array.isArray(tools) || tools.length === 0) fail('tools.json', '`tools` must be a non-empty array');
  const seen = new Set<string>();
  return tools.map((tool, index) => {
    if (!isObject(tool)) fail('tools.json', `tools[${index}] must be an object`);
    const { name, title, description, annotations, schemas } = tool;
    if (typeof name !== 'string' || !/^[a-z][a-z_]*$/.test(name))
      fail('tools.json', `tools[${index}].name must be a snake_case name`);
    if (seen.has(name)) fail('tools.json', `tool ${name} is declared twice`);
    seen.add(name);
    if (typeof title !== 'string' || typeof description !== 'string' || description === '')
      fail('tools.json', `tool ${name} needs a title and a description`);
    if (!isObject(annotations) || !Object.values(annotations).every((v) => typeof v === 'boolean'))
      fail('tools.json', `tool ${name}: annotations must map hint names to booleans`);
    if (!isObject(schemas) || typeof schemas['file'] !== 'string' || typeof schemas['pointer'] !== 'string')
      fail('tools.json', `tool ${name}: schemas must be { file, pointer }`);
    return {
      name,
      title,
      description,
      annotations: annotations as unknown as AgentToolAnnotations,
      schemas: { file: schemas['file'], pointer: schemas['pointer'] },
    };
  });
}

/** Per key profile, annotations that replace a tool's own (tools.json `profiles.<p>.annotations`). */
function readProfileAnnotations(
  profiles: unknown,
  toolNames: ReadonlySet<string>,
): Record<AgentKeyProfile, Readonly<Record<string, AgentToolAnnotations>>> {
  const out = {} as Record<AgentKeyProfile, Readonly<Record<string, AgentToolAnnotations>>>;
  for (const profile of AGENT_KEY_PROFILES) {
    const entry = isObject(profiles) ? profiles[profile] : undefined;
    const given = isObject(entry) ? entry['annotations'] : undefined;
    const table: Record<string, AgentToolAnnotations> = {};
    if (given !== undefined) {
      if (!isObject(given)) fail('tools.json', `profiles.${profile}.annotations must be an object`);
      for (const [tool, hints] of Object.entries(given)) {
        if (!toolNames.has(tool))
          fail('tools.json', `profiles.${profile}.annotations names unknown tool ${tool}`);
        if (!isObject(hints) || !Object.values(hints).every((v) => typeof v === 'boolean'))
          fail('tools.json', `profiles.${profile}.annotations.${tool} must map hint names to booleans`);
        table[tool] = hints as unknown as AgentToolAnnotations;
      }
    }
    out[profile] = Object.freeze(table);
  }
  return out;
}

function readProfiles(
  profiles: unknown,
  toolNames: ReadonlySet<string>,
): Record<AgentKeyProfile, readonly string[]> {
  if (!isObject(profiles)) fail('tools.json', '`profiles` must be an object');
  const out = {} as Record<AgentKeyProfile, readonly string[]>;
  for (const profile of AGENT_KEY_PROFILES) {
    const entry = profiles[profile];
    const tools = isObject(entry) ? entry['tools'] : undefined;
    if (!Array.isArray(tools) || !tools.every((t): t is string => typeof t === 'string'))
      fail('tools.json', `profiles.${profile}.tools must be an array of tool names`);
    const unknown = tools.filter((t) => !toolNames.has(t));
    if (unknown.length > 0)
      fail('tools.json', `profiles.${profile} names unknown tools: ${unknown.join(', ')}`);
    out[profile] = Object.freeze([...tools]);
  }
  const extra = Object.keys(profiles).filter((p) => !(AGENT_KEY_PROFILES as readonly string[]).includes(p));
  if (extra.length > 0) fail('tools.json', `profiles names unknown key profiles: ${extra.join(', ')}`);
  return out;
}

const EXECUTION_DEFINITION = '#/$defs/execution';

/**
 * The files with the definitions of execute's report shared, not restated: execute.json's
 * `failureExecution` gets the `$defs` of its `tool/outputSchema` (Log, Call, Truncated, Limits,
 * Report), and failures.json's `$defs/execution` becomes that `Report`, so the AgentFailure tools
 * advertise accepts an execute failure's `execution`. Report's references to its siblings are kept
 * by carrying the siblings along, rebased onto where they now live.
 */
function withSharedDefinitions(files: Readonly<Record<string, unknown>>): Readonly<Record<string, unknown>> {
  const execute = files['execute.json'];
  const definitions = valueAt(execute, '/tool/outputSchema/$defs');
  if (!isObject(execute) || !isObject(definitions)) return files;
  const shared: Record<string, unknown> = { ...files };
  const failureExecution = execute['failureExecution'];
  // Both are schema roots whose references read `#/$defs/...`: the definitions move as they are.
  if (isObject(failureExecution))
    shared['execute.json'] = { ...execute, failureExecution: { ...failureExecution, $defs: definitions } };
  const failures = files['failures.json'];
  const schema = valueAt(failures, '/schema');
  const slot = valueAt(schema, '/$defs/execution');
  const { Report: report, ...siblings } = definitions;
  if (isObject(failures) && isObject(schema) && isObject(slot) && isObject(report)) {
    const execution = rebaseRefs({ ...slot, ...report, $defs: siblings }, EXECUTION_DEFINITION);
    const defs = schema['$defs'] as Record<string, unknown>;
    shared['failures.json'] = { ...failures, schema: { ...schema, $defs: { ...defs, execution } } };
  }
  return shared;
}

/** The agent contract, loaded from a set of files (the checked-in ones by default). */
export interface AgentContract {
  readonly files: Readonly<Record<string, unknown>>;
  readonly tools: readonly AgentToolDeclaration[];
  /** Which tools each key profile may use (tools.json `profiles`), in declaration order. */
  readonly profiles: Readonly<Record<AgentKeyProfile, readonly string[]>>;
  /** Annotations a key profile replaces (tools.json `profiles.<p>.annotations`), by tool. */
  readonly profileAnnotations: Readonly<
    Record<AgentKeyProfile, Readonly<Record<string, AgentToolAnnotations>>>
  >;
  /** The failure kinds and codes (failures.json `kinds`). */
  readonly failureKinds: readonly { readonly kind: string; readonly code: string }[];
  /** The schema at `pointer` in `file`, or undefined when the file or the pointer does not exist. */
  schemaAt(file: string, pointer: string): AgentJsonSchema | undefined;
  /** The tool's schemas, or undefined while its part has not committed them. */
  toolSchemas(name: string): AgentToolSchemas | undefined;
  /** A validator for the schema at `pointer` in `file`, compiled once; undefined when there is none. */
  validator(file: string, pointer: string): AgentValidator | undefined;
  /** Checks a value against the AgentFailure union of failures.json. */
  checkFailure(value: unknown): Validation;
  /**
   * Every JSON Schema in the files: each value under an `inputSchema` or `outputSchema` key (tools,
   * operations, execute), and failures.json `/schema`, as `file#pointer`.
   */
  schemaLocations(): readonly { readonly file: string; readonly pointer: string }[];
  /** Compiles every schema of `schemaLocations()` now; throws on the first that does not compile. */
  compileAll(): void;
}

/**
 * Loads an agent contract. Throws `AgentContractError` when tools.json or failures.json is malformed.
 *
 * @example
 * ```ts
 * import { agentContract } from 'cca-kit/contract';
 * agentContract().profiles.reporting; // ['list_skills', 'read_skill', 'read_skill_file', 'execute']
 * const input = agentContract().validator('tools.json', '/tools/0/annotations');
 * ```
 */
export function loadAgentContract(declared: Readonly<Record<string, unknown>> = AGENT_FILES): AgentContract {
  const files = withSharedDefinitions(declared);
  const tools = files['tools.json'];
  const failures = files['failures.json'];
  if (!isObject(tools)) fail('tools.json', 'missing or not an object');
  if (!isObject(failures)) fail('failures.json', 'missing or not an object');
  const declarations = readToolDeclarations(tools['tools']);
  const profiles = readProfiles(tools['profiles'], new Set(declarations.map((t) => t.name)));
  const profileAnnotations = readProfileAnnotations(
    tools['profiles'],
    new Set(declarations.map((t) => t.name)),
  );
  const kinds = failures['kinds'];
  if (
    !Array.isArray(kinds) ||
    !kinds.every((k) => isObject(k) && typeof k['kind'] === 'string' && typeof k['code'] === 'string')
  )
    fail('failures.json', '`kinds` must be an array of { kind, code }');
  if (!isSchema(failures['schema'])) fail('failures.json', '`schema` must be a JSON Schema');

  // One ajv for the whole agent contract; the `x-` keywords found in the files are registered as
  // annotations, exactly as for the REST contract.
  const pseudoDocument = {
    openapi: '3.1.0',
    info: { title: 'cca-kit agent contract', version: '1' },
    paths: {},
    'x-agent-files': files,
  } as OpenAPIV3_1.Document;
  // Created at the first validator, not here: loading the contract (every mock start) then needs no ajv.
  let ajvInstance: ReturnType<typeof createAjv> | undefined;
  const ajv = () => {
    ajvInstance ??= createAjv(pseudoDocument);
    return ajvInstance;
  };
  const compiled = new Map<string, AgentValidator | undefined>();

  function schemaAt(file: string, pointer: string): AgentJsonSchema | undefined {
    const value = valueAt(files[file], pointer);
    return isSchema(value) ? value : undefined;
  }

  function validator(file: string, pointer: string): AgentValidator | undefined {
    const key = `${file}#${pointer}`;
    if (compiled.has(key)) return compiled.get(key);
    const schema = schemaAt(file, pointer);
    let made: AgentValidator | undefined;
    if (schema !== undefined) {
      const validate: ValidateFunction = ajv().compile(schema);
      made = {
        schema,
        check(value: unknown): Validation {
          if (validate(value)) return { ok: true };
          const issues: ValidationIssue[] = toIssues('body', validate.errors ?? [], value);
          return { ok: false, issues };
        },
      };
    }
    compiled.set(key, made);
    return made;
  }

  function schemaLocations(): { file: string; pointer: string }[] {
    const found: { file: string; pointer: string }[] = [{ file: 'failures.json', pointer: '/schema' }];
    const walk = (file: string, value: unknown, pointer: string): void => {
      if (Array.isArray(value)) {
        for (const [index, item] of value.entries()) walk(file, item, `${pointer}/${index}`);
        return;
      }
      if (!isObject(value)) return;
      for (const [key, child] of Object.entries(value)) {
        const at = `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
        if ((key === 'inputSchema' || key === 'outputSchema') && isSchema(child))
          found.push({ file, pointer: at });
        else if (key !== '$defs' && key !== 'properties') walk(file, child, at);
      }
    };
    for (const [file, value] of Object.entries(files)) walk(file, value, '');
    return found;
  }

  function toolSchemas(name: string): AgentToolSchemas | undefined {
    const tool = declarations.find((t) => t.name === name);
    if (tool === undefined) return undefined;
    const holder = valueAt(files[tool.schemas.file], tool.schemas.pointer);
    if (!isObject(holder) || !isSchema(holder['inputSchema']) || !isSchema(holder['outputSchema']))
      return undefined;
    return { inputSchema: holder['inputSchema'], outputSchema: holder['outputSchema'] };
  }

  return {
    files,
    tools: declarations,
    profiles,
    profileAnnotations,
    failureKinds: kinds as { kind: string; code: string }[],
    schemaAt,
    toolSchemas,
    validator,
    checkFailure(value) {
      const v = validator('failures.json', '/schema');
      return v === undefined ? { ok: true } : v.check(value);
    },
    schemaLocations,
    compileAll() {
      for (const { file, pointer } of schemaLocations()) validator(file, pointer);
    },
  };
}

let defaultContract: AgentContract | undefined;

/** The checked-in agent contract, loaded on first use and shared. */
export function agentContract(): AgentContract {
  defaultContract ??= loadAgentContract();
  return defaultContract;
}
