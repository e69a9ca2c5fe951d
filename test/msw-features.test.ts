/**
 * `cca-kit/msw` features: a browser build's `createHandlers` (mocks/msw/index.browser.ts)
 * carries the service alone and adds only the features `use` lists; the node entry carries them all.
 * Without a feature, what it would add throws or answers 404 naming the import that adds it; with
 * `allFeatures` the page's mock is the node one. The engine parts behind them are held here too.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_TYPES } from '../mocks/engine/commands/apply.ts';
import { FULL_PARTS } from '../mocks/engine/full-parts.ts';
import { FEATURE_ADMIN_METHODS, FEATURE_ORDER } from '../mocks/msw/feature.ts';
import { adminRoutes, allFeatures, chaos, choices, dataFiles, violationLog } from '../mocks/msw/features.ts';
import { createHandlers as createPageHandlers } from '../mocks/msw/index.browser.ts';
import { createHandlers } from '../mocks/msw/index.ts';

const BASE = 'https://api.features.test';
const DATA = { version: 1, organizations: [{ id: 'org_demo', name: 'Demo Inc.' }] } as const;

/** One request straight to the engine behind the handlers (what MSW hands it). */
async function call(
  mock: ReturnType<typeof createHandlers>,
  path: string,
  key?: string,
): Promise<{ status: number; body: { message?: string } & Record<string, unknown> }> {
  const response = await mock.engine.handle(
    new Request(`http://mock.local${path}`, { headers: key === undefined ? {} : { 'x-api-key': key } }),
    { remoteAddress: '127.0.0.1' },
  );
  return { status: response.status, body: (await response.json()) as { message?: string } };
}

const keyOf = (mock: ReturnType<typeof createHandlers>): string => {
  const key = mock.admin.listKeys('org_acme').find((k) => k.status === 'active');
  if (key === undefined) throw new Error('no active seeded key');
  return key.key ?? '';
};

describe('cca-kit/msw in a browser build: the service alone', () => {
  const mock = createPageHandlers({ baseUrl: BASE, clock: 'frozen' });

  it('answers the service (seeded data, keys, validation) and the core admin operations', async () => {
    const key = keyOf(mock);
    const agents = await call(mock, '/v0/agents', key);
    expect(agents.status).toBe(200);
    expect((await call(mock, '/v0/action/list?pageSize=0', key)).status).toBe(400);
    expect(mock.admin.clock().running).toBe(false);
    expect(mock.admin.listOrganizations().length).toBeGreaterThan(1);
  });

  it('answers every /__mock/ request 404, naming the adminRoutes import', async () => {
    const answer = await call(mock, '/__mock/keys');
    expect(answer.status).toBe(404);
    expect(JSON.stringify(answer.body)).toContain("import { adminRoutes } from 'cca-kit/msw/features'");
  });

  it('throws on the violation log, chaos and data operations, naming each feature', () => {
    expect(() => mock.violationLog).toThrow(/violationLog.*cca-kit\/msw\/features/);
    expect(() => mock.chaos).toThrow(/import \{ chaos \}/);
    expect(() => mock.admin.violations()).toThrow(/admin\.violations\(\).*violationLog/);
    expect(() => mock.admin.setChaos({})).toThrow(/chaos/);
    expect(() => mock.admin.exportData()).toThrow(/dataFiles/);
  });

  it('refuses the data, choices, chaos and violationLog options without their features', () => {
    expect(() => createPageHandlers({ baseUrl: BASE, data: DATA })).toThrow(/import \{ dataFiles \}/);
    expect(() => createPageHandlers({ baseUrl: BASE, choices: { durationFormat: 'seconds' } })).toThrow(
      /import \{ choices \}.*durationFormat=seconds/,
    );
    // A choice at its default asks for nothing the core lacks.
    expect(() => createPageHandlers({ baseUrl: BASE, choices: { durationFormat: 'iso8601' } })).not.toThrow();
    expect(() => createPageHandlers({ baseUrl: BASE, chaos: { unknownFields: true } })).toThrow(/chaos/);
    expect(() => createPageHandlers({ baseUrl: BASE, violationLog: { capacity: 5 } })).toThrow(
      /violationLog/,
    );
  });

  it('refuses a use list that is not features, naming what it got', () => {
    expect(() => createPageHandlers({ baseUrl: BASE, use: [{ name: 'everything' }] as never })).toThrow(
      /"everything".*not a feature/,
    );
    expect(() => createPageHandlers({ baseUrl: BASE, use: violationLog as never })).toThrow(
      /must be an array/,
    );
  });
});

