/**
 * The tools a connection may use: the tools the parts export (skills, execute, replies), joined with
 * their declarations and schemas in the agent contract, and filtered by the key's profile
 * (contract/agent/tools.json `profiles`). A tool whose part has not landed (no handler) or whose schemas
 * are not committed is simply not served: tools/list never shows a tool that always fails.
 */
import type {
  AgentContract,
  AgentJsonSchema,
  AgentToolDeclaration,
  AgentValidator,
} from '../../../src/contract/agent.ts';
import type { AgentIdentity, AgentTool } from '../types.ts';
import { advertisedOutputSchema } from './advertised-schema.ts';

/** A tool ready to serve: declaration, schemas, compiled validators and its handler. */
export interface ServedTool {
  readonly declaration: AgentToolDeclaration;
  readonly inputSchema: AgentJsonSchema;
  readonly outputSchema: AgentJsonSchema;
  /** What tools/list shows: the success output schema, made portable (see advertised-schema.ts). */
  readonly advertisedOutputSchema: Readonly<Record<string, unknown>>;
  readonly input: AgentValidator;
  readonly output: AgentValidator;
  readonly handler: AgentTool;
}

/** Every servable tool, in the contract's declaration order. */
export interface ToolSet {
  readonly served: readonly ServedTool[];
  /** The tools this identity may use (its profile's row), in declaration order. */
  forIdentity(identity: AgentIdentity): readonly ServedTool[];
  /** Declared tools not served yet, with the reason (for `cca-kit mcp --list-tools` and tests). */
  readonly pending: readonly { readonly name: string; readonly reason: string }[];
}

/**
 * Joins handlers with the contract. Throws on a handler for a tool the contract does not declare (a
 * programming error: every tool is contract first).
 */
export function createToolSet(contract: AgentContract, handlers: readonly AgentTool[]): ToolSet {
  const byName = new Map<string, AgentTool>();
  for (const handler of handlers) {
    if (!contract.tools.some((t) => t.name === handler.name))
      throw new Error(
        `Tool "${handler.name}" has a handler but is not declared in contract/agent/tools.json (declare it first)`,
      );
    if (byName.has(handler.name)) throw new Error(`Tool "${handler.name}" has two handlers`);
    byName.set(handler.name, handler);
  }
  const served: ServedTool[] = [];
  const pending: { name: string; reason: string }[] = [];
  for (const declaration of contract.tools) {
    const handler = byName.get(declaration.name);
    const schemas = contract.toolSchemas(declaration.name);
    const where = `contract/agent/${declaration.schemas.file}#${declaration.schemas.pointer}`;
    if (handler === undefined) {
      pending.push({ name: declaration.name, reason: 'no handler exported yet' });
      continue;
    }
    if (schemas === undefined) {
      pending.push({ name: declaration.name, reason: `no inputSchema/outputSchema at ${where}` });
      continue;
    }
    const { file, pointer } = declaration.schemas;
    const input = contract.validator(file, `${pointer}/inputSchema`);
    const output = contract.validator(file, `${pointer}/outputSchema`);
    if (input === undefined || output === undefined) {
      pending.push({ name: declaration.name, reason: `schemas at ${where} do not compile` });
      continue;
    }
    served.push({
      declaration,
      ...schemas,
      advertisedOutputSchema: advertisedOutputSchema(schemas.outputSchema),
      input,
      output,
      handler,
    });
  }
  const byProfile = new Map<string, readonly ServedTool[]>();
  return {
    served,
    pending,
    forIdentity(identity) {
      const known = byProfile.get(identity.profile);
      if (known !== undefined) return known;
      const allowed = new Set(contract.profiles[identity.profile]);
      // Annotations true to the key: the profile's own replace the tool's (execute is read-only for
      // a key that cannot write, destructive for one that can delete).
      const own = contract.profileAnnotations[identity.profile];
      const list = served
        .filter((tool) => allowed.has(tool.declaration.name))
        .map((tool) => {
          const hints = own[tool.declaration.name];
          return hints === undefined
            ? tool
            : {
                ...tool,
                declaration: {
                  ...tool.declaration,
                  annotations: { ...tool.declaration.annotations, ...hints },
                },
              };
        });
      byProfile.set(identity.profile, list);
      return list;
    },
  };
}
