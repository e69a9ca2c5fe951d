/** `cca-kit mock`: start the stateful mock server and print where it is and which keys it knows. */
import { get } from 'node:http';
import { CHAOS_FLAGS, CHAOS_USAGE, sdkInterceptorsFromFlags } from '../../mocks/engine/chaos/flags.ts';
import { CHOICE_NAMES, choiceValues, describeChoices } from '../../mocks/engine/choices/index.ts';
import { createJournal, DEFAULT_JOURNAL_CAPACITY } from '../../mocks/engine/journal/index.ts';
import type { LatencyOption } from '../../mocks/engine/moderation/index.ts';
import type { LoadProgress } from '../../mocks/engine/store/types.ts';
import { startMockServer } from '../../mocks/http/server.ts';
import { openStartingPort } from '../../mocks/http/starting.ts';
import { choiceFlag } from './choice-flag.ts';
import { readDataFiles } from './data-flag.ts';
import { EXECUTE_FLAGS, EXECUTE_USAGE, sandboxOptionsFromFlags, textModeFromFlag } from './execute-flags.ts';
import { integerFlag, parseFlags } from './flags.ts';
import { type CliIo, type Command, formatTable, UsageError } from './io.ts';
import { compactionCaptureOf, openPersistentState, snapshotEveryOf } from './state-flags.ts';

const USAGE = `Usage: cca-kit mock [options]

Options:
  --port <n>                     port to listen on (default 4010; 0 picks a free one)
  --host <addr>                  address to bind (default 127.0.0.1)
  --seed <n>                     seed of the generated data (default 42)
  --actions <n>                  number of seeded actions (default 2000)
  --data <file>                  load a data file (docs/data-format.md); repeatable. Alone it replaces
                                 the generated set; with --seed or --actions it lies over it
  --self-check                   validate every response against the contract (500 on a mismatch)
  --admin-token <token>          open /__mock/ to clients presenting this token (X-Mock-Admin-Token
                                 or Authorization: Bearer); the way in behind a balancer. Also read
                                 from CCA_MOCK_ADMIN_TOKEN (which, unlike a flag, ps does not show)
  --moderation-latency <v>       ms until a moderation case completes, or instant, or manual (default 3000)
  --clock <real|frozen>          real time (default) or a clock that moves only through /__mock/clock
  --no-answer-cache              compute every list, search and tag answer (default: remembered per
                                 window range until the data changes; the answers are the same)
  --state-file <file>            keep every write in this file (appended, flushed to disk before the
                                 answer) and replay it at start: a restart keeps what clients wrote
  --state <redis://host:port/db> share the writes with every replica started with the same seed and
                                 data through a Redis Stream (see docs/sandbox.md)
  --journal-size <n>             exchanges the request journal keeps for the dashboard (/__mock/) and
                                 GET /__mock/journal (default 500; bodies kept up to 32 KiB each)
  --writes-per-turn <n>          during a burst, start at most n writes per event-loop turn, after the
                                 reads that came with them (default 4; 0: every request at once)
  --choice <point=value>         what the mock does where the spec leaves a choice; repeatable (the
                                 table in docs/contract.md). Points, default first:
${CHOICE_NAMES.map((n) => `                                   ${n}: ${choiceValues(n).join(' | ')}`).join('\n')}
${CHAOS_USAGE}
${EXECUTE_USAGE}
  -h, --help                     show this help`;

/**
 * One GET through the port, read to its end (any outcome resolves). node:http, which the server has
 * loaded already: the global fetch loads undici (and http2, tls, zlib) first, which took start-up to the
 * first list 200 from 1.23 G to 1.79 G instructions, and a client's first answer waited behind it. No
 * keep-alive: nothing stays open.
 */
function firstAnswer(url: string): Promise<void> {
  return new Promise<void>((resolve) => {
    get(url, { agent: false }, (answer) => {
      answer.on('end', resolve).on('error', () => resolve());
      answer.resume();
    }).on('error', () => resolve());
  });
}

function latencyFlag(value: string | undefined): LatencyOption | undefined {
  if (value === undefined) return undefined;
  if (value === 'instant' || value === 'manual') return value;
  return integerFlag('moderation-latency', value) ?? 0;
}

