/**
 * Where the vitest suites run: a deployment given by the environment (`CCA_BASE_URL` and the key
 * variables), or, when it is unset, our own mock started on a loopback port with its seeded keys.
 */
import keysJson from '../fixtures/keys.json' with { type: 'json' };
import organizationsJson from '../fixtures/organizations.json' with { type: 'json' };
import { agentSays, scenario, userSays } from '../mocks/engine/data-file/builder.ts';
import { createEngine, type Engine } from '../mocks/engine/engine.ts';
import type { EngineOptions } from '../mocks/engine/options.ts';
import { startMockServer } from '../mocks/http/server.ts';
import { KEY_ENV, KEY_ROLES, type Keys } from '../src/client/types.ts';
import type { Target } from '../src/conformance/kit/options.ts';

interface SeededKey {
  readonly key: string;
  readonly organizationId: string;
  readonly profile: string;
  readonly status: string;
}

const seededKeys = keysJson as readonly SeededKey[];
const organizations = organizationsJson as readonly {
  readonly id: string;
  readonly moderationMode: string;
}[];

/**
 * One active key per role (and one expired and one revoked key): from a running engine (any seed), or from the checked-in keys of the
 * default data set (seed 42) when there is none. The statuses of the checked-in keys come from the
 * fixture even with an engine: what a user would configure, whatever the engine under test says.
 */
export function mockKeys(engine?: Engine): Keys {
  const orgs = engine === undefined ? organizations : engine.admin.listOrganizations();
  // A key of the checked-in data set keeps the status the fixture gives it, not the one the engine
  // derives: an engine whose expiry or revocation is broken would otherwise list its expired key as
  // active, and the laws that need an expired key would not run instead of failing.
  const fixed = new Map(seededKeys.map((k) => [k.key, k.status]));
  const known =
    engine === undefined
      ? seededKeys
      : engine.admin
          .listKeys()
          .map((k) => ({ ...k, status: (k.key === null ? undefined : fixed.get(k.key)) ?? k.status }));
  const adPolicy = orgs.find((o) => o.moderationMode === 'ad_policy')?.id;
  const other = orgs.find((o) => o.id !== adPolicy && o.moderationMode !== 'ad_policy')?.id;
  const find = (org: string | undefined, profile: string): string | undefined =>
    known.find((k) => k.organizationId === org && k.profile === profile && k.status === 'active')?.key ??
    undefined;
  const keys: Record<string, string> = {};
  const put = (role: keyof Keys, value: string | undefined): void => {
    if (value !== undefined) keys[role] = value;
  };
  put('read', find(adPolicy, 'reporting'));
  put('write', find(adPolicy, 'write'));
  put('ingest', find(adPolicy, 'import'));
  put('otherOrgRead', find(other, 'reporting'));
  put('noModerationWrite', find(other, 'write') ?? find(other, 'read_write'));
  // A second organization in ad_policy mode, when the data set has one (the default one has not).
  put(
    'otherOrgWrite',
    find(orgs.find((o) => o.id !== adPolicy && o.moderationMode === 'ad_policy')?.id, 'write'),
  );
  // The mock supplies its own expired and revoked keys (a live target's only the user can give).
  const inactive = (status: string): string | undefined =>
    known.find((k) => k.organizationId === adPolicy && k.status === status)?.key ?? undefined;
  put('expired', inactive('expired'));
  put('revoked', inactive('revoked'));
  // The agent interface's execute with writes (saved searches) needs a Read-and-write key.
  put('readWrite', find(adPolicy, 'read_write'));
  return keys;
}

/** The target named by `CCA_BASE_URL` and the `CCA_*_KEY` variables, or undefined. */
export function targetFromEnv(env: NodeJS.ProcessEnv = process.env): Target | undefined {
  const baseUrl = env['CCA_BASE_URL'];
  if (baseUrl === undefined || baseUrl === '') return undefined;
  const keys: Record<string, string> = {};
  for (const role of KEY_ROLES) {
    const value = env[KEY_ENV[role]];
    if (value !== undefined && value !== '') keys[role] = value;
  }
  return { baseUrl, keys };
}

export interface RunningTarget {
  readonly target: Target;
  readonly kind: 'env' | 'mock';
  /** The engine when the target is our in-process mock. */
  readonly engine?: Engine;
  close(): Promise<void>;
}

