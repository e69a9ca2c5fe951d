import { agreeLaws } from './agent/agree.ts';
import { docsLaws } from './agent/docs.ts';
import { replyLaws } from './agent/replies.ts';
import { savedSearchLaws } from './agent/saved-searches.ts';
import { describeAgentLaws } from './agent/vitest.ts';

describeAgentLaws(
  'documentation, both interfaces, saved searches, replies (the suite never approves a reply)',
  [...docsLaws, ...agreeLaws, ...savedSearchLaws, ...replyLaws],
);
