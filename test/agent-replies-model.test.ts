/**
 * The reply lifecycle as a model: random sequences of tool calls, admin actions and clock moves
 * (fast-check `fc.commands`) against a small model, checking after every step that only documented
 * moves happened (contract/agent/replies.json), that nothing but a person or the admin approves, and
 * that each delivered request is exactly one AGENT message of its action. Also: the contract data is
 * the code's, and every answer fits the tools' output schemas.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import repliesJson from '../contract/agent/replies.json' with { type: 'json' };
import {
  DELIVERY_MS,
  isAllowedMove,
  MAX_TEXT_CODE_POINTS,
  PHASE_OF,
  QUEUE_REVIEW_MS,
  REPLY_MOVES,
  REPLY_STATES,
  type ReplyState,
  TERMINAL_STATES,
} from '../mocks/agent/replies/index.ts';
import type { Outcome } from '../mocks/agent/types.ts';
import { findRow, orgData } from '../mocks/engine/records/state.ts';
import { actionDetail } from '../mocks/engine/records/view.ts';
import { AGENT_FILES, loadAgentContract } from '../src/contract/agent.ts';
import { ORG, type ReplyHarness, replyHarness, uuidOf } from './support/reply-harness.ts';

const contract = loadAgentContract({ ...AGENT_FILES, 'replies.json': repliesJson });

describe('contract/agent/replies.json is the code', () => {
  it('AGENT-MCP-REPLY-STATES-SEPARATE: the states, phases, moves, timing and limits in the contract are the ones implemented', () => {
    expect(repliesJson.states.map((s) => s.name)).toEqual([...REPLY_STATES]);
    for (const state of repliesJson.states) {
      expect(state.phase).toBe(PHASE_OF[state.name as ReplyState]);
      expect(state.terminal).toBe(TERMINAL_STATES.has(state.name as ReplyState));
    }
    expect(repliesJson.moves).toEqual(REPLY_MOVES.map((m) => ({ ...m, by: [...m.by] })));
    expect(repliesJson.timing).toEqual({ queueReviewMs: QUEUE_REVIEW_MS, deliveryMs: DELIVERY_MS });
    expect(repliesJson.limits.textMaxCodePoints).toBe(MAX_TEXT_CODE_POINTS);
    // Approval, queue review and delivery are different states with different phases.
    expect(
      new Set(['awaiting_approval', 'queued', 'delivering'].map((s) => PHASE_OF[s as ReplyState])).size,
    ).toBe(3);
  });

  it('every schema of the three tools compiles in the project’s strict ajv layer', () => {
    for (const tool of ['prepare_reply', 'review_reply', 'open_reply']) {
      for (const which of ['inputSchema', 'outputSchema']) {
        expect(contract.validator('replies.json', `/tools/${tool}/${which}`)).toBeDefined();
      }
    }
  });
});

/** The model: what each request should be, as far as the commands tell. */
interface Model {
  readonly states: Map<string, ReplyState>;
  readonly actionOf: Map<string, string>;
}

interface Real {
  readonly h: ReplyHarness;
  readonly actions: readonly string[];
}

const outputValidator = contract.validator('replies.json', '/tools/open_reply/outputSchema');
const prepareInput = contract.validator('replies.json', '/tools/prepare_reply/inputSchema');

function checkAnswer(answer: Outcome<unknown>): void {
  if (answer.ok) {
    expect(outputValidator?.check(answer.value)).toEqual({ ok: true });
  } else {
    expect(contract.checkFailure(answer.failure)).toEqual({ ok: true });
  }
}

