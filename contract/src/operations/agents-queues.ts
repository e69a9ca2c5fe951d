/** Agents and queues (sections 4.5 to 4.7). */
import * as ex from '../examples.ts';
import { str } from '../schema.ts';
import { err, type Located, windowedReport } from './shared.ts';

export const agentQueueOperations: readonly Located[] = [
  windowedReport({
    path: '/v0/agents',
    operationId: 'listAgents',
    summary: 'List agents with their metrics',
    description: 'Agent list entries with metrics and workload for the window.',
    tag: 'Agents',
    schema: 'AgentListResponse',
    example: ex.agentList,
    successDescription: 'Agents.',
  }),
  windowedReport({
    path: '/v0/agents/{id}',
    operationId: 'getAgent',
    summary: 'Read one agent',
    description: 'Aggregated metrics, current workload and queues of one agent.',
    tag: 'Agents',
    schema: 'AgentDetailResponse',
    example: ex.agentDetail,
    successDescription: 'The agent.',
    parameters: [
      {
        name: 'id',
        in: 'path',
        description: 'Agent identifier.',
        schema: str({ minLength: 1 }),
        examples: { lastWeek: '000417', notFound: 'agent-unknown' },
      },
    ],
    errors: {
      404: {
        description: 'No agent with this id in the key’s organization.',
        schema: 'ErrorBody',
        examples: { notFound: err('Agent agent-unknown not found') },
      },
    },
  }),
  windowedReport({
    path: '/v0/queues',
    operationId: 'listQueues',
    summary: 'List queues with their metrics',
    description:
      'Queue entries (a null queueId stands for no queue) with metrics and workload for the window.',
    tag: 'Queues',
    schema: 'QueueListResponse',
    example: ex.queueList,
    successDescription: 'Queues.',
  }),
];
