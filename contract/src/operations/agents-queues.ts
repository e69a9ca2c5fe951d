/** Agents and queues (sections 4.5 to 4.7). */
import * as ex from '../examples.ts';
import { str } from '../schema.ts';
import {
  badQuery,
  err,
  type Located,
  lastWeek,
  lastWeekEnd,
  malformedWindow,
  malformedWindowParams,
  window,
} from './shared.ts';

export const agentQueueOperations: readonly Located[] = [
  {
    method: 'get',
    path: '/v0/agents',
    operationId: 'listAgents',
    summary: 'List agents with their metrics',
    description: 'Agent list entries with metrics and workload for the window.',
    tag: 'Agents',
    scope: 'read',
    parameters: malformedWindowParams(),
    success: {
      status: 200,
      description: 'Agents.',
      schema: 'AgentListResponse',
      examples: { lastWeek: ex.agentList },
    },
    errors: { 400: badQuery(malformedWindow) },
  },
  {
    method: 'get',
    path: '/v0/agents/{id}',
    operationId: 'getAgent',
    summary: 'Read one agent',
    description: 'Aggregated metrics, current workload and queues of one agent.',
    tag: 'Agents',
    scope: 'read',
    parameters: [
      ...window(lastWeek, lastWeekEnd),
      {
        name: 'id',
        in: 'path',
        description: 'Agent identifier.',
        schema: str({ minLength: 1 }),
        examples: { lastWeek: '000417', notFound: 'agent-unknown' },
      },
    ],
    success: {
      status: 200,
      description: 'The agent.',
      schema: 'AgentDetailResponse',
      examples: { lastWeek: ex.agentDetail },
    },
    errors: {
      400: badQuery(malformedWindow),
      404: {
        description: 'No agent with this id in the key’s organization.',
        schema: 'ErrorBody',
        examples: { notFound: err('Agent agent-unknown not found') },
      },
    },
  },
  {
    method: 'get',
    path: '/v0/queues',
    operationId: 'listQueues',
    summary: 'List queues with their metrics',
    description:
      'Queue entries (a null queueId stands for no queue) with metrics and workload for the window.',
    tag: 'Queues',
    scope: 'read',
    parameters: malformedWindowParams(),
    success: {
      status: 200,
      description: 'Queues.',
      schema: 'QueueListResponse',
      examples: { lastWeek: ex.queueList },
    },
    errors: { 400: badQuery(malformedWindow) },
  },
];
