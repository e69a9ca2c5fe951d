import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { AgentFailure, AgentFailureKind } from '../../mocks/agent/types.ts';
import {
  AGENT_FILES,
  AGENT_KEY_PROFILES,
  AgentContractError,
  agentContract,
  loadAgentContract,
  valueAt,
} from './agent.ts';

const folder = fileURLToPath(new URL('../../contract/agent/', import.meta.url));

describe('contract/agent', () => {
  it('loads every file of contract/agent/ (a new file cannot be forgotten)', () => {
    // audit.json is the audit of the spec's agent sentences (docs/rules.md), not part of the interface.
    const onDisk = readdirSync(folder)
      .filter((name) => name.endsWith('.json') && name !== 'audit.json')
      .sort();
    expect(Object.keys(AGENT_FILES).sort()).toEqual(onDisk);
  });

  it('compiles every committed schema in strict mode (tools, operations, execute, failures)', () => {
    const contract = agentContract();
    const files = new Set(contract.schemaLocations().map((l) => l.file));
    for (const file of ['failures.json', 'operations.json', 'replies.json', 'skills.json', 'execute.json'])
      expect(files.has(file), file).toBe(true);
    expect(() => contract.compileAll()).not.toThrow();
    for (const tool of contract.tools) expect(contract.toolSchemas(tool.name), tool.name).toBeDefined();
  });

  it('declares a tool row for every key profile, naming only declared tools', () => {
    const contract = agentContract();
    for (const profile of AGENT_KEY_PROFILES) expect(Array.isArray(contract.profiles[profile])).toBe(true);
    expect(contract.profiles.read_write).toEqual(contract.tools.map((t) => t.name));
    expect(contract.profiles.reporting).not.toContain('prepare_reply');
    expect(contract.profiles.write).not.toContain('execute');
    expect(contract.profiles.import).not.toContain('execute');
  });

  it('failures.json names exactly the kinds of AgentFailure in mocks/agent/types.ts', () => {
    const kinds: Record<AgentFailureKind, true> = {
      invalid_input: true,
      forbidden: true,
      approval_required: true,
      unknown_delivery_state: true,
      not_found: true,
      conflict: true,
      limit_exceeded: true,
      script_error: true,
      busy: true,
    };
    expect(
      agentContract()
        .failureKinds.map((k) => k.kind)
        .sort(),
    ).toEqual(Object.keys(kinds).sort());
    expectTypeOf<AgentFailure['code']>().toEqualTypeOf<
      | 'INVALID_INPUT'
      | 'FORBIDDEN'
      | 'APPROVAL_REQUIRED'
      | 'UNKNOWN_DELIVERY_STATE'
      | 'NOT_FOUND'
      | 'CONFLICT'
      | 'LIMIT_EXCEEDED'
      | 'SCRIPT_ERROR'
      | 'BUSY'
    >();
  });

  it('the failure schema accepts each kind and refuses one missing its field, naming it', () => {
    const contract = agentContract();
    const good: AgentFailure[] = [
      { kind: 'invalid_input', code: 'INVALID_INPUT', field: '/limit', message: 'limit must be <= 100' },
      { kind: 'forbidden', code: 'FORBIDDEN', missingScope: 'write', message: 'needs write' },
      {
        kind: 'approval_required',
        code: 'APPROVAL_REQUIRED',
        requestId: 'r',
        approvalUrl: null,
        message: 'm',
      },
      { kind: 'busy', code: 'BUSY', retryAfterMs: 100, message: 'm' },
    ];
    for (const failure of good) expect(contract.checkFailure(failure)).toEqual({ ok: true });
    const bad = contract.checkFailure({ kind: 'forbidden', code: 'FORBIDDEN', message: 'm' });
    expect(bad.ok).toBe(false);
    expect(
      contract.checkFailure({ kind: 'forbidden', code: 'INVALID_INPUT', missingScope: 'w', message: 'm' }).ok,
    ).toBe(false);
  });

  it('refuses a malformed tools.json with a message naming the file and the fault', () => {
    const files = { ...AGENT_FILES, 'tools.json': { profiles: {}, tools: [] } };
    expect(() => loadAgentContract(files)).toThrow(AgentContractError);
    expect(() => loadAgentContract(files)).toThrow(/tools\.json: `tools` must be a non-empty array/);
    const unknownTool = {
      ...AGENT_FILES,
      'tools.json': {
        ...(AGENT_FILES['tools.json'] as object),
        profiles: {
          reporting: { tools: ['rm_rf'] },
          write: { tools: [] },
          read_write: { tools: [] },
          import: { tools: [] },
        },
      },
    };
    expect(() => loadAgentContract(unknownTool)).toThrow(/profiles\.reporting names unknown tools: rm_rf/);
  });

  it('compileAll refuses a schema that does not compile in strict mode, anywhere in the files', () => {
    const broken = {
      ...AGENT_FILES,
      'operations.json': { operations: [{ id: 'x', inputSchema: { type: 'nonsense' }, outputSchema: true }] },
    };
    const contract = loadAgentContract(broken);
    expect(contract.schemaLocations()).toContainEqual({
      file: 'operations.json',
      pointer: '/operations/0/inputSchema',
    });
    expect(() => contract.compileAll()).toThrow();
  });

  it('valueAt walks JSON pointers and never reaches inherited properties', () => {
    expect(valueAt({ a: [{ 'b/c': 1 }] }, '/a/0/b~1c')).toBe(1);
    expect(valueAt({}, '/constructor')).toBeUndefined();
    expect(valueAt({ a: 1 }, 'a')).toBeUndefined();
  });
});
