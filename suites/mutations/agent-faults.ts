/**
 * Faulty agent deployments, each a mistake a real one could ship, made by the fault proxy in front of
 * our mock (`agent-proxy.ts`), with the rules the agent suite must name when it finds it. Faults inside
 * `execute` are made by a prelude prepended to the script: it replaces `call` with the faulty
 * deployment's behaviour, as a broken sandbox bridge would. Controls are changes that are not faults.
 */
import type { Keys } from '../../src/client/types.ts';
import type { McpRevision } from '../../src/conformance/kit/mcp/endpoint.ts';
import { isObj, type Json, type ProxyFault } from './agent-proxy.ts';

export interface AgentMutant {
  readonly id: string;
  readonly description: string;
  /** Rules the suite may name (the first is the one it should). Empty for controls. */
  readonly expect: readonly string[];
  readonly control?: true;
  /**
   * A fault in this MCP revision only: the suite must find it when it speaks this revision and must
   * not charge it to a deployment over the other one.
   */
  readonly revision?: McpRevision;
  /** `target` is the mock's origin behind the proxy. */
  fault(keys: Keys, target: string): ProxyFault;
}

/**
 * Whether a request is of the stateless 2026-07-28 revision: its `_meta` carries the per-request
 * protocol-version claim (2025-11-25 requests have no such key; they ride a session).
 */
const stateless = (m: Json | undefined): boolean => {
  const params = m?.['params'];
  const meta = isObj(params) ? params['_meta'] : undefined;
  return isObj(meta) && Object.keys(meta).some((k) => /protocolversion/i.test(k));
};

const toolName = (m: Json): string | undefined =>
  m['method'] === 'tools/call' && isObj(m['params']) ? String(m['params']['name']) : undefined;
const argsOf = (m: Json): Json =>
  isObj(m['params']) && isObj(m['params']['arguments']) ? m['params']['arguments'] : {};
const withArgs = (m: Json, args: Json): Json => ({
  ...m,
  params: { ...(m['params'] as Json), arguments: args },
});

/** Prepends `prelude` to every `execute` script (its first string argument). */
type Rewrite = (message: Json) => Json;

function prelude(code: string): Rewrite {
  return (m) => {
    if (toolName(m) !== 'execute') return m;
    const args = argsOf(m);
    const key = Object.keys(args).find((k) => typeof args[k] === 'string');
    // An empty script stays empty: the fault must not turn an invalid argument into a valid one.
    return key === undefined || args[key] === ''
      ? m
      : withArgs(m, { ...args, [key]: `${code}\n${String(args[key])}` });
  };
}

/** Replaces `call` with `wrap(original, id, input)` inside the sandbox. */
const wrapCall = (body: string): Rewrite =>
  prelude(`{ const __orig = globalThis.call; globalThis.call = async function (id, input) { ${body} }; }`);

/** Rewrites the result of one tool's calls. */
function toolResult(
  name: string,
  edit: (result: Json, request: Json) => Json,
): (message: Json, request: Json | undefined) => Json {
  return (m, request) =>
    request !== undefined && toolName(request) === name && isObj(m['result'])
      ? { ...m, result: edit(m['result'], request) }
      : m;
}

/** Approves a reply as a person would on the page, from the proxy (the fault: nobody asked a person). */
async function approveAt(target: string, pagePath: string): Promise<void> {
  const page = await (await fetch(target + pagePath)).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1];
  const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
  if (csrf === undefined || action === undefined) return;
  await fetch(target + action.replaceAll('&amp;', '&'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: target },
    body: new URLSearchParams({ csrf, decision: 'approve' }).toString(),
  });
}