/** After each command: the real states are the model's, and every move in every history is documented. */
function checkInvariants(model: Model, real: Real): void {
  const requests = real.h.engine.state.replies.byOrganization.get(ORG) ?? new Map();
  expect(new Set(requests.keys())).toEqual(new Set(model.states.keys()));
  for (const [requestId, request] of requests) {
    expect(request.state).toBe(model.states.get(requestId));
    for (const move of request.history) {
      expect(isAllowedMove(move.from, move.to, move.by), `${move.from} → ${move.to} by ${move.by}`).toBe(
        true,
      );
      if (move.to === 'queued' || move.to === 'rejected') expect(['person', 'admin']).toContain(move.by);
    }
  }
  // Each delivered request is exactly one AGENT message of its action; nothing else added one.
  const org = orgData(real.h.engine.state.data, ORG);
  for (const actionId of real.actions) {
    const detail = actionDetail(org, findRow(org, actionId)) as { messages: { id: string }[] };
    const replies = detail.messages.filter((m) => m.id.startsWith('reply-')).map((m) => m.id.slice(6));
    const delivered = [...model.states]
      .filter(([id, state]) => state === 'delivered' && model.actionOf.get(id) === actionId)
      .map(([id]) => id);
    expect(replies.sort()).toEqual(delivered.sort());
  }
}

type Cmd = fc.AsyncCommand<Model, Real>;

/** Outcomes forced on requests not yet delivering, for the run in progress (cleared before each run). */
const plannedOutcomes = new Map<string, 'failed' | 'unknown'>();

const TEXT = 'Thanks for your patience.';

class Prepare implements Cmd {
  constructor(
    readonly n: number,
    readonly action: number,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const requestId = uuidOf(this.n);
    const actionId = real.actions[this.action] ?? '';
    const args = { actionId, text: TEXT, requestId };
    expect(prepareInput?.check(args)).toEqual({ ok: true });
    const answer = await real.h.call('prepare_reply', args);
    checkAnswer(answer);
    const known = model.states.get(requestId);
    if (known === undefined) {
      model.states.set(requestId, 'draft');
      model.actionOf.set(requestId, actionId);
      expect(answer.ok).toBe(true);
    } else if (model.actionOf.get(requestId) !== actionId) {
      expect(answer.ok ? 'ok' : answer.failure.kind).toBe('conflict');
    } else {
      expect(answer.ok ? 'ok' : answer.failure.kind).toBe(
        known === 'unknown' ? 'unknown_delivery_state' : 'ok',
      );
    }
    checkInvariants(model, real);
  }
  toString = () => `prepare(${this.n}, action ${this.action})`;
}

class Review implements Cmd {
  constructor(readonly n: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const requestId = uuidOf(this.n);
    const answer = await real.h.call('review_reply', { requestId });
    checkAnswer(answer);
    expect(answer.ok).toBe(false);
    const known = model.states.get(requestId);
    const kind = answer.ok ? 'ok' : answer.failure.kind;
    if (known === undefined) expect(kind).toBe('not_found');
    else if (known === 'draft' || known === 'awaiting_approval') {
      expect(kind).toBe('approval_required');
      model.states.set(requestId, 'awaiting_approval');
    } else expect(kind).toBe(known === 'unknown' ? 'unknown_delivery_state' : 'conflict');
    checkInvariants(model, real);
  }
  toString = () => `review(${this.n})`;
}

class Open implements Cmd {
  constructor(readonly n: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const requestId = uuidOf(this.n);
    const answer = await real.h.call('open_reply', { requestId });
    checkAnswer(answer);
    const known = model.states.get(requestId);
    if (known === undefined) expect(answer.ok).toBe(false);
    else expect(answer.ok && (answer.value as { state: string }).state).toBe(known);
    checkInvariants(model, real);
  }
  toString = () => `open(${this.n})`;
}

class Decide implements Cmd {
  constructor(
    readonly n: number,
    readonly decision: 'approve' | 'reject',
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const requestId = uuidOf(this.n);
    const answer = await real.h.admin('POST', `/__mock/replies/${ORG}/${requestId}/${this.decision}`);
    const known = model.states.get(requestId);
    if (known === undefined) expect(answer.status).toBe(404);
    else if (known !== 'awaiting_approval') expect(answer.status).toBe(409);
    else {
      expect(answer.status).toBe(200);
      model.states.set(requestId, this.decision === 'approve' ? 'queued' : 'rejected');
    }
    checkInvariants(model, real);
  }
  toString = () => `${this.decision}(${this.n})`;
}