/**
 * The admin token from the flag or the environment. An empty environment variable counts as unset (a
 * shell's `VAR= cmd`); the flag and the variable must agree when both are given, so neither is ignored.
 */
function adminTokenOf(flag: string | undefined, env: string | undefined): string | undefined {
  const fromEnv = env === undefined || env === '' ? undefined : env;
  if (flag !== undefined && fromEnv !== undefined && flag !== fromEnv)
    throw new UsageError('--admin-token and CCA_MOCK_ADMIN_TOKEN differ; give one');
  const token = flag ?? fromEnv;
  if (token !== undefined && token.length < 8)
    throw new UsageError(
      `the admin token (${flag === undefined ? 'CCA_MOCK_ADMIN_TOKEN' : '--admin-token'}) must have at least 8 characters`,
    );
  return token;
}

export const mockCommand: Command = {
  name: 'mock',
  summary: 'start the stateful mock server',
  usage: USAGE,
  async run(argv: readonly string[], io: CliIo): Promise<number> {
    const started = performance.now();
    const values = parseFlags(argv, {
      port: { type: 'string' },
      host: { type: 'string' },
      seed: { type: 'string' },
      actions: { type: 'string' },
      data: { type: 'string', multiple: true },
      'self-check': { type: 'boolean' },
      'admin-token': { type: 'string' },
      'moderation-latency': { type: 'string' },
      clock: { type: 'string' },
      'no-answer-cache': { type: 'boolean' },
      'state-file': { type: 'string' },
      state: { type: 'string' },
      'journal-size': { type: 'string' },
      'writes-per-turn': { type: 'string' },
      choice: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
      ...CHAOS_FLAGS,
      ...EXECUTE_FLAGS,
    });
    if (values.help) {
      io.stdout(`${USAGE}\n`);
      return 0;
    }
    const clock = values.clock ?? 'real';
    if (clock !== 'real' && clock !== 'frozen')
      throw new UsageError(`--clock must be real or frozen (got ${clock})`);
    const latency = latencyFlag(values['moderation-latency']);
    const journalSize =
      integerFlag('journal-size', values['journal-size'], { max: 100_000 }) ?? DEFAULT_JOURNAL_CAPACITY;
    if (journalSize < 1) throw new UsageError('--journal-size must be at least 1');
    const writesPerTurn = integerFlag('writes-per-turn', values['writes-per-turn'], { max: 1_000 });
    const choices = choiceFlag(values.choice);
    if (latency !== undefined && choices !== undefined && choices.moderationTimings !== 'default')
      throw new UsageError('--moderation-latency and --choice moderationTimings=... disagree; give one');
    const sdk = sdkInterceptorsFromFlags(values, (message) => new UsageError(message));
    // Validators compile at the first request to each operation (a few ms each), not here: compiling
    // them all would add ~80 ms to every start for operations a session may never call.
    const dataPaths = values.data ?? [];
    const data = await readDataFiles(dataPaths);
    // With data files, the generated set is there only when asked for (--seed or --actions).
    const generated = dataPaths.length === 0 || values.seed !== undefined || values.actions !== undefined;
    const adminToken = adminTokenOf(values['admin-token'], process.env['CCA_MOCK_ADMIN_TOKEN']);
    const engineOptions = {
      ...(generated
        ? {
            seed: integerFlag('seed', values.seed) ?? 42,
            actions: integerFlag('actions', values.actions) ?? 2000,
          }
        : {}),
      ...(data.length === 0 ? {} : { data }),
      selfCheck: values['self-check'] ?? false,
      adminToken: adminToken ?? null,
      clock,
      rememberAnswers: values['no-answer-cache'] !== true,
      ...(latency === undefined ? {} : { moderation: { latency } }),
      ...(choices === undefined ? {} : { choices }),
      interceptors: sdk.interceptors,
    } as const;
    const port = integerFlag('port', values.port, { max: 65_535 }) ?? 4010;
    const host = values.host ?? '127.0.0.1';
    const persistentFlags = values['state-file'] !== undefined || values.state !== undefined;
    const snapshotEvery = snapshotEveryOf(process.env['CCA_MOCK_SNAPSHOT_EVERY']);
    const capture = compactionCaptureOf(process.env['CCA_MOCK_COMPACTION']);
    // A persistent state can take a while to load: its port is open at once and answers 503 with the
    // progress (mocks/http/starting.ts), then the server takes it over.
    const progress: LoadProgress = { phase: 'opening', applied: 0, total: null };
    const gate = persistentFlags ? await openStartingPort(port, host, progress) : undefined;
    if (gate !== undefined)
      io.stdout(`cca-kit mock starting on ${gate.url} (503 until its state is loaded)\n`);
    // A persistent engine is built here, so the journal the server would install goes in with it.
    const persistent = await openPersistentState(
      values['state-file'],
      values.state,
      {
        ...engineOptions,
        interceptors: [...engineOptions.interceptors, createJournal({ capacity: journalSize })],
      },
      progress,
      snapshotEvery,
      capture,
    ).catch(async (error: unknown) => {
      await gate?.close();
      throw error;
    });
    const mock = await startMockServer({
      port,
      host,
      ...(gate === undefined ? {} : { server: gate.server }),
      ...(persistent === undefined ? engineOptions : { engine: persistent.engine }),
      journal: { capacity: journalSize },
      ...(writesPerTurn === undefined ? {} : { writesPerTurn }),
      agent: { sandbox: sandboxOptionsFromFlags(values), text: textModeFromFlag(values.text) },
      // The REST API answers at once; the agent side loads at the first /mcp, /llms.txt or /agent/ request.
      agentLoad: 'first-request',
    }).catch(async (error: unknown) => {
      await persistent?.store.close();
      throw error;
    });
    const { engine } = mock;
    // The ready time is that of the first answer served, through the port, as a client gets it.
    await firstAnswer(`${mock.url}/__mock/health`);
    const readyMs = Math.round(performance.now() - started);
    const keys = engine.admin.listKeys();
    io.stdout(
      [
        `cca-kit mock listening on ${mock.url}`,
        `  API base URL : ${mock.url}/v0`,
        `  Swagger UI   : ${mock.url}/docs`,
        `  OpenAPI JSON : ${mock.url}/docs/json`,
        `  MCP (agents) : ${mock.url}/mcp (key as Authorization: Bearer <key> or X-API-Key)`,
        `  Agent docs   : ${mock.url}/llms.txt`,
        `  Dashboard    : ${mock.url}/__mock/ in a browser (request journal of the last ${journalSize} exchanges)`,
        `  Admin API    : ${mock.url}/__mock/ (loopback${adminToken === undefined ? ' only' : ' or X-Mock-Admin-Token'})`,
        `  Violations   : ${mock.url}/__mock/violations; ${sdk.summary}`,
        ...(persistent === undefined
          ? []
          : [`  State        : ${persistent.summary}`, ...persistent.notes.map((n) => `  note: ${n}`)]),
        `  ${dataPaths.length === 0 ? '' : `data ${dataPaths.join(', ')}${generated ? ' over ' : ''}`}${generated ? `seed ${String(engine.options.seed)}, ${engine.options.actions} actions` : ''}, clock ${clock}, self-check ${engine.options.selfCheck ? 'on' : 'off'}${engine.options.rememberAnswers ? '' : ', answer cache off'}${describeChoices(
          engine.options.choices,
        )
          .map((c) => `, choice ${c}`)
          .join('')}, ready in ${readyMs} ms (first answer served)`,
        '',
        `${dataPaths.length === 0 ? 'Seeded' : 'Loaded'} API keys (send as X-API-Key):`,
        formatTable(
          ['organization', 'profile', 'status', 'key'],
          keys.map((k) => [k.organizationId, k.profile, k.status, k.key ?? `(given by hash) ${k.id}`]),
        ),
        '',
        'Press Ctrl+C to stop.',
        '',
      ].join('\n'),
    );
    await new Promise<void>((resolve) => {
      if (io.signal.aborted) resolve();
      else io.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await mock.close();
    await persistent?.store.close();
    io.stdout('cca-kit mock stopped\n');
    return 0;
  },
};
