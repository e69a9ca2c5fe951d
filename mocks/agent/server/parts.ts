/**
 * The parts of the agent interface that plug into the server by export: the skills
 * (`mocks/agent/skills/`), `execute` over the operations (`sandbox/`, `operations/`) and the replies
 * (`replies/`). Each part is listed here once its module exists; the server registers whatever this
 * returns, and contract/agent/tools.json decides who sees it.
 */
import { replyPages, replyTools } from '../replies/index.ts';
import type { AgentPageHandler, AgentTool } from '../types.ts';

export interface AgentParts {
  readonly tools: readonly AgentTool[];
  /** HTTP pages of the parts (the reply confirmation page), served on the mock's origin. */
  readonly pages: readonly AgentPageHandler[];
  /** Releases what the parts hold (the sandbox's worker pool). */
  close(): Promise<void>;
}

/** Something a part may hand back that holds resources (a worker pool). */
interface Closable {
  close(): Promise<void> | void;
}

const isClosable = (value: unknown): value is Closable =>
  typeof value === 'object' && value !== null && typeof (value as Closable).close === 'function';

/** The parts available in this build, freshly created (one worker pool per agent server). */
export function createAgentParts(): AgentParts {
  const tools: AgentTool[] = [...replyTools];
  const pages: AgentPageHandler[] = [replyPages];
  return {
    tools,
    pages,
    async close() {
      await Promise.allSettled(
        tools.filter((t): t is AgentTool & Closable => isClosable(t)).map((tool) => tool.close()),
      );
    },
  };
}
