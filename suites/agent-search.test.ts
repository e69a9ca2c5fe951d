import { metamorphicLaws } from './agent/metamorphic.ts';
import { pagingLaws } from './agent/paging.ts';
import { describeAgentLaws } from './agent/vitest.ts';

describeAgentLaws('cursor paging and metamorphic laws', [...pagingLaws, ...metamorphicLaws]);