const REPLY_PAGE = /\/agent\/replies\/[^/?#]+$/;

export const AGENT_MUTANTS: readonly AgentMutant[] = [
  {
    id: 'cursor-ignores-input',
    description: 'query.search.actions ignores the cursor it is given (every page is the first)',
    expect: ['AGENT-MCP-SEARCH-CURSOR-SAME-INPUT', 'AGENT-MCP-SEARCH-NEXTCURSOR-NULL-AT-END'],
    fault: () => ({
      request: wrapCall(
        `if (id === 'query.search.actions' && input && input.cursor) { const c = Object.assign({}, input); delete c.cursor; return __orig(id, c); } return __orig(id, input);`,
      ),
    }),
  },
  {
    id: 'pages-overlap',
    description: 'keyset off by one: each next page starts again at the last item of the page before',
    expect: ['AGENT-MCP-SEARCH-CURSOR-SAME-INPUT'],
    fault: () => ({
      request: wrapCall(
        `const r = await __orig(id, input); if (id !== 'query.search.actions') return r; const last = globalThis.__ccaLast; globalThis.__ccaLast = r.items[r.items.length - 1]; if (input && input.cursor && last && r.items.length > 0) { r.items.pop(); r.items.unshift(last); } return r;`,
      ),
    }),
  },
  {
    id: 'next-cursor-never-null',
    description: 'nextCursor is never null: the last page hands out a cursor to an empty page',
    expect: ['AGENT-MCP-SEARCH-NEXTCURSOR-NULL-AT-END'],
    fault: () => ({
      request: wrapCall(
        `if (id === 'query.search.actions' && input && input.cursor === 'END') return { items: [], nextCursor: 'END' }; const r = await __orig(id, input); if (id === 'query.search.actions' && r.nextCursor === null) r.nextCursor = 'END'; return r;`,
      ),
    }),
  },
  {
    id: 'limit-not-honoured',
    description: 'pages hold more than limit items',
    expect: ['AGENT-MCP-SEARCH-LIMIT-PAGE-SIZE'],
    fault: () => ({
      request: wrapCall(
        `if (id === 'query.search.actions' && input && !input.cursor && input.limit < 100) { const r = await __orig(id, Object.assign({}, input, { limit: input.limit + 1 })); if (r.items.length > input.limit) r.nextCursor = null; return r; } return __orig(id, input);`,
      ),
    }),
  },
  {
    id: 'offset-cursor',
    description:
      'cursors are offsets into a list computed afresh, not keysets: records ingested mid-walk shift pages',
    expect: ['AGENT-MCP-SEARCH-CURSOR-SAME-INPUT'],
    fault: () => ({
      request: wrapCall(
        `if (id !== 'query.search.actions') return __orig(id, input); const base = Object.assign({}, input || {}); const offset = base.cursor ? Number(String(base.cursor).slice(4)) : 0; delete base.cursor; const limit = base.limit || 20; const all = []; let c = null; do { const p = await __orig(id, Object.assign({}, base, { limit: 100 }, c ? { cursor: c } : {})); all.push(...p.items); c = p.nextCursor; } while (c !== null && all.length < offset + limit + 1); const items = all.slice(offset, offset + limit); return { items, nextCursor: all.length > offset + limit ? 'off:' + (offset + limit) : null };`,
      ),
    }),
  },
  {
    id: 'filter-ignored',
    description: 'the status and source filter is silently dropped',
    expect: [
      'AGENT-MCP-SEARCH-FILTER-SOURCE-STATUS',
      'AGENT-MCP-SEARCH-WINDOW-SUBSET',
      'AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH',
    ],
    fault: () => ({
      request: wrapCall(
        `if (id === 'query.search.actions' && input && input.filter) { const c = Object.assign({}, input); delete c.filter; return __orig(id, c); } return __orig(id, input);`,
      ),
    }),
  },
  {
    id: 'skill-file-traversal',
    description: 'read_skill_file joins the name to a directory without checking it is listed (../ served)',
    expect: ['AGENT-MCP-SKILL-FILE-ONLY-LISTED'],
    fault: () => ({
      answer: (m) => {
        if (toolName(m) !== 'read_skill_file') return undefined;
        const file = Object.values(argsOf(m))
          .map(String)
          .find((v) => /\.\.|%2e|^\/|\\|not-listed/i.test(v));
        if (file === undefined) return undefined;
        const text = `{"name":"cca-kit","private":true} (read from ${file})`;
        return { jsonrpc: '2.0', id: m['id'], result: { content: [{ type: 'text', text }], isError: false } };
      },
    }),
  },
  {
    id: 'approval-required-as-success',
    description: 'review_reply reports the reply as sent (a success) instead of approval required',
    expect: ['AGENT-MCP-APPROVAL-REQUIRED-NOT-SUCCESS'],
    fault: () => ({
      response: toolResult('review_reply', (_r, request) => {
        const requestId = String(argsOf(request)['requestId']);
        const result = { requestId, state: 'sent', message: 'Reply sent.' };
        return {
          content: [{ type: 'text', text: JSON.stringify(result) }],
          structuredContent: result,
          isError: false,
        };
      }),
    }),
  },
  {
    id: 'review-approves-itself',
    description: 'review_reply approves the reply on the user behalf (no person asked)',
    expect: ['AGENT-MCP-NEVER-APPROVED-ON-USER-BEHALF', 'AGENT-MCP-REPLY-HUMAN-MUST-CONFIRM'],
    fault: (_keys, target) => {
      const approvals: Promise<void>[] = [];
      return {
        response: toolResult('review_reply', (result) => {
          const url = /https?:\/\/[^\s"'<>\\]+\/agent\/replies\/[A-Za-z0-9_-]+/.exec(
            JSON.stringify(result),
          )?.[0];
          if (url !== undefined) approvals.push(approveAt(target, new URL(url).pathname));
          return result;
        }),
        settle: async () => {
          await Promise.all(approvals.splice(0));
        },
      };
    },
  },
  {
    id: 'link-get-approves',
    description: 'a plain GET of the confirmation link approves the reply (a link previewer sends it)',
    expect: ['AGENT-MCP-REVIEW-LINK-HUMAN-CONFIRMS'],
    fault: () => ({
      after: async (path, method, target) => {
        if (method === 'GET' && REPLY_PAGE.test(path.split('?')[0] ?? '')) await approveAt(target, path);
      },
    }),
  },
  {
    id: 'prepare-retry-creates-second',
    description: 'prepare_reply repeated with the same requestId creates a second request',
    expect: ['AGENT-MCP-WRITE-TIMEOUT-CHECK-EXISTING'],
    fault: () => {
      const seen = new Set<string>();
      return {
        request: (m) => {
          if (toolName(m) !== 'prepare_reply') return m;
          const args = argsOf(m);
          const id = String(args['requestId']);
          if (!seen.has(id)) {
            seen.add(id);
            return m;
          }
          return withArgs(m, { ...args, requestId: crypto.randomUUID() });
        },
      };
    },
  },
  {
    id: 'prepare-adds-signature',
    description: 'prepare_reply stores the draft with a signature appended (not the exact text given)',
    expect: ['AGENT-MCP-PREPARE-EXACT-DRAFT'],
    fault: () => ({
      request: (m) => {
        if (toolName(m) !== 'prepare_reply') return m;
        const args = argsOf(m);
        return typeof args['text'] === 'string'
          ? withArgs(m, { ...args, text: `${args['text']}\n-- Sent by the support agent` })
          : m;
      },
    }),
  },
  {
    id: 'call-returns-error-object',
    description: 'call answers a failure as an object instead of throwing an Error',
    expect: ['AGENT-MCP-EXECUTE-CALL-THROWS-ON-FAILURE'],
    fault: () => ({
      request: wrapCall(
        `try { return await __orig(id, input); } catch (e) { return { error: String(e && e.message) }; }`,
      ),
    }),
  },
  {
    id: 'sandbox-exposes-process',
    description: 'the sandbox leaks a host process object',
    expect: ['AGENT-MCP-SANDBOX-NO-HOST'],
    fault: () => ({ request: prelude(`globalThis.process = { env: {}, version: 'v20.0.0' };`) }),
  },
  {
    id: 'saved-search-other-org',
    description: "another organization's key is served as the first organization (saved searches shared)",
    expect: ['AGENT-MCP-SAVEDSEARCH-ORG-SCOPED', 'AGENT-MCP-ORG-FIXED-BY-CONNECTION'],
    fault: (keys) => ({
      headers: (headers, path) => {
        if (
          path.startsWith('/mcp') &&
          keys.otherOrgRead !== undefined &&
          keys.read !== undefined &&
          headers.get('x-api-key') === keys.otherOrgRead
        )
          headers.set('x-api-key', keys.read);
      },
    }),
  },
  {
    id: 'analytics-total-off-by-one',
    description: 'analytics totals disagree with search (one action counted twice)',
    expect: ['AGENT-MCP-ANALYTICS-AGREES-WITH-SEARCH'],
    fault: () => ({
      request: wrapCall(
        `const r = await __orig(id, input); if (id === 'query.analytics.actions' && r.rows && r.rows[0] && r.rows[0].values) { for (const k in r.rows[0].values) { if (typeof r.rows[0].values[k] === 'number') { r.rows[0].values[k] += 1; break; } } } return r;`,
      ),
    }),
  },
  {
    id: 'unknown-method-succeeds',
    description: 'an unknown JSON-RPC method is answered with an empty success',
    expect: ['AGENT-MCP-JSONRPC-ERRORS'],
    fault: () => ({
      response: (m) =>
        isObj(m['error']) && m['error']['code'] === -32601 ? { jsonrpc: '2.0', id: m['id'], result: {} } : m,
    }),
  },
  {
    id: 'missing-key-served',
    description: 'a request without a key is served as the read key (auth bypass)',
    expect: ['AGENT-MCP-AUTH-REQUIRED'],
    fault: (keys) => ({
      headers: (headers, path) => {
        if (
          path.startsWith('/mcp') &&
          !headers.has('x-api-key') &&
          !headers.has('authorization') &&
          keys.read !== undefined
        )
          headers.set('x-api-key', keys.read);
      },
    }),
  },
  {
    id: 'read-key-may-write',
    description: 'a read-only key may run write operations through execute',
    expect: ['AGENT-MCP-READ-KEY-WRITE-FORBIDDEN'],
    fault: (keys) => ({
      headers: (headers, path) => {
        if (path.startsWith('/mcp') && keys.readWrite !== undefined && headers.get('x-api-key') === keys.read)
          headers.set('x-api-key', keys.readWrite);
      },
    }),
  },
  {
    id: 'markdown-pages-missing',
    description: 'the pages llms.txt lists have no Markdown variant (404)',
    expect: ['AGENT-MCP-DOCS-MARKDOWN-VARIANTS'],
    fault: () => ({
      page: (path, status, body) =>
        path.endsWith('.md') ? { status: 404, body: 'not found' } : { status, body },
    }),
  },
  {
    id: 'ids-as-numbers',
    description: 'search items carry actionId as a JSON number',
    expect: ['AGENT-MCP-IDS-STRINGS-PRESERVED'],
    fault: () => ({
      request: wrapCall(
        `const r = await __orig(id, input); if (id === 'query.search.actions') for (const it of r.items) if (/^[0-9]+$/.test(it.actionId)) it.actionId = Number(it.actionId); return r;`,
      ),
    }),
  },
  {
    id: 'spec-without-effect',
    description: 'spec() lists operations without their effect (read or write)',
    expect: ['AGENT-MCP-SPEC-LISTS-CATALOG'],
    fault: () => ({
      request: prelude(
        `{ const __spec = globalThis.spec; globalThis.spec = function (id) { const r = __spec(id); if (id === undefined && Array.isArray(r)) return r.map(function (e) { return { id: e.id, summary: e.summary }; }); return r; }; }`,
      ),
    }),
  },
  {
    id: 'tags-name-ignored',
    description: 'query.search.tags ignores name and answers every tag',
    expect: ['AGENT-MCP-SEARCH-TAGS-BY-NAME'],
    fault: () => ({
      request: wrapCall(
        `if (id === 'query.search.tags') return __orig(id, { name: '' }); return __orig(id, input);`,
      ),
    }),
  },
  {
    id: 'window-ignored',
    description: 'dateRange is ignored (always the default past seven days)',
    expect: ['AGENT-MCP-SEARCH-DATERANGE-FORMS', 'AGENT-MCP-SEARCH-WINDOW-SUBSET'],
    fault: () => ({
      request: wrapCall(
        `if (id === 'query.search.actions' && input && input.dateRange) { const c = Object.assign({}, input); delete c.dateRange; return __orig(id, c); } return __orig(id, input);`,
      ),
    }),
  },
  {
    id: 'mcp-ids-differ-from-rest',
    description: 'the agent interface shows action ids REST does not know (a prefix added)',
    expect: ['AGENT-MCP-BOTH-INTERFACES-AGREE', 'AGENT-MCP-IDS-STRINGS-PRESERVED'],
    fault: () => ({
      request: wrapCall(
        `const r = await __orig(id, input); if (id === 'query.search.actions') for (const it of r.items) it.actionId = 'mcp-' + it.actionId; return r;`,
      ),
    }),
  },
  {
    id: 'mcp-status-names-differ-from-rest',
    description:
      'the agent interface shows its own status names (lower case in items, taken in status conditions), not the names REST shows',
    expect: ['AGENT-MCP-BOTH-INTERFACES-AGREE'],
    fault: () => ({
      request: wrapCall(
        `const lower = (v) => typeof v === 'string' ? v.toLowerCase() : v;
const upper = (c) => c && c.filterType === 'status' ? Object.assign({}, c, { value: c.value.map((v) => typeof v === 'string' ? v.toUpperCase() : v) }) : c;
const fixed = input && input.filter && Array.isArray(input.filter.filters) ? Object.assign({}, input, { filter: Object.assign({}, input.filter, { filters: input.filter.filters.map(upper) }) }) : input;
const r = await __orig(id, fixed);
if (id === 'query.search.actions') for (const it of r.items) it.status = lower(it.status);
return r;`,
      ),
    }),
  },
  {
    id: 'mcp-durations-differ-from-rest',
    description:
      'search items write firstResponseTime and handleTime as seconds while REST writes them otherwise',
    expect: ['AGENT-MCP-BOTH-INTERFACES-AGREE'],
    fault: () => ({
      request: wrapCall(
        `const r = await __orig(id, input);
const secs = (v) => { const m = typeof v === 'string' ? /^PT(?:(\\d+)H)?(?:(\\d+)M)?(?:(\\d+)S)?$/.exec(v) : null; return m ? String((+(m[1] || 0)) * 3600 + (+(m[2] || 0)) * 60 + (+(m[3] || 0))) : v; };
if (id === 'query.search.actions') for (const it of r.items) { it.firstResponseTime = secs(it.firstResponseTime); it.handleTime = secs(it.handleTime); }
return r;`,
      ),
    }),
  },
  {
    id: 'saved-search-update-lost',
    description: 'config.savedSearch.update answers success but changes nothing',
    expect: ['AGENT-MCP-SAVEDSEARCH-STORE'],
    fault: () => ({
      request: wrapCall(
        `if (id === 'config.savedSearch.update') return __orig('config.savedSearch.get', { id: input.id }); return __orig(id, input);`,
      ),
    }),
  },
  {
    id: 'invalid-input-unnamed',
    description: 'tool failures say only "bad request", naming no field',
    expect: ['AGENT-MCP-INVALID-INPUT-NAMES-FIELD'],
    fault: () => ({
      response: (m) =>
        isObj(m['result']) && m['result']['isError'] === true
          ? { ...m, result: { isError: true, content: [{ type: 'text', text: 'bad request' }] } }
          : isObj(m['error'])
            ? { ...m, error: { code: m['error']['code'], message: 'bad request' } }
            : m,
    }),
  },
  {
    id: 'tool-outside-the-spec',
    description: 'tools/list offers a tool that is not one of the seven of 4.18',
    expect: ['AGENT-MCP-TOOLS-ONLY-SPEC-NAMES'],
    fault: () => ({
      response: (m, request) =>
        request?.['method'] === 'tools/list' && isObj(m['result']) && Array.isArray(m['result']['tools'])
          ? {
              ...m,
              result: {
                ...m['result'],
                tools: [...m['result']['tools'], { name: 'delete_action', inputSchema: { type: 'object' } }],
              },
            }
          : m,
    }),
  },
  {
    id: 'annotations-claim-read-only',
    description:
      'tools/list annotates execute readOnlyHint (and not destructive) for every key, though a read-and-write key can create and delete saved searches through it',
    expect: ['AGENT-MCP-ANNOTATIONS-TRUE-TO-KEY'],
    fault: () => ({
      response: (m, request) =>
        request?.['method'] === 'tools/list' && isObj(m['result']) && Array.isArray(m['result']['tools'])
          ? {
              ...m,
              result: {
                ...m['result'],
                tools: m['result']['tools'].map((tool) =>
                  isObj(tool) && tool['name'] === 'execute'
                    ? {
                        ...tool,
                        annotations: {
                          ...(isObj(tool['annotations']) ? tool['annotations'] : {}),
                          readOnlyHint: true,
                          destructiveHint: false,
                        },
                      }
                    : tool,
                ),
              },
            }
          : m,
    }),
  },
  {
    id: 'listed-skill-file-unreadable',
    description: 'read_skill_file refuses the files the playbook lists',
    expect: ['AGENT-MCP-SKILL-FILES-READABLE'],
    fault: () => ({
      answer: (m) =>
        toolName(m) === 'read_skill_file'
          ? {
              jsonrpc: '2.0',
              id: m['id'],
              result: { isError: true, content: [{ type: 'text', text: 'file not found' }] },
            }
          : undefined,
    }),
  },
  {
    id: 'spec-id-without-schemas',
    description: 'spec(id) answers the descriptor without input and output schemas',
    expect: ['AGENT-MCP-SPEC-ID-GIVES-SCHEMAS'],
    fault: () => ({
      request: prelude(
        `{ const __spec = globalThis.spec; globalThis.spec = function (id) { const r = __spec(id); if (id === undefined) return r; return { id: r.id, summary: r.summary, effect: r.effect }; }; }`,
      ),
    }),
  },
  {
    id: 'analytics-meta-missing',
    description: 'analytics answers rows without meta (queryJSON, date range, dateField)',
    expect: ['AGENT-MCP-ANALYTICS-META', 'AGENT-MCP-EXECUTE-CALL-RETURNS-OUTPUT'],
    fault: () => ({
      request: wrapCall(
        `const r = await __orig(id, input); if (id === 'query.analytics.actions') delete r.meta; return r;`,
      ),
    }),
  },
  {
    id: 'output-off-schema',
    description: 'query.search.tags answers its items under another member than spec(id) declares',
    expect: ['AGENT-MCP-EXECUTE-CALL-RETURNS-OUTPUT', 'AGENT-MCP-SEARCH-TAGS-BY-NAME'],
    fault: () => ({
      request: wrapCall(
        `const r = await __orig(id, input); if (id === 'query.search.tags' && r && typeof r === 'object') { const out = {}; for (const k in r) out[k === 'items' || k === 'tags' ? 'results' : k] = Array.isArray(r[k]) ? String(r[k].length) : r[k]; return out; } return r;`,
      ),
    }),
  },
  {
    id: 'control-extra-fields',
    description:
      'CONTROL: unknown extra fields in every tool result and operation output (section 9 allows them)',
    expect: [],
    control: true,
    fault: () => ({
      request: wrapCall(
        `const r = await __orig(id, input); if (r && typeof r === 'object' && !Array.isArray(r)) { r.xCcaExtra = { added: true }; if (Array.isArray(r.items)) for (const it of r.items) if (it && typeof it === 'object') it.xCcaExtra = 1; } return r;`,
      ),
      response: (m) =>
        isObj(m['result']) && isObj(m['result']['structuredContent'])
          ? {
              ...m,
              result: {
                ...m['result'],
                structuredContent: { ...m['result']['structuredContent'], xCcaExtra: 'ok' },
              },
            }
          : m,
    }),
  },
  {
    id: 'stateless-tool-outside-the-spec',
    description:
      'over the stateless 2026-07-28 revision only, tools/list offers a tool that is not one of the seven of 4.18 (2025-11-25 sessions are right)',
    expect: ['AGENT-MCP-TOOLS-ONLY-SPEC-NAMES'],
    revision: '2026-07-28',
    fault: () => ({
      response: (m, request) =>
        stateless(request) &&
        request?.['method'] === 'tools/list' &&
        isObj(m['result']) &&
        Array.isArray(m['result']['tools'])
          ? {
              ...m,
              result: {
                ...m['result'],
                tools: [...m['result']['tools'], { name: 'delete_action', inputSchema: { type: 'object' } }],
              },
            }
          : m,
    }),
  },
  {
    id: 'sessions-tool-outside-the-spec',
    description:
      'over 2025-11-25 sessions only, tools/list offers a tool that is not one of the seven of 4.18 (the stateless revision is right)',
    expect: ['AGENT-MCP-TOOLS-ONLY-SPEC-NAMES'],
    revision: '2025-11-25',
    fault: () => ({
      response: (m, request) =>
        !stateless(request) &&
        request?.['method'] === 'tools/list' &&
        isObj(m['result']) &&
        Array.isArray(m['result']['tools'])
          ? {
              ...m,
              result: {
                ...m['result'],
                tools: [...m['result']['tools'], { name: 'delete_action', inputSchema: { type: 'object' } }],
              },
            }
          : m,
    }),
  },
  {
    id: 'control-slower-answers',
    description: 'CONTROL: every answer 15 ms slower',
    expect: [],
    control: true,
    fault: () => ({ delayMs: 15 }),
  },
];
