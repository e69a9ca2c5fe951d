/**
 * The agent interface laws (spec 4.18), group `agent`: one implementation run by `cca-kit conform`
 * (the agent interface at `--mcp-url`, default `<base-url>/mcp`; `--skip agent` leaves it out) and by
 * the `suites/agent*.test.ts` vitest suites.
 */
import type { Law } from '../../src/conformance/kit/law.ts';
import { agreeLaws } from './agree.ts';
import { docsLaws } from './docs.ts';
import { executeLaws } from './execute.ts';
import { metamorphicLaws } from './metamorphic.ts';
import { pagingLaws } from './paging.ts';
import { replyLaws } from './replies.ts';
import { savedSearchLaws } from './saved-searches.ts';
import { skillLaws } from './skills.ts';
import { toolLaws } from './tools.ts';
import { transportLaws } from './transport.ts';

export const AGENT_GROUP = 'agent';

/** Every agent law, cheap read-only checks first, writes last. */
export const agentLaws: readonly Law[] = [
  ...docsLaws,
  ...transportLaws,
  ...toolLaws,
  ...skillLaws,
  ...executeLaws,
  ...pagingLaws,
  ...metamorphicLaws,
  ...agreeLaws,
  ...savedSearchLaws,
  ...replyLaws,
];
