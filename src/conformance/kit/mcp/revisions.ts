/**
 * Which MCP revisions a deployment offers, asked the way the agent laws will speak them: the
 * official SDK client connects once per revision (an `initialize`d 2025-11-25 session; the stateless
 * 2026-07-28 revision pinned through `server/discover`), and a revision whose connect succeeds is
 * offered. The sessions opened are closed at once.
 */
import type { Auth } from '../../../client/types.ts';
import { MCP_REVISIONS, type McpEndpoint, type McpRevision } from './endpoint.ts';
import { McpSession } from './session.ts';

/** What `--mcp-revision` / `target.mcpRevision` accepts: one revision, or both. */
export const MCP_REVISION_CHOICES = [...MCP_REVISIONS, 'both'] as const;
export type McpRevisionChoice = (typeof MCP_REVISION_CHOICES)[number];

/** What was asked of one revision: offered, or why not (the connect's error). */
export interface RevisionProbe {
  readonly revision: McpRevision;
  readonly offered: boolean;
  readonly problem?: string;
}

/**
 * Connects once per revision with the key of `auth` and reports each (in `MCP_REVISIONS` order).
 *
 * @example
 * ```ts
 * const probes = await probeRevisions({ url: 'http://127.0.0.1:4010/mcp', client }, 'read');
 * const offered = probes.filter((p) => p.offered).map((p) => p.revision);
 * ```
 */
export async function probeRevisions(endpoint: McpEndpoint, auth: Auth): Promise<RevisionProbe[]> {
  const probes: RevisionProbe[] = [];
  for (const revision of MCP_REVISIONS) {
    try {
      const session = await McpSession.open({ ...endpoint, revision }, auth);
      await session.close();
      probes.push({ revision, offered: true });
    } catch (error) {
      probes.push({
        revision,
        offered: false,
        problem: error instanceof Error ? error.message : String(error),
      });
    }
  }
  return probes;
}

/**
 * The revisions the agent laws are run over: the one asked for, both, or (no choice) every revision
 * the deployment offers. A deployment that offers none is judged over 2025-11-25 (its laws then say
 * why they could not connect) rather than not at all.
 */
export function revisionsToRun(
  choice: McpRevisionChoice | undefined,
  probes: readonly RevisionProbe[],
): McpRevision[] {
  if (choice === 'both') return [...MCP_REVISIONS];
  if (choice !== undefined) return [choice];
  const offered = probes.filter((p) => p.offered).map((p) => p.revision);
  return offered.length > 0 ? offered : ['2025-11-25'];
}
