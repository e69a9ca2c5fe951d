/**
 * Cursor paging of `query.search.actions` as properties over random windows, filters and limits:
 * `limit` honoured; following `nextCursor` (resumed across executions with the saved cursor) gathers
 * every item exactly once, newest first, and ends with `null`; two walks of the same input agree; a
 * cursor passed with another input, or corrupted, is refused.
 */
import fc from 'fast-check';
import { violate } from '../../src/conformance/kit/check.ts';
import type { Law, LawContext } from '../../src/conformance/kit/law.ts';
import { literal, runScript } from '../../src/conformance/kit/mcp/script.ts';
import type { McpSession } from '../../src/conformance/kit/mcp/session.ts';
import { call } from '../laws/support.ts';
import { catalog } from './catalog.ts';
import { duplicate, filterOf, notIn, type Relative, relativeArb, SEARCH, walk } from './search.ts';
import { Absent, agentExamples, agentProperty, requireTool, withSession } from './support.ts';

const GROUP = 'agent';
export const MAX_LIMIT = 100;

/** Values of status and platform seen in the last three months (filters are drawn from them). */
export async function observedValues(
  ctx: LawContext,
  session: McpSession,
): Promise<{ statuses: string[]; platforms: string[]; total: number }> {
  return ctx.memo('agent:observed', async () => {
    const w = await walk(session, { dateRange: { relative: { unit: 'month', count: 3 } }, limit: MAX_LIMIT });
    const values = (xs: readonly (string | null)[]) =>
      [...new Set(xs.filter((x): x is string => x !== null))].sort();
    return { statuses: values(w.statuses), platforms: values(w.platforms), total: w.ids.length };
  });
}

export interface Case {
  readonly relative: Relative;
  readonly sources: readonly string[];
  readonly statuses: readonly string[];
  readonly limit: number;
  readonly pagesPerExecution: number;
}

export function caseArb(values: { statuses: string[]; platforms: string[] }): fc.Arbitrary<Case> {
  const subset = (xs: string[]) => (xs.length === 0 ? fc.constant([]) : fc.subarray(xs, { maxLength: 3 }));
  return fc.record({
    relative: relativeArb,
    sources: subset(values.platforms),
    statuses: subset(values.statuses),
    limit: fc.integer({ min: 1, max: MAX_LIMIT }),
    pagesPerExecution: fc.integer({ min: 2, max: 8 }),
  });
}

export function inputOf(
  c: Pick<Case, 'relative' | 'sources' | 'statuses'>,
  limit: number,
): Record<string, unknown> {
  const filter = filterOf(c.sources, c.statuses);
  return {
    dateRange: { relative: c.relative },
    ...(filter !== undefined && filter.filters.length > 0 ? { filter } : {}),
    limit,
  };
}

async function searchReady(ctx: LawContext): Promise<void> {
  await requireTool(ctx, 'read', 'execute');
  const ids = (await catalog(ctx)).map((e) => e.id);
  if (!ids.includes(SEARCH)) throw new Absent(`spec() does not list ${SEARCH}`);
}

