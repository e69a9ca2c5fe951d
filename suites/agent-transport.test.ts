import { toolLaws } from './agent/tools.ts';
import { transportLaws } from './agent/transport.ts';
import { describeAgentLaws } from './agent/vitest.ts';

describeAgentLaws('transport, auth and tools', [...transportLaws, ...toolLaws]);
