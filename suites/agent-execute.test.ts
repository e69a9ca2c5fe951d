import { executeLaws } from './agent/execute.ts';
import { skillLaws } from './agent/skills.ts';
import { describeAgentLaws } from './agent/vitest.ts';

describeAgentLaws('skills and execute', [...skillLaws, ...executeLaws]);
