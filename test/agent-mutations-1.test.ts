import { describeAgentMutants } from '../suites/mutations/agent-vitest.ts';
import { scaled } from './support/timeouts.ts';

describeAgentMutants(1, 2, scaled(120_000));
