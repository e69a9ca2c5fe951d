import { describeAgentMutants } from '../suites/mutations/agent-vitest.ts';

describeAgentMutants(1, 2);
