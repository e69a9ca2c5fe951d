import { describeAgentMutants } from './support/agent-mutants.ts';

describeAgentMutants(1, 2);