export interface MockTargetOptions extends EngineOptions {
  /** Wraps the engine before it is served (the mutation harness injects faults here). */
  readonly wrap?: (engine: Engine) => Engine;
}

/**
 * Starts our mock on 127.0.0.1:0 with self-check on (every response validated against the contract;
 * `engine.selfCheckFailures` lists any mismatch); polls advance its clock by a second instead of sleeping.
 */
export async function startMockTarget(options: MockTargetOptions = {}): Promise<RunningTarget> {
  const { wrap, ...engineOptions } = options;
  const engine = createEngine({ selfCheck: true, ...engineOptions });
  const server = await startMockServer({
    host: '127.0.0.1',
    port: 0,
    engine: wrap === undefined ? engine : wrap(engine),
    // As `cca-kit mock` serves it: the agent interface loaded by the first request that needs it.
    agentLoad: 'first-request',
    // The laws read whole catalogs and pages through execute's console: room for them in one run
    // (the model-sized defaults would make the suite read large results in pieces, run after run).
    // A time limit of 2 s, not 5: the time-limit law waits it out once per MCP revision, and the
    // longest script of any law ends within 250 ms on a quiet machine (8 times that is room for load).
    agent: { sandbox: { logBytes: 1024 * 1024, logLines: 1000, resultBytes: 1024 * 1024, timeMs: 2000 } },
  });
  const keys = mockKeys(engine);
  if (engineOptions.data === undefined && String(engineOptions.seed ?? 42) === '42') {
    // The default data set's keys are checked in (fixtures/keys.json): an engine whose key store lost one
    // would hand the laws fewer keys, and the laws needing it would be skipped instead of failing.
    const fixture = mockKeys();
    const lost = KEY_ROLES.filter((role) => fixture[role] !== undefined && keys[role] !== fixture[role]);
    if (lost.length > 0) {
      await server.close();
      throw new Error(
        `the mock's key store does not list the checked-in keys for ${lost.join(', ')} (fixtures/keys.json)`,
      );
    }
  }
  return {
    kind: 'mock',
    engine,
    target: {
      baseUrl: server.url,
      keys,
      now: () => engine.clock.now(),
      onPoll: async () => {
        engine.clock.advance(1000);
      },
    },
    close: () => server.close(),
  };
}

/**
 * A fresh seeded mock with a second organization in ad_policy mode, for the laws that need
 * `otherOrgWrite`. The shared mock keeps its one organization without ad_policy mode (the laws that
 * need `noModerationWrite` use it), so these laws get a mock of their own instead of not running.
 */
export async function startTwoAdPolicyMockTarget(): Promise<RunningTarget> {
  const running = await startMockTarget({ seed: 42 });
  const engine = running.engine;
  const other = engine?.admin.listOrganizations().find((o) => o.moderationMode !== 'ad_policy');
  if (engine === undefined || other === undefined) {
    await running.close();
    throw new Error('the seeded mock has no organization outside ad_policy mode to switch');
  }
  engine.admin.setModerationMode(other.id, 'ad_policy');
  return { ...running, target: { ...running.target, keys: mockKeys(engine) } };
}

/** The environment's target when set, else a fresh mock. */
export async function resolveTarget(mock: MockTargetOptions = {}): Promise<RunningTarget> {
  const fromEnv = targetFromEnv();
  if (fromEnv !== undefined) return { kind: 'env', target: fromEnv, close: async () => {} };
  return startMockTarget({ seed: 42, ...mock });
}

/** An action id with every character a path segment may carry raw (RFC 3986 pchar beyond unreserved). */
export const RAW_PATH_ACTION_ID = 'a+b&c=d;e,f$g:h@i';

/**
 * The seeded mock plus one organization whose one action has an id of `RAW_PATH_ACTION_ID`: the
 * seeded ids are plain, and the law reading ids raw in a path needs one that is not.
 */
export async function startRawPathMockTarget(): Promise<RunningTarget> {
  const data = scenario()
    .organization('org_paths')
    .key({ key: 'cca_live_paths_reporting_key', profile: 'reporting' })
    .action({
      actionId: RAW_PATH_ACTION_ID,
      messages: [userSays('Hi', '-2h'), agentSays('Hello', '-1h')],
    })
    .build();
  const running = await startMockTarget({ seed: 42, data });
  return { ...running, target: { ...running.target, keys: { read: 'cca_live_paths_reporting_key' } } };
}
