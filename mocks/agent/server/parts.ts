/**
 * The parts of the agent interface that plug into the server by export: the skills
 * (`mocks/agent/skills/`), `execute` over the operations (`sandbox/`, `operations/`) and the replies
 * (`replies/`). Each part is listed here once its module exists; the server registers whatever this
 * returns, and contract/agent/tools.json decides who sees it.
 */
import { catalogKey } from '../operations/catalog.ts';
import { createOperationRegistry } from '../operations/index.ts';
import { replyPages, replyTools } from '../replies/index.ts';
import { createExecuteTool } from '../sandbox/index.ts';
import type { SandboxOptions } from '../sandbox/limits.ts';
import { createSkillTools } from '../skills/index.ts';
import type { AgentPageHandler, AgentTool } from '../types.ts';

export interface AgentParts {
  readonly tools: readonly AgentTool[];
  /** HTTP pages of the parts (the reply confirmation page), served on the mock's origin. */
  readonly pages: readonly AgentPageHandler[];
  /** Releases what the parts hold (the sandbox's worker pool). */
  close(): Promise<void>;
}

export interface AgentPartsOptions {
  /** Limits of the execute sandbox (defaults: `DEFAULT_SANDBOX_LIMITS`). */
  readonly sandbox?: SandboxOptions;
}

/**
 * `execute`, its worker pool started at the first call: a mock whose agents never run a script (most
 * REST tests, every REST-only user) starts no worker thread. The pool's `spec()` serves the catalog
 * of the calling engine's choices (`catalogKey`): one pool per catalog variant, in practice one.
 */
function lazyExecuteTool(options: SandboxOptions): AgentTool & { close(): Promise<void> } {
  const tools = new Map<string, ReturnType<typeof createExecuteTool>>();
  return {
    name: 'execute',
    handle(ctx, args) {
      const choices = ctx.engine.options.choices;
      const key = catalogKey(choices);
      let tool = tools.get(key);
      if (tool === undefined) {
        tool = createExecuteTool(createOperationRegistry({ choices }), options);
        tools.set(key, tool);
      }
      return tool.handle(ctx, args);
    },
    close: async () => {
      await Promise.all([...tools.values()].map((tool) => tool.close()));
    },
  };
}

let skillTools: readonly AgentTool[] | undefined;

/** The skill tools, read from the shipped playbooks once per process (they never change while it runs). */
function sharedSkillTools(): readonly AgentTool[] {
  skillTools ??= createSkillTools();
  return skillTools;
}

/** The parts available in this build, freshly created (one worker pool per agent server, at first use). */
export function createAgentParts(options: AgentPartsOptions = {}): AgentParts {
  const execute = lazyExecuteTool(options.sandbox ?? {});
  return {
    tools: [...sharedSkillTools(), execute, ...replyTools],
    pages: [replyPages],
    close: () => execute.close(),
  };
}