class Force implements Cmd {
  constructor(
    readonly n: number,
    readonly outcome: 'failed' | 'unknown',
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const requestId = uuidOf(this.n);
    const answer = await real.h.admin('POST', `/__mock/replies/${ORG}/${requestId}/outcome`, {
      outcome: this.outcome,
    });
    const known = model.states.get(requestId);
    if (known === undefined) expect(answer.status).toBe(404);
    else if (TERMINAL_STATES.has(known)) expect(answer.status).toBe(409);
    else {
      expect(answer.status).toBe(200);
      if (known === 'delivering') model.states.set(requestId, this.outcome);
      else plannedOutcomes.set(requestId, this.outcome);
    }
    checkInvariants(model, real);
  }
  toString = () => `force(${this.n}, ${this.outcome})`;
}

class Tick implements Cmd {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.h.engine.clock.advance(this.ms);
    // Every queued or delivering request moves on by the clock as far as the elapsed time allows;
    // the model does not track times, so it reads the states that are due from the real requests'
    // histories and checks them against the allowed moves (checkInvariants) instead.
    await real.h.call('open_reply', { requestId: uuidOf(0) });
    const requests = real.h.engine.state.replies.byOrganization.get(ORG) ?? new Map();
    for (const [requestId, request] of requests) {
      const before = model.states.get(requestId);
      if (before === 'queued' || before === 'delivering') {
        const expectedEnd = plannedOutcomes.get(requestId) ?? 'delivered';
        expect([before, 'delivering', expectedEnd]).toContain(request.state);
        model.states.set(requestId, request.state);
      }
    }
    checkInvariants(model, real);
  }
  toString = () => `tick(${this.ms})`;
}

describe('the reply lifecycle under random commands', () => {
  it('AGENT-MCP-REPLY-HUMAN-MUST-CONFIRM, AGENT-MCP-OPEN-REPLY-READS-EXISTING: only documented moves happen; tools alone never deliver; delivered = one AGENT message', async () => {
    const h = replyHarness();
    const actions = h.unresponded().slice(0, 3);
    expect(actions.length).toBe(3);
    const ids = fc.integer({ min: 1, max: 4 });
    const commands = [
      fc.tuple(ids, fc.integer({ min: 0, max: 2 })).map(([n, a]) => new Prepare(n, a)),
      ids.map((n) => new Review(n)),
      ids.map((n) => new Open(n)),
      fc.tuple(ids, fc.constantFrom('approve' as const, 'reject' as const)).map(([n, d]) => new Decide(n, d)),
      fc.tuple(ids, fc.constantFrom('failed' as const, 'unknown' as const)).map(([n, o]) => new Force(n, o)),
      fc.constantFrom(0, 500, 1000, 1500, 2000, 5000).map((ms) => new Tick(ms)),
    ];
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 40 }), async (cmds) => {
        h.engine.admin.reset();
        plannedOutcomes.clear();
        const model: Model = { states: new Map(), actionOf: new Map() };
        await fc.asyncModelRun(() => ({ model, real: { h, actions } }), cmds);
      }),
      { numRuns: 60, seed: 11 },
    );
    expect(h.engine.selfCheckFailures).toEqual([]);
    expect(h.engine.unexpectedErrors).toEqual([]);
  });

  it('AGENT-MCP-NEVER-APPROVED-ON-USER-BEHALF: tool calls alone, in any order with any clock, never leave draft or awaiting_approval', async () => {
    const h = replyHarness();
    const [actionId = ''] = h.unresponded();
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom('prepare_reply', 'review_reply', 'open_reply') as fc.Arbitrary<
              'prepare_reply' | 'review_reply' | 'open_reply'
            >,
            fc.integer({ min: 1, max: 3 }),
            fc.nat(10_000),
          ),
          { maxLength: 30 },
        ),
        async (calls) => {
          h.engine.admin.reset();
          for (const [tool, n, ms] of calls) {
            await h.call(
              tool,
              tool === 'prepare_reply'
                ? { actionId, text: TEXT, requestId: uuidOf(n) }
                : { requestId: uuidOf(n) },
            );
            h.engine.clock.advance(ms);
          }
          for (const request of h.engine.state.replies.byOrganization.get(ORG)?.values() ?? []) {
            expect(['draft', 'awaiting_approval']).toContain(request.state);
          }
        },
      ),
      { numRuns: 60, seed: 12 },
    );
  });
});