const walkLaw: Law = {
  id: 'agent.paging.walk',
  group: GROUP,
  title:
    'limit honoured; nextCursor walk (resumed across executions) gathers each action once, newest first, ends with null; equals a max-limit walk',
  ruleIds: [
    'AGENT-MCP-SEARCH-LIMIT-PAGE-SIZE',
    'AGENT-MCP-SEARCH-CURSOR-SAME-INPUT',
    'AGENT-MCP-SEARCH-NEXTCURSOR-NULL-AT-END',
    'AGENT-MCP-SEARCH-OUTPUT-ITEMS-NEXTCURSOR',
    'AGENT-MCP-OWN-PAGINATION',
    'AGENT-MCP-LONG-EXPORT-RESUMES-WITH-CURSOR',
    'AGENT-MCP-IDS-STRINGS-PRESERVED',
  ],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, () => searchReady(ctx).then(() => 0)).then(async (ready) => {
      if (ready.kind !== 'passed') return ready;
      return withSession(ctx, 'read', async (session) => {
        const values = await observedValues(ctx, session);
        return agentProperty(
          ctx,
          caseArb(values),
          async (c) => {
            const reference = await walk(session, inputOf(c, MAX_LIMIT));
            if (reference.emptyPagesWithCursor > 2)
              violate(
                'AGENT-MCP-SEARCH-NEXTCURSOR-NULL-AT-END',
                'never-null',
                `the walk with limit ${MAX_LIMIT} never ends: empty pages keep answering a nextCursor`,
                c,
              );
            if (reference.repeatedPage)
              violate(
                'AGENT-MCP-SEARCH-CURSOR-SAME-INPUT',
                'repeated-page',
                `following nextCursor with limit ${MAX_LIMIT} answered the page before it again`,
                c,
              );
            if (!reference.ended) return; // A window too large to walk within the page bound: no verdict.
            // Bound the walk to ~24 pages whatever the generated limit.
            const limit = Math.max(c.limit, Math.ceil(reference.ids.length / 24));
            const w = await walk(session, inputOf(c, limit), {
              pagesPerExecution: c.pagesPerExecution,
              maxPages: 60,
            });
            const tooBig = w.pageSizes.find((n) => n > limit);
            if (tooBig !== undefined)
              violate(
                'AGENT-MCP-SEARCH-LIMIT-PAGE-SIZE',
                'page-over-limit',
                `a page held ${tooBig} items with limit ${limit}`,
                c,
              );
            if (w.emptyPagesWithCursor > 2 || !w.ended)
              violate(
                'AGENT-MCP-SEARCH-NEXTCURSOR-NULL-AT-END',
                'never-null',
                `the walk did not end with nextCursor null (${w.pageSizes.length} pages, ${w.emptyPagesWithCursor} empty pages with a cursor)`,
                c,
              );
            const dup = duplicate(w.ids);
            if (dup !== undefined)
              violate(
                'AGENT-MCP-SEARCH-CURSOR-SAME-INPUT',
                'duplicate',
                `action ${dup} came twice in one walk (limit ${limit})`,
                c,
              );
            const missing = notIn(reference.ids, w.ids);
            if (missing !== undefined || w.ids.length !== reference.ids.length)
              violate(
                'AGENT-MCP-SEARCH-CURSOR-SAME-INPUT',
                'skipped',
                `the walk with limit ${limit} gathered ${w.ids.length} actions, the walk with limit ${MAX_LIMIT} ${reference.ids.length}${missing === undefined ? '' : ` (${missing} missing)`}`,
                c,
              );
            for (let i = 1; i < w.times.length; i++) {
              const [a, b] = [w.times[i - 1], w.times[i]];
              if (a != null && b != null && Date.parse(a) < Date.parse(b))
                violate(
                  'AGENT-MCP-SEARCH-CURSOR-SAME-INPUT',
                  'order',
                  `items not newest first: ${a} before ${b}`,
                  c,
                );
            }
            if (w.executions > 1 && w.ids.length === 0)
              violate(
                'AGENT-MCP-LONG-EXPORT-RESUMES-WITH-CURSOR',
                'no-resume',
                'a saved cursor did not continue the listing in a later execute',
                c,
              );
          },
          { runs: ctx.runs },
        );
      });
    }),
};

/** The first page's cursor of a window with at least two actions, or `Absent`. */
async function firstCursor(session: McpSession, input: Record<string, unknown>): Promise<string> {
  const out = await runScript(
    session,
    `const p = await call(${literal(SEARCH)}, ${literal(input)}); return p.nextCursor;`,
  );
  if (out.kind !== 'value' || typeof out.value !== 'string')
    throw new Absent('no window with a second page to take a cursor from');
  return out.value;
}

