/**
 * The agent suite finds real faults: each faulty agent deployment (our mock behind a fault proxy) is
 * detected naming the right rule, and the controls (extra unknown fields, slower answers) pass the
 * whole agent suite with nothing left unrun. Split in two files so vitest runs them in parallel.
 */
import { describe, expect, it } from 'vitest';
import { AGENT_MUTANTS } from '../suites/mutations/agent-harness.ts';
import { describeAgentMutants } from '../suites/mutations/agent-vitest.ts';
import { scaled } from './support/timeouts.ts';

describe('agent mutation harness', () => {
  it('has at least 15 faults and 2 controls', () => {
    expect(AGENT_MUTANTS.filter((m) => m.control !== true).length).toBeGreaterThanOrEqual(15);
    expect(AGENT_MUTANTS.filter((m) => m.control === true).length).toBeGreaterThanOrEqual(2);
  });
});

describeAgentMutants(0, 2, scaled(120_000));