describe('cca-kit/msw in a browser build: features opted in', () => {
  it('each feature adds exactly its part', async () => {
    const withRoutes = createPageHandlers({ baseUrl: BASE, use: [adminRoutes] });
    expect((await call(withRoutes, '/__mock/keys')).status).toBe(200);
    expect(() => withRoutes.violationLog).toThrow(/violationLog/);

    const withLog = createPageHandlers({ baseUrl: BASE, use: [violationLog] });
    await call(withLog, '/v0/agents'); // no key: a 401 the client caused
    expect(withLog.violationLog.list().length).toBeGreaterThan(0);
    expect(withLog.admin.violations().length).toBe(withLog.violationLog.list().length);

    const withData = createPageHandlers({ baseUrl: BASE, use: [dataFiles], data: DATA });
    expect(withData.admin.listOrganizations().map((o) => o.id)).toEqual(['org_demo']);
    expect(withData.admin.exportData().organizations.map((o) => o.id)).toEqual(['org_demo']);

    const withChoices = createPageHandlers({
      baseUrl: BASE,
      use: [choices],
      choices: { durationFormat: 'seconds' },
    });
    expect(withChoices.engine.options.choices.durationFormat).toBe('seconds');

    const withChaos = createPageHandlers({ baseUrl: BASE, use: [chaos], chaos: { unknownFields: true } });
    expect(withChaos.admin.chaos().config).toBeDefined();
  });

  it('with allFeatures is the node mock: same admin operations, same answers', async () => {
    const page = createPageHandlers({ baseUrl: BASE, clock: 'frozen', use: allFeatures });
    const node = createHandlers({ baseUrl: BASE, clock: 'frozen' });
    expect(Object.keys(page.admin).sort()).toEqual(Object.keys(node.admin).sort());
    for (const path of ['/__mock/keys', '/v0/agents', '/__mock/violations']) {
      const [a, b] = [await call(page, path, keyOf(page)), await call(node, path, keyOf(node))];
      expect(a.status, path).toBe(b.status);
    }
  });

  it('in node every feature is in, and use changes nothing', async () => {
    const node = createHandlers({ baseUrl: BASE, use: [adminRoutes], data: DATA });
    expect(node.admin.listOrganizations().map((o) => o.id)).toEqual(['org_demo']);
    expect((await call(node, '/__mock/keys')).status).toBe(200);
    expect(node.violationLog.list()).toEqual([]);
  });

  it("in node the engine applies the agent's writes (cca-kit/agent may be handed it); a page's does not", async () => {
    const command = { type: 'savedSearch.delete', organizationId: 'org_acme', id: 'ss_none' } as const;
    const node = createHandlers({ baseUrl: BASE });
    await expect(node.engine.execute(command)).resolves.toBeDefined();
    const page = createPageHandlers({ baseUrl: BASE, use: allFeatures });
    await expect(page.engine.execute(command)).rejects.toThrow(
      /agent interface's writes are not part of this engine/,
    );
  });
});

describe('the features and engine parts stay in step', () => {
  it('FEATURE_ADMIN_METHODS names exactly the admin operations each feature adds', () => {
    const host = { state: undefined as never, run: (() => undefined) as never };
    for (const feature of allFeatures) {
      const added = feature.setup?.({ options: {}, host }).admin ?? {};
      expect(Object.keys(added).sort(), feature.name).toEqual(
        [...FEATURE_ADMIN_METHODS[feature.name]].sort(),
      );
    }
    expect(allFeatures.map((f) => f.name).sort()).toEqual([...FEATURE_ORDER].sort());
  });

  it('COMMAND_TYPES names every command the full engine applies, parts included', () => {
    const partCommands = [
      ...Object.keys(FULL_PARTS.dataFiles?.appliers ?? {}),
      ...Object.keys(FULL_PARTS.agentWrites?.appliers ?? {}),
    ];
    expect(partCommands.length).toBeGreaterThan(5);
    for (const type of partCommands) expect(COMMAND_TYPES.has(type), type).toBe(true);
  });
});