const cursorBound: Law = {
  id: 'agent.paging.cursor-refused-elsewhere',
  group: GROUP,
  title: 'a cursor with another input (limit, window, filter) or corrupted is refused naming cursor',
  ruleIds: ['AGENT-MCP-SEARCH-CURSOR-BOUND-TO-INPUT'],
  needs: { keys: ['read'] },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await searchReady(ctx);
      return withSession(ctx, 'read', async (session) => {
        const input = { dateRange: { relative: { unit: 'month', count: 3 } }, limit: 2 };
        const cursor = await firstCursor(session, input);
        const middle = Math.floor(cursor.length / 2);
        const flipped =
          cursor.slice(0, middle) + (cursor[middle] === 'A' ? 'B' : 'A') + cursor.slice(middle + 1);
        const probes: [string, Record<string, unknown>][] = [
          ['another limit', { ...input, limit: 3, cursor }],
          ['another window', { ...input, dateRange: { relative: { unit: 'month', count: 4 } }, cursor }],
          ['a filter added', { ...input, filter: filterOf([], ['OPEN']), cursor }],
          ['a corrupted cursor', { ...input, cursor: flipped }],
          ['a truncated cursor', { ...input, cursor: cursor.slice(0, Math.max(1, cursor.length - 4)) }],
        ];
        const accepted: string[] = [];
        for (const [what, probe] of probes) {
          const out = await runScript(session, `return await call(${literal(SEARCH)}, ${literal(probe)});`);
          if (out.kind === 'value') accepted.push(what);
          else if (out.kind === 'threw' && !out.message.includes('cursor'))
            violate(
              'AGENT-MCP-SEARCH-CURSOR-BOUND-TO-INPUT',
              'unnamed',
              `${what} was refused without naming cursor: ${out.message}`,
              probe,
            );
        }
        // The spec only asks clients to pass a cursor unchanged (4.18); refusing otherwise is the mock's choice.
        if (accepted.length > 0)
          throw new Absent(
            `the deployment accepts a cursor with ${accepted.join(', ')}; the spec does not require refusal (mock-only rule)`,
          );
        return probes.length;
      });
    }),
};

/** Records ingested through REST while a walk is under way: one newest, one inside the window. */
async function ingestTwo(ctx: LawContext): Promise<void> {
  const at = (msAgo: number) => new Date(ctx.now() - msAgo).toISOString();
  const record = (label: string, createdAt: string) => ({
    externalId: ctx.unique(label),
    authorId: ctx.unique('author'),
    authorName: 'cca-kit conformance',
    body: 'a record ingested while an agent pages (conformance check)',
    createdAt,
    recordType: 'post',
  });
  const res = await call(ctx, 'ingestRecords', {
    auth: 'ingest',
    json: {
      platform: 'CUSTOM_FORM',
      serverId: ctx.unique('server'),
      serverName: 'cca-kit conformance',
      records: [record('newest', at(1000)), record('inside', at(3 * 86_400_000))],
    },
  });
  if (res.status !== 202) throw new Absent(`ingestion answered ${res.status}; no records to add mid-walk`);
  for (let i = 0; i < 5; i++) await ctx.poll();
}

const ingestMidWalk: Law = {
  id: 'agent.paging.ingest-mid-walk',
  group: GROUP,
  title: 'records ingested while a walk is under way cause no duplicate and no skipped action',
  ruleIds: ['AGENT-MCP-SEARCH-CURSOR-SAME-INPUT'],
  needs: { keys: ['read', 'ingest'], writes: true },
  run: (ctx) =>
    agentExamples(ctx, async () => {
      await searchReady(ctx);
      return withSession(ctx, 'read', async (session) => {
        const input = { dateRange: { relative: { unit: 'day', count: 30 } }, limit: 7 };
        const before = await walk(session, { ...input, limit: MAX_LIMIT });
        let ingested = false;
        const w = await walk(session, input, {
          pagesPerExecution: 1,
          maxPages: 120,
          between: async (n) => {
            if (n === 1) {
              await ingestTwo(ctx);
              ingested = true;
            }
          },
        });
        if (!ingested) throw new Absent('the window has a single page: nothing to ingest between');
        const dup = duplicate(w.ids);
        if (dup !== undefined)
          violate(
            'AGENT-MCP-SEARCH-CURSOR-SAME-INPUT',
            'duplicate-after-ingest',
            `action ${dup} came twice in a walk during which records were ingested`,
            input,
          );
        const skipped = before.ended && w.ended ? notIn(before.ids, w.ids) : undefined;
        if (skipped !== undefined)
          violate(
            'AGENT-MCP-SEARCH-CURSOR-SAME-INPUT',
            'skipped-after-ingest',
            `action ${skipped}, matching before the ingestion, was skipped by a walk during which records were ingested`,
            input,
          );
        return 2;
      });
    }),
};

export const pagingLaws: readonly Law[] = [walkLaw, cursorBound, ingestMidWalk];
