import { replyLaws } from './agent/replies.ts';
import { describeAgentLaws } from './agent/vitest.ts';

describeAgentLaws('replies (writes; the suite never approves a reply)', replyLaws);
